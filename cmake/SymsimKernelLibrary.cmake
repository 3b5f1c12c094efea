# Builds an unmodified CANN-style program (host main + AscendC kernels calling CANN SHMEM)
# against the symsim shim into a kernel library for `symsim run --kernel-lib`:
#
#   include(<symsim>/cmake/SymsimKernelLibrary.cmake)
#   symsim_add_kernel_library(udma_demo_lib NAME udma_demo
#       SOURCES main.cpp udma_demo_kernel.cpp
#       ARGV "{n_pes} {pe} tcp://127.0.0.1:8899 {n_pes} 0 0 {test_type}"
#       ARGS "test_type:0:1:0:0 all-gather, 1 put with signal"
#       [DOC "..."] [MAX_BLOCKS 48] [INCLUDE_DIRECTORIES dirs...] [COMPILE_DEFINITIONS defs...])
#
# Each source is rewritten first (tools/symsim_rewrite.cpp: `k<<<n, l2, stream>>>(...)`
# launches become shim launches, `int main` becomes the library's entry point) and compiled
# with the shim's headers in place of CANN's. NAME is the kernel scenarios name; ARGV is each
# PE's argv ({pe}, {n_pes}, {ARG} substituted); ARGS declares the scenario's kernel.args
# (NAME:MIN:MAX:DEFAULT:DOC).
#
# Three ways in: inside symsim's build tree it is already included; from an installed symsim,
# find_package(symsim CONFIG) includes it; from a source checkout, include() it and name the
# symsim-rewrite program in SYMSIM_REWRITE (a CMake variable or the environment).
# The program used: the symsim-rewrite target of this build, else SYMSIM_REWRITE (CMake
# variable, then environment), else the installed package's symsim::rewrite.
if(NOT DEFINED SYMSIM_SHIM_INCLUDE_DIR)
  # symsim's CANN shim headers; find_package(symsim) sets them to the installed copy.
  set(SYMSIM_SHIM_INCLUDE_DIR ${CMAKE_CURRENT_LIST_DIR}/../kernels/shim/ascend/include)
endif()

# _symsim_rewrite_program(<command-var> <dependency-var> <caller>): the symsim-rewrite to run.
function(_symsim_rewrite_program cmd_var dep_var caller)
  if(TARGET symsim-rewrite)
    set(${cmd_var} $<TARGET_FILE:symsim-rewrite> PARENT_SCOPE)
    set(${dep_var} symsim-rewrite PARENT_SCOPE)
  elseif(SYMSIM_REWRITE)
    set(${cmd_var} ${SYMSIM_REWRITE} PARENT_SCOPE)
    set(${dep_var} ${SYMSIM_REWRITE} PARENT_SCOPE)
  elseif(DEFINED ENV{SYMSIM_REWRITE} AND NOT "$ENV{SYMSIM_REWRITE}" STREQUAL "")
    set(${cmd_var} $ENV{SYMSIM_REWRITE} PARENT_SCOPE)
    set(${dep_var} $ENV{SYMSIM_REWRITE} PARENT_SCOPE)
  elseif(TARGET symsim::rewrite)
    set(${cmd_var} $<TARGET_FILE:symsim::rewrite> PARENT_SCOPE)
    set(${dep_var} $<TARGET_FILE:symsim::rewrite> PARENT_SCOPE)
  else()
    message(FATAL_ERROR "${caller}: symsim-rewrite not found: use find_package(symsim CONFIG) with an installed "
                        "symsim, or set SYMSIM_REWRITE (CMake variable or environment) to the symsim-rewrite program")
  endif()
endfunction()

# symsim_rewrite_sources(<out-var> <sources>...): the rewritten copies of CANN-style sources
# (<<<>>> launches, main) for a target of your own; compile them with
# symsim_use_rewritten_sources(<target> <sources>...), which lets their "..." includes resolve
# next to the originals.
function(symsim_rewrite_sources out_var)
  _symsim_rewrite_program(rewrite rewrite_dep symsim_rewrite_sources)
  set(outs)
  foreach(src ${ARGN})
    get_filename_component(abs ${src} ABSOLUTE)
    file(RELATIVE_PATH rel ${CMAKE_CURRENT_SOURCE_DIR} ${abs})
    string(REPLACE "../" "__/" rel "${rel}")
    set(out ${CMAKE_CURRENT_BINARY_DIR}/symsim_rewritten/${rel})
    get_filename_component(out_dir ${out} DIRECTORY)
    add_custom_command(OUTPUT ${out} COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
                       COMMAND ${rewrite} ${abs} ${out} DEPENDS ${abs} ${rewrite_dep}
                       COMMENT "symsim-rewrite ${rel}" VERBATIM)
    list(APPEND outs ${out})
  endforeach()
  set(${out_var} ${outs} PARENT_SCOPE)
endfunction()

function(symsim_use_rewritten_sources target)
  set(dirs)
  foreach(src ${ARGN})
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(dir ${abs} DIRECTORY)
    list(APPEND dirs ${dir})
  endforeach()
  list(REMOVE_DUPLICATES dirs)
  foreach(dir ${dirs})
    target_compile_options(${target} PRIVATE "SHELL:-iquote ${dir}")
  endforeach()
endfunction()

function(symsim_add_kernel_library target)
  cmake_parse_arguments(K "" "NAME;ARGV;DOC;MAX_BLOCKS" "SOURCES;ARGS;INCLUDE_DIRECTORIES;COMPILE_DEFINITIONS" ${ARGN})
  if(NOT K_NAME OR NOT K_SOURCES)
    message(FATAL_ERROR "symsim_add_kernel_library(${target}): NAME and SOURCES are required")
  endif()
  _symsim_rewrite_program(rewrite rewrite_dep "symsim_add_kernel_library(${target})")
  if(NOT K_ARGV)
    set(K_ARGV "{n_pes} {pe}")
  endif()
  if(NOT K_MAX_BLOCKS)
    set(K_MAX_BLOCKS 48)
  endif()

  set(work ${CMAKE_CURRENT_BINARY_DIR}/${target}.symsim)
  set(rewritten)
  set(source_dirs)
  foreach(src ${K_SOURCES})
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(dir ${abs} DIRECTORY)
    get_filename_component(name ${abs} NAME)
    set(out ${work}/${name})
    add_custom_command(OUTPUT ${out} COMMAND ${CMAKE_COMMAND} -E make_directory ${work}
                       COMMAND ${rewrite} ${abs} ${out} DEPENDS ${abs} ${rewrite_dep}
                       COMMENT "symsim-rewrite ${name}" VERBATIM)
    list(APPEND rewritten ${out})
    list(APPEND source_dirs ${dir})
  endforeach()
  list(REMOVE_DUPLICATES source_dirs)

  set(info_args --name ${K_NAME} --argv ${K_ARGV} --max-blocks ${K_MAX_BLOCKS})
  if(K_DOC)
    list(APPEND info_args --doc ${K_DOC})
  endif()
  foreach(a ${K_ARGS})
    list(APPEND info_args --arg ${a})
  endforeach()
  set(info ${work}/symsim_kernel_library_info.cpp)
  add_custom_command(OUTPUT ${info} COMMAND ${CMAKE_COMMAND} -E make_directory ${work}
                     COMMAND ${rewrite} --info ${info} ${info_args} DEPENDS ${rewrite_dep}
                     COMMENT "symsim kernel library description of ${K_NAME}" VERBATIM)

  add_library(${target} MODULE ${rewritten} ${info})
  set_target_properties(${target} PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF
                        POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${target} PRIVATE ${SYMSIM_SHIM_INCLUDE_DIR} ${source_dirs} ${K_INCLUDE_DIRECTORIES})
  # "..."-includes are resolved next to the original sources, not the rewritten copies.
  foreach(dir ${source_dirs})
    target_compile_options(${target} PRIVATE "SHELL:-iquote ${dir}")
  endforeach()
  # Vendor attributes ([[bisheng::core_ratio]]) mean nothing to the host compiler.
  target_compile_options(${target} PRIVATE -Wno-attributes)
  # Call sites in reports are return addresses symbolised from line tables: at least -g1, and
  # no sibling calls (a tail-called shim function would return past the kernel).
  target_compile_options(${target} PRIVATE $<$<NOT:$<OR:$<CONFIG:Debug>,$<CONFIG:RelWithDebInfo>>>:-g1>
                         -fno-optimize-sibling-calls)
  # The library's own symbols win over same-named ones in symsim (e.g. another kernel of that
  # name): symsim exports its symbols so the library can call the shim.
  target_link_options(${target} PRIVATE "LINKER:-Bsymbolic")
  target_compile_definitions(${target} PRIVATE ${K_COMPILE_DEFINITIONS})
endfunction()

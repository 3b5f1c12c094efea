# Builds an unmodified CUDA program (host main + kernels, inline PTX in its own headers) with
# tools/symsim-nvcc into a kernel library for `symsim run --kernel-lib` (docs/cuda-programs.md):
#
#   include(<symsim>/cmake/SymsimCudaProgram.cmake)
#   symsim_add_cuda_program(vranks_lib NAME cuda_virtual_ranks
#       SOURCES virtual_ranks.cu
#       ARGV "{ranks} {bytes}"
#       ARGS "ranks:1:64:8:virtual ranks" "bytes:16:65536:4096:bytes per pair"
#       [NVCC_OPTIONS -O3 -std=c++17 -arch=sm_90a ...] [INCLUDE_DIRECTORIES dirs...] [DOC "..."])
#
# The target is a custom target; its library is ${CMAKE_CURRENT_BINARY_DIR}/lib<target>.so
# (also the target's SYMSIM_KERNEL_LIBRARY property). Inside symsim's build tree the
# symsim-rewrite target is used, else SYMSIM_REWRITE (CMake variable or environment).
set(SYMSIM_NVCC ${CMAKE_CURRENT_LIST_DIR}/../tools/symsim-nvcc)

function(symsim_add_cuda_program target)
  cmake_parse_arguments(K "" "NAME;ARGV;DOC;MAX_BLOCKS" "SOURCES;ARGS;NVCC_OPTIONS;INCLUDE_DIRECTORIES" ${ARGN})
  if(NOT K_NAME OR NOT K_SOURCES)
    message(FATAL_ERROR "symsim_add_cuda_program(${target}): NAME and SOURCES are required")
  endif()
  if(TARGET symsim-rewrite)
    set(rewrite $<TARGET_FILE:symsim-rewrite>)
    set(rewrite_dep symsim-rewrite)
  elseif(SYMSIM_REWRITE OR DEFINED ENV{SYMSIM_REWRITE})
    set(rewrite ${SYMSIM_REWRITE})
    if(NOT rewrite)
      set(rewrite $ENV{SYMSIM_REWRITE})
    endif()
    set(rewrite_dep ${rewrite})
  else()
    message(FATAL_ERROR "symsim_add_cuda_program(${target}): set SYMSIM_REWRITE to the symsim-rewrite program")
  endif()
  set(sources)
  set(deps)
  foreach(src ${K_SOURCES})
    get_filename_component(abs ${src} ABSOLUTE)
    list(APPEND sources ${abs})
    get_filename_component(dir ${abs} DIRECTORY)
    file(GLOB headers ${dir}/*.h ${dir}/*.cuh ${dir}/*.hpp)
    list(APPEND deps ${abs} ${headers})
  endforeach()
  set(options ${K_NVCC_OPTIONS})
  foreach(dir ${K_INCLUDE_DIRECTORIES})
    get_filename_component(abs ${dir} ABSOLUTE)
    list(APPEND options -I${abs})
  endforeach()
  list(APPEND options --symsim-kernel ${K_NAME})
  if(K_ARGV)
    list(APPEND options --symsim-argv ${K_ARGV})
  endif()
  if(K_DOC)
    list(APPEND options --symsim-doc ${K_DOC})
  endif()
  if(K_MAX_BLOCKS)
    list(APPEND options --symsim-max-blocks ${K_MAX_BLOCKS})
  endif()
  foreach(a ${K_ARGS})
    list(APPEND options --symsim-arg ${a})
  endforeach()
  set(lib ${CMAKE_CURRENT_BINARY_DIR}/lib${target}.so)
  add_custom_command(OUTPUT ${lib}
                     COMMAND ${CMAKE_COMMAND} -E env SYMSIM_REWRITE=${rewrite} SYMSIM_CXX=${CMAKE_CXX_COMPILER}
                             ${SYMSIM_NVCC} ${options} -o ${lib} ${sources}
                     DEPENDS ${deps} ${rewrite_dep} ${SYMSIM_NVCC}
                     COMMENT "symsim-nvcc ${K_NAME}" VERBATIM)
  add_custom_target(${target} ALL DEPENDS ${lib})
  set_target_properties(${target} PROPERTIES SYMSIM_KERNEL_LIBRARY ${lib})
endfunction()

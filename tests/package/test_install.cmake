# ctest install.*: symsim used from outside its source tree, as a user would.
#   MODE=find_package: `cmake --install` into a temporary prefix, move the prefix, check the
#     layout, that presets are found next to the moved executable (and SYMSIM_PLATFORM_DIR still
#     overrides), then build a CANN-style program (host main + <<<>>> kernel, unmodified) in a
#     project of its own through find_package(symsim CONFIG) and run it with the moved symsim.
#   MODE=source_include: the same program built with include(<src>/cmake/SymsimKernelLibrary.cmake)
#     and SYMSIM_REWRITE from the environment, run with the build tree's symsim.
# cmake -DMODE=... -DSOURCE_DIR=... -DBUILD_DIR=... -DWORK=... -DCXX=... -P test_install.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
unset(ENV{SYMSIM_REWRITE})
unset(ENV{SYMSIM_PLATFORM_DIR})

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
endfunction()

function(expect_match text regex what)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${what}: expected to match '${regex}', got:\n${text}")
  endif()
endfunction()

# The outside program: a copy of symsim's CANN-style example, in a folder of its own.
set(app ${WORK}/app)
foreach(f main.cpp ring_put_signal_kernel.cpp ring_put_signal.json)
  file(COPY ${SOURCE_DIR}/kernels/udma/cann_style/${f} DESTINATION ${app})
endforeach()
if(MODE STREQUAL "find_package")
  set(use_symsim "find_package(symsim 0.1 CONFIG REQUIRED)")
else()
  set(use_symsim "include(${SOURCE_DIR}/cmake/SymsimKernelLibrary.cmake)\nadd_executable(symsim::symsim IMPORTED)\nset_target_properties(symsim::symsim PROPERTIES IMPORTED_LOCATION ${BUILD_DIR}/bin/symsim)")
  set(ENV{SYMSIM_REWRITE} ${BUILD_DIR}/bin/symsim-rewrite)
endif()
file(WRITE ${app}/CMakeLists.txt "cmake_minimum_required(VERSION 3.16)
project(outside_cann_program CXX)
${use_symsim}
symsim_add_kernel_library(ring NAME cann_ring_put_signal
  SOURCES main.cpp ring_put_signal_kernel.cpp
  ARGV \"{n_pes} {pe} tcp://127.0.0.1:8899 {slot_bytes}\"
  ARGS \"slot_bytes:8:1048576:4096:bytes each PE puts to every other PE\")
file(GENERATE OUTPUT \${CMAKE_BINARY_DIR}/how_to_run.txt
     CONTENT \"$<TARGET_FILE:symsim::symsim>;$<TARGET_FILE:ring>\")
")

if(MODE STREQUAL "find_package")
  run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK}/staged)
  file(RENAME ${WORK}/staged ${WORK}/moved)
  set(prefix ${WORK}/moved)
  foreach(f bin/symsim bin/symsim-rewrite bin/symsim-cxx bin/symsim-nvcc include/symsim/ascend/kernel_operator.h
            include/symsim/ascend/symsim/launch.h include/symsim/cuda/cuda_runtime.h
            include/symsim/models/core/time.h include/symsim/models/ptx/ptx_types.h
            share/symsim/platforms/ascend910c.json share/symsim/scenarios/udma/udma_put_2pe.json
            share/symsim/sweeps/udma_put_sizes.json share/doc/symsim/README.md share/doc/symsim/LICENSE
            lib/cmake/symsim/symsimConfig.cmake lib/cmake/symsim/symsimConfigVersion.cmake
            lib/cmake/symsim/SymsimKernelLibrary.cmake)
    if(NOT EXISTS ${prefix}/${f})
      message(FATAL_ERROR "not installed: ${f}")
    endif()
  endforeach()
  if(NOT EXISTS ${prefix}/share/bash-completion/completions/symsim OR
     (EXISTS ${BUILD_DIR}/share/man/man1/symsim.1 AND NOT EXISTS ${prefix}/share/man/man1/symsim.1))
    message(FATAL_ERROR "bash completion or man page not installed")
  endif()
  execute_process(COMMAND grep -rlF ${WORK}/staged ${prefix} OUTPUT_VARIABLE naming_prefix)
  if(NOT naming_prefix STREQUAL "")
    message(FATAL_ERROR "these name the install prefix, so the tree would not survive a move:\n${naming_prefix}")
  endif()

  # Presets are found next to the moved executable; SYMSIM_PLATFORM_DIR still wins.
  file(COPY_FILE ${prefix}/share/symsim/platforms/ascend910c.json ${prefix}/share/symsim/platforms/moved_only.json)
  run("symsim list platforms" ${prefix}/bin/symsim list platforms)
  expect_match("${run_out}" "moved_only" "presets next to the moved executable")
  file(MAKE_DIRECTORY ${WORK}/presets)
  file(COPY_FILE ${prefix}/share/symsim/platforms/ascend910c.json ${WORK}/presets/override_only.json)
  run("SYMSIM_PLATFORM_DIR" ${CMAKE_COMMAND} -E env SYMSIM_PLATFORM_DIR=${WORK}/presets ${prefix}/bin/symsim list platforms)
  expect_match("${run_out}" "override_only" "SYMSIM_PLATFORM_DIR")
  if(run_out MATCHES "moved_only")
    message(FATAL_ERROR "SYMSIM_PLATFORM_DIR did not override the installed presets:\n${run_out}")
  endif()
  run("installed scenario" ${prefix}/bin/symsim validate ${prefix}/share/symsim/scenarios/udma/udma_put_2pe.json)
  # The compiler wrapper for other build systems finds symsim-rewrite and the headers in the tree.
  run("installed symsim-cxx" ${CMAKE_COMMAND} -E env SYMSIM_CXX=${CXX} ${prefix}/bin/symsim-cxx -shared
      -o ${WORK}/libwrapped.so ${app}/main.cpp ${app}/ring_put_signal_kernel.cpp --symsim-kernel wrapped_ring
      --symsim-argv "{n_pes} {pe} tcp://127.0.0.1:8899 4096")
  run("list kernels --kernel-lib" ${prefix}/bin/symsim list kernels --kernel-lib ${WORK}/libwrapped.so)
  expect_match("${run_out}" "wrapped_ring" "a kernel library built by the installed symsim-cxx")
  # So does the nvcc-compatible driver, for an unmodified CUDA program (a copy, outside the tree).
  file(COPY ${SOURCE_DIR}/kernels/cuda_programs/virtual_ranks DESTINATION ${WORK}/cuda)
  run("installed symsim-nvcc" ${CMAKE_COMMAND} -E env SYMSIM_CXX=${CXX} ${prefix}/bin/symsim-nvcc -O1 -std=c++17
      -arch=sm_90a -o ${WORK}/libvranks.so ${WORK}/cuda/virtual_ranks/virtual_ranks.cu --symsim-kernel cuda_virtual_ranks
      --symsim-argv "{ranks} {bytes}" --symsim-arg "ranks:1:64:8:ranks" --symsim-arg "bytes:16:65536:4096:bytes")
  run("installed CUDA program" ${prefix}/bin/symsim run ${WORK}/cuda/virtual_ranks/virtual_ranks.json
      --kernel-lib ${WORK}/libvranks.so --out ${WORK}/vranks)
  expect_match("${run_out}" "received 262144 B, 0 differ" "a CUDA program built by the installed symsim-nvcc")
  set(configure_args -DCMAKE_PREFIX_PATH=${prefix})
endif()

run("configure the outside project" ${CMAKE_COMMAND} -S ${app} -B ${app}/build -DCMAKE_CXX_COMPILER=${CXX} ${configure_args})
run("build the outside project" ${CMAKE_COMMAND} --build ${app}/build)
file(READ ${app}/build/how_to_run.txt how)
list(GET how 0 symsim)
list(GET how 1 library)
if(MODE STREQUAL "find_package" AND NOT symsim STREQUAL "${WORK}/moved/bin/symsim")
  message(FATAL_ERROR "symsim::symsim is ${symsim}, not the moved ${WORK}/moved/bin/symsim")
endif()
run("symsim run --kernel-lib" ${symsim} run ${app}/ring_put_signal.json --kernel-lib ${library}
    --set kernel.args.slot_bytes=2048 --out ${WORK}/out)
expect_match("${run_out}" "cann_ring_put_signal: pass" "the outside program's run")
file(READ ${WORK}/out/result.json result)
expect_match("${result}" "\"status\": \"pass\"" "result.json")
file(REMOVE_RECURSE ${WORK})

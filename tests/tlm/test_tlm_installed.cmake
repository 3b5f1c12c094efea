# ctest tlm.example_installed: `cmake --install` into a temporary prefix, then
# examples/tlm_platform as an outside project (a copy, find_package(symsim CONFIG)), built and
# run on the installed ascend910c preset.
# cmake -DSOURCE_DIR=... -DBUILD_DIR=... -DWORK=... -DCXX=... -P test_tlm_installed.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK}/prefix)
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
file(COPY ${SOURCE_DIR}/examples/tlm_platform DESTINATION ${WORK})
set(app ${WORK}/tlm_platform)
run("configure the example" ${CMAKE_COMMAND} -S ${app} -B ${app}/build -DCMAKE_CXX_COMPILER=${CXX}
    -DCMAKE_BUILD_TYPE=Release -Dsymsim_DIR=${prefix}/lib/cmake/symsim)
run("build the example" ${CMAKE_COMMAND} --build ${app}/build)
run("run the example" ${app}/build/tlm_platform ${prefix}/share/symsim/platforms/ascend910c.json)
message(STATUS "${run_out}")
if(NOT run_out MATCHES "tlm_platform: all checks passed")
  message(FATAL_ERROR "the installed example did not pass:\n${run_out}")
endif()
file(REMOVE_RECURSE ${WORK})

# ctest: builds the CANN-style example with tools/symsim-cxx (the wrapper for build systems
# other than CMake) and runs it with --kernel-lib.
# cmake -DSOURCE_DIR=... -DWORK=... -DSYMSIM=... -DREWRITE=... -DCXX=... -P test_symsim_cxx.cmake
file(MAKE_DIRECTORY ${WORK})
set(ENV{SYMSIM_REWRITE} ${REWRITE})
set(ENV{SYMSIM_CXX} ${CXX})
execute_process(COMMAND ${SOURCE_DIR}/tools/symsim-cxx -shared -o ${WORK}/libring.so
                        ${SOURCE_DIR}/kernels/udma/cann_style/main.cpp
                        ${SOURCE_DIR}/kernels/udma/cann_style/ring_put_signal_kernel.cpp
                        --symsim-kernel cann_ring_put_signal --symsim-argv "{n_pes} {pe} tcp://127.0.0.1:8899 {slot_bytes}"
                        "--symsim-arg" "slot_bytes:8:1048576:4096:bytes each PE puts to every other PE"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "symsim-cxx failed (${rc}):\n${err}")
endif()
execute_process(COMMAND ${SYMSIM} run ${SOURCE_DIR}/kernels/udma/cann_style/ring_put_signal.json
                        --kernel-lib ${WORK}/libring.so --set kernel.args.slot_bytes=2048 --out ${WORK}/out
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "symsim run --kernel-lib failed (${rc}):\n${out}\n${err}")
endif()

# ctest: builds the unmodified CUDA program kernels/cuda_programs/virtual_ranks with
# tools/symsim-nvcc from an nvcc command line, runs it with --kernel-lib on the h200 preset, and
# checks that it received every byte and printed the times it measured (simulated time).
# cmake -DSOURCE_DIR=... -DWORK=... -DSYMSIM=... -DREWRITE=... -DCXX=... -P test_symsim_nvcc.cmake
file(MAKE_DIRECTORY ${WORK})
set(ENV{SYMSIM_REWRITE} ${REWRITE})
set(ENV{SYMSIM_CXX} ${CXX})
set(dir ${SOURCE_DIR}/kernels/cuda_programs/virtual_ranks)
execute_process(COMMAND ${SOURCE_DIR}/tools/symsim-nvcc -O3 -std=c++17 -arch=sm_90a
                        -gencode arch=compute_90a,code=sm_90a -lineinfo --expt-relaxed-constexpr
                        -o ${WORK}/libvirtual_ranks.so ${dir}/virtual_ranks.cu -I${dir}
                        --symsim-kernel cuda_virtual_ranks --symsim-argv "{ranks} {bytes}"
                        --symsim-arg "ranks:1:64:8:virtual ranks (one CTA each)"
                        --symsim-arg "bytes:16:65536:4096:bytes each rank sends each rank"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "symsim-nvcc failed (${rc}):\n${err}")
endif()
execute_process(COMMAND ${SYMSIM} run ${dir}/virtual_ranks.json --kernel-lib ${WORK}/libvirtual_ranks.so
                        --set kernel.args.bytes=8192 --out ${WORK}/out
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "symsim run --kernel-lib failed (${rc}):\n${out}\n${err}")
endif()
foreach(expected "received 524288 B, 0 differ; 8 ranks finished under the lock; 0 bad arrival counts"
                 "all_to_all: 8 virtual ranks x 8192 B per pair: kernel [0-9]+\\.[0-9]+ us, slowest rank [1-9][0-9]* ns"
                 "device-to-device copy of 524288 B: [0-9]+\\.[0-9]+ us" "cuda_virtual_ranks: pass")
  if(NOT out MATCHES "${expected}")
    message(FATAL_ERROR "the program's output lacks '${expected}':\n${out}")
  endif()
endforeach()
# Simulated times are not 0: the kernel took longer than the slowest rank's own span.
if(NOT out MATCHES "kernel ([0-9]+)\\.([0-9]+) us" OR "${CMAKE_MATCH_1}${CMAKE_MATCH_2}" EQUAL 0)
  message(FATAL_ERROR "the kernel's event time is 0:\n${out}")
endif()

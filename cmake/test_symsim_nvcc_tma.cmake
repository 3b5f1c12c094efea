# ctest: builds the unmodified CUDA program kernels/cuda_programs/tma_relay (TMA bulk copies and
# mbarriers in its own inline-PTX header, a cooperative launch with void** args, runtime
# queries, mapped pinned memory) with tools/symsim-nvcc and checks every byte it relayed.
file(MAKE_DIRECTORY ${WORK})
set(ENV{SYMSIM_REWRITE} ${REWRITE})
set(ENV{SYMSIM_CXX} ${CXX})
set(dir ${SOURCE_DIR}/kernels/cuda_programs/tma_relay)
execute_process(COMMAND ${SOURCE_DIR}/tools/symsim-nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a
                        -Xcompiler -Wall -o ${WORK}/libtma_relay.so ${dir}/tma_relay.cu
                        --symsim-kernel cuda_tma_relay --symsim-argv "{ranks} {chunks} {chunk_bytes}"
                        --symsim-arg "ranks:1:64:4:virtual ranks" --symsim-arg "chunks:1:1000:4:chunks per rank"
                        --symsim-arg "chunk_bytes:16:200000:8192:bytes per chunk (multiple of 16)"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "symsim-nvcc failed (${rc}):\n${err}")
endif()
execute_process(COMMAND ${SYMSIM} run ${dir}/tma_relay.json --kernel-lib ${WORK}/libtma_relay.so
                        --set kernel.args.chunks=6 --out ${WORK}/out
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "symsim run --kernel-lib failed (${rc}):\n${out}\n${err}")
endif()
foreach(expected "driver 12040 runtime 12040, 132 SMs, 232448 B shared memory per block, 1 block\\(s\\) of relay per SM"
                 "relay: 4 ranks x 6 chunks x 8192 B by TMA: [0-9]+\\.[0-9]+ us; 0 B differ; 0 ranks report a problem"
                 "cuda_tma_relay: pass")
  if(NOT out MATCHES "${expected}")
    message(FATAL_ERROR "the program's output lacks '${expected}':\n${out}")
  endif()
endforeach()

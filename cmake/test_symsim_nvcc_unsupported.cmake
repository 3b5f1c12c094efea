# ctest: an inline PTX instruction outside symsim-nvcc's subset is a build error that names the
# instruction and the file:line of its asm statement (never a silent no-op).
file(MAKE_DIRECTORY ${WORK})
set(ENV{SYMSIM_REWRITE} ${REWRITE})
set(ENV{SYMSIM_CXX} ${CXX})
file(WRITE ${WORK}/uses_wgmma.cu "#include <cuda_runtime.h>
__global__ void k(int* p) {
  asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");
}
int main() { return 0; }
")
execute_process(COMMAND ${SOURCE_DIR}/tools/symsim-nvcc -arch=sm_90a -o ${WORK}/lib.so ${WORK}/uses_wgmma.cu
                        --symsim-kernel unsupported
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "symsim-nvcc built a program with an unsupported PTX instruction")
endif()
if(NOT err MATCHES "uses_wgmma.cu:3:[^\n]*unsupported inline PTX instruction: wgmma.fence.sync.aligned")
  message(FATAL_ERROR "the error does not name the instruction and uses_wgmma.cu:3:\n${err}")
endif()

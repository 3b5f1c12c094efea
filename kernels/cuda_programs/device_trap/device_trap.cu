// A kernel that traps through DeepEP's EP_DEVICE_ASSERT pattern (printf, then asm("trap;")):
// the launch fails with cudaErrorLaunchFailure, and `symsim run` names the trap.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void check_positive(const int* values) {
  const int v = values[threadIdx.x];
  if (!(v > 0)) {
    printf("Assertion failed: value %d of thread %d\n", v, static_cast<int>(threadIdx.x));
    asm("trap;");
  }
}

int main() {
  int host[32];
  for (int i = 0; i < 32; ++i) host[i] = i == 5 ? -1 : i + 1;
  int* values = nullptr;
  cudaMalloc(&values, sizeof(host));
  cudaMemcpy(values, host, sizeof(host), cudaMemcpyHostToDevice);
  check_positive<<<1, 32>>>(values);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("device_trap: cudaDeviceSynchronize returned %d (%s)\n", e, cudaGetErrorString(e));
  return e == cudaErrorLaunchFailure ? 0 : 1;
}

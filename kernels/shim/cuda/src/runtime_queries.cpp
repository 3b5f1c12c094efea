// The CUDA runtime calls programs make around their launches (tools/symsim-nvcc programs):
// device properties and attributes from the platform's parameters, versions, kernel
// attributes and occupancy, streams with flags, async memset, pinned host memory.
#include <fmt/format.h>

#include <cstring>

#include "cuda_runtime.h"
#include "models/nvidia/device_memory.h"
#include "models/nvidia/nvidia_params.h"
#include "models/nvidia/nvidia_system.h"
#include "symsim/cuda/runtime.h"

using namespace symsim;

namespace {
const nv::NvidiaParams& params() { return cuda::system().params(); }
constexpr int kSmVersionMajor = 9;  // the modelled GPUs (H100/H200/H800) are sm_90
constexpr size_t kDefaultSmemPerBlock = 48 * 1024;
}  // namespace

cudaError_t cudaSetDevice(int device) { return device == cuda::my_rank() || device == 0 ? cudaSuccess : cudaErrorInvalidDevice; }

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned) { return cudaStreamCreate(s); }
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* s, unsigned, int) { return cudaStreamCreate(s); }

cudaError_t cudaMemsetAsync(void* dst, int value, size_t bytes, cudaStream_t s) {
  const cudaError_t e = cudaStreamSynchronize(s);  // the queue is in order: earlier work first
  return e != cudaSuccess ? e : cudaMemset(dst, value, bytes);
}

// Mapped pinned memory lives in the GPU's own memory here: kernels reach it at HBM speed, not
// over PCIe (docs/cuda-programs.md).
cudaError_t cudaHostAlloc(void** p, size_t bytes, unsigned) { return cudaMalloc(p, bytes); }
cudaError_t cudaMallocHost(void** p, size_t bytes) { return cudaMalloc(p, bytes); }
cudaError_t cudaFreeHost(void* p) { return cudaFree(p); }
cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned) {
  if (!device || !host) return cudaErrorInvalidValue;
  *device = host;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (!prop) return cudaErrorInvalidValue;
  if (device != 0 && device != cuda::my_rank()) return cudaErrorInvalidDevice;
  const nv::NvidiaParams& p = params();
  std::memset(prop, 0, sizeof(*prop));
  std::snprintf(prop->name, sizeof(prop->name), "symsim GPU %d (%d SMs, %.0f GB/s HBM)", cuda::my_rank(),
                static_cast<int>(p.sm_count), p.hbm_gbytes_per_s);
  prop->totalGlobalMem = static_cast<size_t>(p.hbm_bytes);
  prop->sharedMemPerBlock = kDefaultSmemPerBlock;
  prop->sharedMemPerBlockOptin = static_cast<size_t>(p.sm_smem_bytes);
  prop->sharedMemPerMultiprocessor = static_cast<size_t>(p.sm_smem_bytes);
  prop->regsPerBlock = 65536;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = static_cast<int>(p.sm_max_threads);
  prop->maxThreadsPerMultiProcessor = static_cast<int>(p.sm_max_threads);
  prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = static_cast<int>(p.sm_max_threads);
  prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = 0x7fffffff;
  prop->maxGridSize[1] = prop->maxGridSize[2] = 65535;
  prop->clockRate = static_cast<int>(p.sm_clock_ghz * 1e6);
  prop->multiProcessorCount = static_cast<int>(p.sm_count);
  prop->major = kSmVersionMajor;
  prop->minor = 0;
  prop->cooperativeLaunch = 1;
  prop->canMapHostMemory = 1;
  prop->unifiedAddressing = 1;
  prop->pciBusID = cuda::my_rank();
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  cudaDeviceProp prop;
  if (!value) return cudaErrorInvalidValue;
  const cudaError_t e = cudaGetDeviceProperties(&prop, device);
  if (e != cudaSuccess) return e;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = prop.maxThreadsPerBlock; return cudaSuccess;
    case cudaDevAttrWarpSize: *value = prop.warpSize; return cudaSuccess;
    case cudaDevAttrClockRate: *value = prop.clockRate; return cudaSuccess;
    case cudaDevAttrMultiProcessorCount: *value = prop.multiProcessorCount; return cudaSuccess;
    case cudaDevAttrComputeCapabilityMajor: *value = prop.major; return cudaSuccess;
    case cudaDevAttrComputeCapabilityMinor: *value = prop.minor; return cudaSuccess;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(prop.sharedMemPerBlockOptin); return cudaSuccess;
    case cudaDevAttrCooperativeLaunch: *value = prop.cooperativeLaunch; return cudaSuccess;
  }
  return cudaErrorInvalidValue;
}

// The CUDA 12.4 runtime and driver interface.
cudaError_t cudaDriverGetVersion(int* version) {
  if (!version) return cudaErrorInvalidValue;
  *version = 12040;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* version) { return cudaDriverGetVersion(version); }

cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  if (!func) return cudaErrorInvalidValue;
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize && (value < 0 || value > params().sm_smem_bytes))
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func, int block_threads,
                                                          size_t dyn_smem_bytes) {
  if (!blocks || !func || block_threads <= 0) return cudaErrorInvalidValue;
  const nv::NvidiaParams& p = params();
  *blocks = block_threads <= p.sm_max_threads && dyn_smem_bytes <= p.sm_smem_bytes ? 1 : 0;
  return cudaSuccess;
}

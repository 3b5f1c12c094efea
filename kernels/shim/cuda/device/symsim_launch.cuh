// Launch and dynamic shared memory, portable between the hardware build (nvcc) and the
// simulator build (host compiler + shim):
//   SYMSIM_LAUNCH(kernel, grid, block, smem, stream, args...)              kernel<<<...>>>(args...)
//   SYMSIM_LAUNCH_COOPERATIVE(kernel, grid, block, smem, stream, args...)  cudaLaunchCooperativeKernel
//   SYMSIM_EXTERN_SHARED(T, name);                                         extern __shared__ T name[];
#pragma once
#include <cstddef>
#include <tuple>
#include <utility>

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#define SYMSIM_EXTERN_SHARED(type, name) extern __shared__ __align__(1024) type name[]
namespace symsim_launch_detail {
template <typename... K, size_t... I>
cudaError_t cooperative(void (*k)(K...), dim3 g, dim3 b, size_t smem, cudaStream_t s, std::tuple<K...>& a,
                        std::index_sequence<I...>) {
  void* args[] = {static_cast<void*>(&std::get<I>(a))..., nullptr};
  return cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(k), g, b, args, smem, s);
}
template <typename... K, typename... A>
cudaError_t cooperative(void (*k)(K...), dim3 g, dim3 b, size_t smem, cudaStream_t s, A&&... a) {
  std::tuple<K...> args(std::forward<A>(a)...);
  return cooperative(k, g, b, smem, s, args, std::index_sequence_for<K...>{});
}
// Dynamic shared memory past 48 KB must be allowed per kernel before the launch.
template <typename... K>
cudaError_t allow_smem(void (*k)(K...), size_t smem) {
  return smem > 48 * 1024 ? cudaFuncSetAttribute(reinterpret_cast<const void*>(k), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 static_cast<int>(smem))
                          : cudaSuccess;
}
}  // namespace symsim_launch_detail
#if defined(SYMSIM_HW)
// symsim-hw (hw/) times each launch with events around it on the calling thread's stream.
namespace symsim::hw {
void launch_begin(const char* kernel);
cudaError_t launch_end(cudaError_t launched);
}  // namespace symsim::hw
#define SYMSIM_HW_TIMED(kernel, launch) (::symsim::hw::launch_begin(#kernel), ::symsim::hw::launch_end(launch))
#else
#define SYMSIM_HW_TIMED(kernel, launch) (launch)
#endif
#define SYMSIM_LAUNCH(kernel, grid, block, smem, stream, ...)                                       \
  (symsim_launch_detail::allow_smem(kernel, smem),                                                  \
   SYMSIM_HW_TIMED(kernel, (kernel<<<(grid), (block), (smem), (stream)>>>(__VA_ARGS__), cudaGetLastError())))
#if defined(SYMSIM_HW_PLAIN_LAUNCH)
// Cooperative launches as plain ones (all CTAs must still fit on the GPU at once).
#define SYMSIM_LAUNCH_COOPERATIVE SYMSIM_LAUNCH
#else
#define SYMSIM_LAUNCH_COOPERATIVE(kernel, grid, block, smem, stream, ...) \
  (symsim_launch_detail::allow_smem(kernel, smem),                       \
   SYMSIM_HW_TIMED(kernel, symsim_launch_detail::cooperative(kernel, grid, block, smem, stream, __VA_ARGS__)))
#endif
#else
#include "cuda_runtime.h"
#define SYMSIM_EXTERN_SHARED(type, name) type* const name = static_cast<type*>(::symsim::cuda::dynamic_smem())
#define SYMSIM_LAUNCH(kernel, grid, block, smem, stream, ...) \
  ::symsim::cuda::launch(#kernel, kernel, grid, block, smem, stream, false, __VA_ARGS__)
#define SYMSIM_LAUNCH_COOPERATIVE(kernel, grid, block, smem, stream, ...) \
  ::symsim::cuda::launch(#kernel, kernel, grid, block, smem, stream, true, __VA_ARGS__)
#endif

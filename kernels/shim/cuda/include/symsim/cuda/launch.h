// Kernel launches for the simulator build: `kernel<<<grid, block, smem, stream>>>(args...)`
// is written SYMSIM_LAUNCH(kernel, grid, block, smem, stream, args...) in portable code
// (device/symsim_launch.cuh); here the arguments are captured by value and every thread of
// the grid runs kernel(args...) as a fiber on the GPU's SMs.
#pragma once
#include <cstddef>
#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>

namespace symsim::cuda {

// Queues a launch on the calling host program's GPU.
int launch_kernel(const char* name, dim3 grid, dim3 block, size_t dyn_smem_bytes, cudaStream_t stream,
                  std::function<void()> body, bool cooperative);

template <typename... KArgs, typename... Args>
int launch(const char* name, void (*kernel)(KArgs...), dim3 grid, dim3 block, size_t smem, cudaStream_t stream,
           bool cooperative, Args&&... args) {
  static_assert(sizeof...(KArgs) == sizeof...(Args), "kernel launched with the wrong number of arguments");
  std::tuple<std::decay_t<KArgs>...> captured(std::forward<Args>(args)...);
  return launch_kernel(name, grid, block, smem, stream, [kernel, captured]() { std::apply(kernel, captured); },
                       cooperative);
}

}  // namespace symsim::cuda

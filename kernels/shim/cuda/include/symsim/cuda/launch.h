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

// `kernel<<<grid, block, smem, stream>>>(args...)` in a program built by tools/symsim-nvcc:
// symsim-rewrite turns it into chevron_launch("kernel", &kernel, grid, block, smem, stream)(args...).
template <typename... KArgs>
struct ChevronLaunch {
  const char* name;
  void (*kernel)(KArgs...);
  dim3 grid, block;
  size_t smem;
  cudaStream_t stream;
  template <typename... Args>
  void operator()(Args&&... args) const {
    launch(name ? name : "kernel", kernel, grid, block, smem, stream, false, std::forward<Args>(args)...);
  }
};
template <typename... KArgs>
ChevronLaunch<KArgs...> chevron_launch(const char* name, void (*kernel)(KArgs...), dim3 grid, dim3 block,
                                       size_t smem_bytes = 0, cudaStream_t stream = nullptr) {
  return {name, kernel, grid, block, smem_bytes, stream};
}

// cudaLaunchCooperativeKernel / cudaLaunchKernel with `void** args`: each argument is copied
// from where args[i] points, as the driver does.
template <typename... KArgs, size_t... I>
int launch_with_arg_array(const char* name, void (*kernel)(KArgs...), dim3 grid, dim3 block, void** args,
                          size_t smem_bytes, cudaStream_t stream, bool cooperative, std::index_sequence<I...>) {
  return launch(name, kernel, grid, block, smem_bytes, stream, cooperative,
                *static_cast<std::decay_t<KArgs>*>(args[I])...);
}

}  // namespace symsim::cuda

template <typename... KArgs>
int cudaLaunchCooperativeKernel(void (*kernel)(KArgs...), dim3 grid, dim3 block, void** args, size_t smem_bytes = 0,
                                cudaStream_t stream = nullptr) {
  return ::symsim::cuda::launch_with_arg_array("cooperative kernel", kernel, grid, block, args, smem_bytes, stream, true,
                                               std::index_sequence_for<KArgs...>{});
}
// cudaLaunchKernelEx (the C++ form: the kernel's own arguments). The cooperative attribute
// makes it a cooperative launch; other attributes (clusters, priorities) are accepted.
enum cudaLaunchAttributeID { cudaLaunchAttributeIgnore = 0, cudaLaunchAttributeCooperative = 2,
                             cudaLaunchAttributeClusterDimension = 4, cudaLaunchAttributePriority = 8 };
struct cudaLaunchAttributeValue {
  int cooperative;
  struct { unsigned x, y, z; } clusterDim;
  int priority;
};
struct cudaLaunchAttribute {
  cudaLaunchAttributeID id;
  cudaLaunchAttributeValue val;
};
// gridDim and blockDim are builtins here (macros): symsim-rewrite --cuda renames the fields
// `.gridDim` / `->gridDim` of a program's launch configuration to these.
struct cudaLaunchConfig_t {
  dim3 symsim_grid_dim;
  dim3 symsim_block_dim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute* attrs;
  unsigned numAttrs;
};
template <typename... KArgs, typename... Args>
int cudaLaunchKernelEx(const cudaLaunchConfig_t* config, void (*kernel)(KArgs...), Args&&... args) {
  bool cooperative = false;
  for (unsigned i = 0; config && i < config->numAttrs; ++i)
    cooperative |= config->attrs[i].id == cudaLaunchAttributeCooperative && config->attrs[i].val.cooperative != 0;
  if (!config) return 1;  // cudaErrorInvalidValue
  return ::symsim::cuda::launch("kernel", kernel, config->symsim_grid_dim, config->symsim_block_dim, config->dynamicSmemBytes,
                                config->stream, cooperative, std::forward<Args>(args)...);
}
template <typename... KArgs>
int cudaLaunchKernel(void (*kernel)(KArgs...), dim3 grid, dim3 block, void** args, size_t smem_bytes = 0,
                     cudaStream_t stream = nullptr) {
  return ::symsim::cuda::launch_with_arg_array("kernel", kernel, grid, block, args, smem_bytes, stream, false,
                                               std::index_sequence_for<KArgs...>{});
}

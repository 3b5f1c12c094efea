// Kernel launches of a co-simulated host program: a stub per kernel of cosim_kernels.h,
// with the launch function's own signature, that sends the kernel's name and arguments to
// the simulator, where the kernel runs on the simulated AIV cores.
#include <cstdio>
#include <vector>

#include "sim/cosim/cosim_kernels.h"
#include "sim/cosim/host/host_link.h"

namespace {

template <typename T>
uint64_t to_word(T v) {
  if constexpr (std::is_pointer_v<T>) {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(v));
  } else {
    return static_cast<uint64_t>(v);
  }
}

template <typename... A>
std::vector<uint64_t> words(A... args) {
  return {to_word(args)...};
}

// A failed launch shows up at the next synchronisation (the stream reports it), as on hardware.
void launch_remote(const char* kernel, uint32_t block_dim, void* stream, std::vector<uint64_t> args) {
  symsim::cosim::HostLink::get().call_ret({{"op", "launch"},
                                           {"kernel", kernel},
                                           {"block_dim", block_dim},
                                           {"stream", to_word(stream)},
                                           {"args", std::move(args)}});
}

}  // namespace

#define SYMSIM_COSIM_STUB(id, fn, params, names)                           \
  void fn(uint32_t block_dim, void* stream, SYMSIM_COSIM_UNPAREN params) { \
    launch_remote(#id, block_dim, stream, words names);                    \
  }
SYMSIM_COSIM_KERNELS(SYMSIM_COSIM_STUB)
#undef SYMSIM_COSIM_STUB

// Kernel launch for ACLRT_LAUNCH_KERNEL(k)(block_dim, stream, args...): the arguments are
// captured by value and each block runs `k(args...)` as a coroutine on its own AIV core.
#pragma once
#include <cstdint>
#include <functional>
#include <tuple>
#include <utility>

namespace symsim::shim {

// Queues `body` on `stream` of the calling PE to run on `block_dim` AIV cores.
void launch_kernel(const char* name, uint32_t block_dim, void* stream, std::function<void()> body);

template <typename Fn>
class Launcher {
 public:
  Launcher(const char* name, Fn fn) : m_name(name), m_fn(fn) {}
  template <typename... Args>
  uint32_t operator()(uint32_t block_dim, void* stream, Args... args) const {
    Fn fn = m_fn;
    launch_kernel(m_name, block_dim, stream, [fn, args...]() { fn(args...); });
    return 0;
  }

 private:
  const char* m_name;
  Fn m_fn;
};

}  // namespace symsim::shim

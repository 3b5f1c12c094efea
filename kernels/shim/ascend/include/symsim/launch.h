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

// The symbol name of a kernel entry point (for launches whose name the rewrite could not spell).
const char* kernel_symbol_name(const void* entry);

// `kernel<<<block_dim, l2ctrl, stream>>>(args...)` as symsim-cxx rewrites it:
// chevron_launch("kernel", &kernel, block_dim, l2ctrl, stream)(args...).
template <typename Fn>
class ChevronLaunch {
 public:
  ChevronLaunch(const char* name, Fn fn, uint32_t block_dim, void* stream)
      : m_name(name), m_fn(fn), m_block_dim(block_dim), m_stream(stream) {}
  template <typename... Args>
  void operator()(Args... args) const {
    Fn fn = m_fn;
    const char* name = m_name ? m_name : kernel_symbol_name(reinterpret_cast<const void*>(fn));
    launch_kernel(name, m_block_dim, m_stream, [fn, args...]() { fn(args...); });
  }

 private:
  const char* m_name;
  Fn m_fn;
  uint32_t m_block_dim;
  void* m_stream;
};

template <typename Fn>
ChevronLaunch<Fn> chevron_launch(const char* name, Fn fn, uint64_t block_dim, const void* /*l2ctrl*/ = nullptr,
                                 void* stream = nullptr) {
  return ChevronLaunch<Fn>(name, fn, static_cast<uint32_t>(block_dim), stream);
}

}  // namespace symsim::shim

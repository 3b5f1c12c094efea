// What AddressSanitizer and LeakSanitizer must be told about the simulator's stacks
// (-DSYMSIM_SANITIZE=ON, docs/sanitizers.md). Without ASan every member here is empty.
//
// FiberAsan: the stack switches of a Boost.Context fiber (the CUDA threads, the SIMT threads
// of a VF). Boost's fcontext switches stacks without telling ASan, which then takes the
// fiber's stack for the coroutine's that resumed it. An exception thrown on the fiber (a
// trap, Boost's forced unwind of a suspended fiber) cannot clean the redzones of the frames it
// unwinds ("ASan is ignoring requested __asan_handle_no_return"), and later calls that reuse
// those addresses see false stack-buffer-overflows. SystemC 2.3.4 annotates its own
// coroutines; these guards do the same around every fiber switch
// (__sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber). One FiberAsan per fiber:
//   scheduler side, around each switch into the fiber (resume, destroy): FiberAsan::Resume
//   fiber side, around its whole function: FiberAsan::Body. It must hold from the first
//     switch in to the last switch out; Boost unwinds a fiber destroyed before it first ran
//     before any code of ours runs on it, so run such a fiber once instead and let it return.
//   fiber side, around each switch back to the scheduler: FiberAsan::Yield (its destructor
//     also runs when a forced unwind comes in through the switch)
// Stack-use-after-return detection (detect_stack_use_after_return=1) is not supported: SystemC
// drops ASan's fake stacks at each of its switches. ASan's default leaves it off.
//
// CoroutineStackRoot: LeakSanitizer scans thread stacks, globals and the heap, not the stacks
// SystemC 2.3.4 maps for its coroutines. A coroutine still blocked when a run ends (a deadlock
// or a timeout; SystemC neither resumes nor unwinds it) owns its frames' objects only from
// there, and LSan would report them as leaked at exit. One at the top of a coroutine's
// function makes its stack a root region until the function returns.
#pragma once
#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define SYMSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SYMSIM_ASAN 1
#endif
#endif

#ifdef SYMSIM_ASAN
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#endif

namespace symsim {

class FiberAsan {
 public:
  // The fiber's stack: `size` bytes below `high` (Boost's stack_context::sp).
  void set_stack(void* high, size_t size) {
    m_bottom = static_cast<char*>(high) - size;
    m_size = size;
  }

  class Resume {
   public:
    explicit Resume(FiberAsan& f) {
#ifdef SYMSIM_ASAN
      __sanitizer_start_switch_fiber(&m_fake, f.m_bottom, f.m_size);
#else
      (void)f;
#endif
    }
    ~Resume() {
#ifdef SYMSIM_ASAN
      __sanitizer_finish_switch_fiber(m_fake, nullptr, nullptr);
#endif
    }
    Resume(const Resume&) = delete;
    Resume& operator=(const Resume&) = delete;

   private:
    [[maybe_unused]] void* m_fake = nullptr;  // the scheduler's fake stack while the fiber runs
  };

  class Body {
   public:
    explicit Body(FiberAsan& f) : m_f(f) {
#ifdef SYMSIM_ASAN
      __sanitizer_finish_switch_fiber(nullptr, &m_f.m_caller_bottom, &m_f.m_caller_size);
#endif
    }
    ~Body() {
#ifdef SYMSIM_ASAN
      __sanitizer_start_switch_fiber(nullptr, m_f.m_caller_bottom, m_f.m_caller_size);  // the fiber ends
#endif
    }
    Body(const Body&) = delete;
    Body& operator=(const Body&) = delete;

   private:
    [[maybe_unused]] FiberAsan& m_f;
  };

  class Yield {
   public:
    explicit Yield(FiberAsan& f) : m_f(f) {
#ifdef SYMSIM_ASAN
      __sanitizer_start_switch_fiber(&m_fake, m_f.m_caller_bottom, m_f.m_caller_size);
#endif
    }
    ~Yield() {
#ifdef SYMSIM_ASAN
      __sanitizer_finish_switch_fiber(m_fake, &m_f.m_caller_bottom, &m_f.m_caller_size);
#endif
    }
    Yield(const Yield&) = delete;
    Yield& operator=(const Yield&) = delete;

   private:
    [[maybe_unused]] FiberAsan& m_f;
    [[maybe_unused]] void* m_fake = nullptr;  // the fiber's fake stack while it is suspended
  };

 private:
  [[maybe_unused]] const void* m_bottom = nullptr;  // the fiber's stack
  [[maybe_unused]] size_t m_size = 0;
  [[maybe_unused]] const void* m_caller_bottom = nullptr;  // the stack that resumed it last
  [[maybe_unused]] size_t m_caller_size = 0;
};

class CoroutineStackRoot {
 public:
  // `stack_bytes`: the coroutine's stack size (sc_spawn_options::set_stack_size). The region
  // is the `stack_bytes` below this frame: the stack from here down, and below its low end as
  // many bytes as this frame is below its high end (harmless to scan; LSan skips what is not
  // readable, such as the stack's guard page).
  explicit CoroutineStackRoot(size_t stack_bytes) {
#ifdef SYMSIM_ASAN
    m_high = static_cast<char*>(__builtin_frame_address(0));
    m_size = stack_bytes;
    __lsan_register_root_region(m_high - m_size, m_size);
#else
    (void)stack_bytes;
#endif
  }
  ~CoroutineStackRoot() {
#ifdef SYMSIM_ASAN
    __lsan_unregister_root_region(m_high - m_size, m_size);
#endif
  }
  CoroutineStackRoot(const CoroutineStackRoot&) = delete;
  CoroutineStackRoot& operator=(const CoroutineStackRoot&) = delete;

 private:
  [[maybe_unused]] char* m_high = nullptr;
  [[maybe_unused]] size_t m_size = 0;
};

}  // namespace symsim

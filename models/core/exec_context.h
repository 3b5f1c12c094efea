// The coroutine that is running now: which PE, and which AIV core (null on a host thread).
// Every wait in a coroutine goes through a helper that restores this pointer on resume,
// so shim calls can find their PE and core without arguments.
#pragma once

namespace symsim {

class AivCore;

struct ExecContext {
  int pe = -1;
  AivCore* core = nullptr;
  void* host = nullptr;  // the shim's per-PE host state
  // Shim calls this coroutine made, outside observations and pipe syncs (which set `uncounted`):
  // a polling loop makes none between its reads, a loop doing other work does.
  uint64_t shim_calls = 0;
  int uncounted = 0;
};

inline ExecContext*& current_exec() {
  static ExecContext* ctx = nullptr;
  return ctx;
}

}  // namespace symsim

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
};

inline ExecContext*& current_exec() {
  static ExecContext* ctx = nullptr;
  return ctx;
}

}  // namespace symsim

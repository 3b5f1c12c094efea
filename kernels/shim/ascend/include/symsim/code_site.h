// Turns a kernel call site (the return address a shim entry point recorded, shim_core.h) into
// the kernel source's file:line, from the debug information of the code that holds it (libdw).
// Only reports call this: results are cached per address. Kernel authors never include this.
#pragma once
#include <cstdint>
#include <string>

#include "symsim/shim_core.h"

namespace symsim::shim {

struct SourceLine {
  const char* file = nullptr;  // null: unknown (no debug information); valid for the process
  int line = 0;
};

// The kernel source line of the call that returned to `return_address`: the innermost call in
// its chain of inlined calls that is not in the shim's own headers.
SourceLine source_line(const void* return_address);
// "file:line" of `site`; "?" when unknown.
std::string where(CallSite site);
// Kernel code loaded from `file` at `load_bias` through a private copy that is gone from the
// file system (kernel libraries): its lines are read from `file`.
void note_loaded_code(const std::string& file, uintptr_t load_bias);

}  // namespace symsim::shim

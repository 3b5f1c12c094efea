#include "sim/runner/one_shot_exit.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "models/core/sanitizers.h"

namespace symsim {

RunEnd one_shot_run_end() {
  const char* text = std::getenv("SYMSIM_FULL_TEARDOWN");
  bool full = false;
  if (text && *text && std::strcmp(text, "0") != 0) {
    if (std::strcmp(text, "1") != 0) {
      std::fprintf(stderr, "symsim: environment variable SYMSIM_FULL_TEARDOWN: '%s' is neither 0 nor 1\n", text);
      std::exit(2);
    }
    full = true;
  }
#ifdef SYMSIM_ASAN
  full = true;  // LeakSanitizer runs at exit: it should see what a process that runs more frees
#endif
  return full ? RunEnd::kTornDown : RunEnd::kKept;
}

void exit_if_kept(const RunOutput& out, int rc) {
  if (!out.kept) return;
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::exit(rc);
}

}  // namespace symsim

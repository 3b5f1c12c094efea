// `symsim sweep SWEEP.json [--jobs N] [--shard I/M] [--out DIR] [--resume] [--point-timeout S]
// [--timeout S]` and `symsim sweep --merge DIR... --out DIR` (docs/sweeps.md). Exit 0 when every
// point passed, 1 when one did not, 2 on invalid input (nothing runs); a sweep stopped before
// the end writes the table of what finished, marked partial, and exits 130 (SIGINT), 143
// (SIGTERM) or 124 (--timeout).
#pragma once
#include <string>
#include <vector>

namespace symsim::sweep {

struct SweepOptions {
  std::string file;
  int jobs = 0;         // 0: hardware threads
  std::string shard;    // "I/M"; empty: the whole sweep
  std::string out_dir;  // default: symsim-sweep/<name>[/shard-I-of-M]
  std::vector<std::string> merge;
  bool quiet = false;
  bool resume = false;          // keep the points already finished in out_dir, run the rest
  double point_timeout_s = 0;   // > 0: stop a point after this many wall seconds
  double timeout_s = 0;         // > 0: stop the whole sweep after this many wall seconds
  std::vector<std::string> kernel_libs;  // already loaded (validation); passed to the workers
};

int sweep_main(const SweepOptions& options);

}  // namespace symsim::sweep

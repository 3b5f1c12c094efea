// `symsim sweep SWEEP.json [--jobs N] [--shard I/M] [--out DIR]` and
// `symsim sweep --merge DIR... --out DIR` (docs/sweeps.md). Exit 0 when every point passed,
// 1 when one did not, 2 on invalid input (nothing runs).
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
  std::vector<std::string> kernel_libs;  // already loaded (validation); passed to the workers
};

int sweep_main(const SweepOptions& options);

}  // namespace symsim::sweep

// The MoE benchmark of symsim-bench (see bench_moe.cpp).
#pragma once
#include <string>
#include <vector>

#include "bench/bench_figures.h"
#include "sim/runner/runner.h"

namespace symsim {

// Prints its figures; also hands them back through `figures` when given.
// With RunEnd::kKept (the one-shot command, symsim_bench.cpp) the process exits once they are
// out, the run's state left to the exit (sim/runner/one_shot_exit.h).
int bench_moe(const std::string& file, const std::vector<std::string>& sets, bench::Figures* figures = nullptr,
              RunEnd end = RunEnd::kTornDown);

}  // namespace symsim

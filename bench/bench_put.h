// The put-heavy benchmark of symsim-bench (see bench_put.cpp).
#pragma once
#include <string>
#include <vector>

#include "bench/bench_figures.h"

namespace symsim {

// One run of the scenario (every hazard rule on, or every one off), its figures.
bench::Figures put_run(const std::string& file, const std::vector<std::string>& sets, bool checkers);
// `pairs` paired runs (checkers on, then off), each in its own process; prints the medians.
int bench_put(const std::string& file, const std::vector<std::string>& sets, int pairs);

}  // namespace symsim

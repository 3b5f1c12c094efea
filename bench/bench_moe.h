// The MoE benchmark of symsim-bench (see bench_moe.cpp).
#pragma once
#include <string>
#include <vector>

#include "bench/bench_figures.h"

namespace symsim {

// Prints its figures; also hands them back through `figures` when given.
int bench_moe(const std::string& file, const std::vector<std::string>& sets, bench::Figures* figures = nullptr);

}  // namespace symsim

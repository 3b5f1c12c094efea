// The MoE benchmark of symsim-bench (see bench_moe.cpp).
#pragma once
#include <string>
#include <vector>

namespace symsim {

int bench_moe(const std::string& file, const std::vector<std::string>& sets);

}  // namespace symsim

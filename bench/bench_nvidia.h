// The NVIDIA benchmark of symsim-bench (see bench_nvidia.cpp).
#pragma once
#include <string>
#include <vector>

namespace symsim {

int bench_nvidia(const std::string& file, const std::vector<std::string>& sets);

}  // namespace symsim

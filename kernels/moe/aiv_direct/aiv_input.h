// Host side of the AIV-direct variant: the BF16 tokens it quantises on the device (aiv_quantise.h).
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/moe/host/moe_workload.h"

namespace moe::aiv {

// [tokens][hidden] BF16 elements bf16(q * scale) of a rank's INT8 input.
std::vector<uint16_t> bf16_tokens(const WorkloadSpec& w, const RankInput& in);

}  // namespace moe::aiv

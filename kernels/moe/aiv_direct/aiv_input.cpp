#include "kernels/moe/aiv_direct/aiv_input.h"

#include "kernels/moe/aiv_direct/aiv_quantise.h"

namespace moe::aiv {

std::vector<uint16_t> bf16_tokens(const WorkloadSpec& w, const RankInput& in) {
  std::vector<uint16_t> x(size_t{w.tokens} * w.hidden);
  for (uint32_t t = 0; t < w.tokens; ++t)
    for (uint32_t i = 0; i < w.hidden; ++i) {
      const size_t e = size_t{t} * w.hidden + i;
      x[e] = bf16_input(static_cast<int8_t>(in.x[e]), in.scales[t]);
    }
  return x;
}

}  // namespace moe::aiv

#include "kernels/moe/host/moe_timing.h"

#include <fmt/format.h>

namespace moe {

MoeTimes& moe_times() {
  static MoeTimes t;
  return t;
}

std::string describe(const MoeTimes& t, Kernel k) {
  const Span& all = t.kernel[k];
  auto end_us = [&](Role r) {
    const Span& s = t.role[k][r];
    return s.end > all.start ? static_cast<double>(s.end - all.start) / 50.0 : 0.0;
  };
  return fmt::format("{} {:.2f} us (stage done at {:.2f} us, writers done at {:.2f} us, receivers done at {:.2f} us)",
                     k == kDispatch ? "dispatch" : "combine", all.us(), end_us(kRoleStage), end_us(kRoleWrite),
                     end_us(kRoleReceive));
}

}  // namespace moe

#include "sim/explore/perturbation.h"

#include <fmt/format.h>

#include <cmath>

namespace symsim::explore {

namespace {

// splitmix64: a small, well-mixed, platform-independent generator (same values everywhere).
uint64_t mix(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// A value in [lo, hi]: the ends a quarter of the time each (extremes expose the most), else
// uniform.
double pick(uint64_t& state, const Knob& k) {
  const uint64_t r = mix(state);
  switch (r & 3) {
    case 0: return k.lo;
    case 1: return k.hi;
    default: return k.lo + (k.hi - k.lo) * static_cast<double>(r >> 11) / static_cast<double>(uint64_t{1} << 53);
  }
}

}  // namespace

const std::vector<Knob>& knobs_of(const std::string& family) {
  static const std::vector<Knob> ascend = {
      {"fabric.path_skew_ns", 0, 4000, "switch-plane skew: unordered WQEs of one QP or of different QPs pass"},
      {"udma.doorbell_ns", 50, 400, "doorbell jitter"},
      {"udma.wqe_ns", 2, 50, "engine jitter"},
      {"hbm.latency_ns", 100, 400, "CQE write and HBM delay"},
      {"aiv.dcci_ns", 10, 80, "poll (dcci) delay: cores that see memory late"},
      {"aiv.mte_latency_ns", 100, 800, "MTE copy delay: straggler cores"},
  };
  static const std::vector<Knob> nvidia = {
      {"nvlink.reorder_window_ns", 0, 20000, "NVLink reorder window: weak stores to peers land late"},
      {"mem.reorder_window_ns", 0, 2000, "L2 reorder window: weak local stores land late"},
      {"ib.path_skew_ns", 0, 5000, "adaptive routing: RDMA messages of different QPs pass"},
      {"pcie.latency_ns", 300, 1200, "doorbell and NIC DMA delay"},
      {"nic.wqe_ns", 5, 100, "NIC engine jitter"},
  };
  static const std::vector<Knob> none;
  if (family == "ascend") return ascend;
  if (family == "nvidia") return nvidia;
  return none;
}

std::vector<std::string> perturbation(const Scenario& s, uint64_t seed) {
  std::vector<std::string> sets;
  if (seed == 0) return sets;
  uint64_t state = seed * 0x2545f4914f6cdd1dull;
  for (const Knob& k : knobs_of(s.platform_family)) {
    const double v = pick(state, k);
    if (s.params.count(k.key) == 0) continue;
    // A value the scenario (or --set) chose on purpose is part of what it tests: kept.
    const auto source = s.param_sources.find(k.key);
    if (source != s.param_sources.end() && source->second == "scenario override") continue;
    sets.push_back(fmt::format("platform.{}={}", k.key, std::round(v)));
  }
  return sets;
}

}  // namespace symsim::explore

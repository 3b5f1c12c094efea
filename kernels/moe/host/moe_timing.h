// Simulated time of the MoE kernels, gathered from every PE's per-core start/end stamps
// (system cycles, 50 MHz): per kernel and role, the earliest start and the latest end over
// all PEs of the last launch. One simulation per process, so one process-wide record.
#pragma once
#include <cstdint>
#include <string>

namespace moe {

enum Role : uint32_t { kRoleStage = 0, kRoleWrite = 1, kRoleReceive = 2, kRoles = 3 };
enum Kernel : uint32_t { kDispatch = 0, kCombine = 1, kKernels = 2 };

struct Span {
  uint64_t start = UINT64_MAX;
  uint64_t end = 0;
  void add(uint64_t s, uint64_t e) {
    if (s < start) start = s;
    if (e > end) end = e;
  }
  double us() const { return end > start ? static_cast<double>(end - start) / 50.0 : 0.0; }
};

struct MoeTimes {
  Span role[kKernels][kRoles];
  Span kernel[kKernels];
  uint32_t pes_reported = 0;
};

MoeTimes& moe_times();
// One line per kernel: total and where each role ends, relative to the kernel start.
std::string describe(const MoeTimes& t, Kernel k);

}  // namespace moe

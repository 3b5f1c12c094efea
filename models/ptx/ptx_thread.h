// Per-thread state of the operational model.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "models/ptx/ptx_memory.h"
#include "models/ptx/ptx_types.h"
#include "models/ptx/ptx_view.h"

namespace symsim::ptx {

struct ThreadState {
  Placement place;
  size_t pc = 0;
  std::map<int, int64_t> regs;
  View view;
  // View at the latest fence.acq_rel of each scope: released by later strong writes.
  std::array<std::optional<View>, 3> fence_release;
  // Release stores by generic address: carried by later strong writes to the same address.
  std::map<int, std::vector<Release>> store_release;
  // Releases seen by strong reads, waiting for an acquire fence (any address) ...
  std::vector<Release> observed;
  // ... or for an acquire read of the same generic address.
  std::map<int, std::vector<Release>> observed_at;
  // Later instructions already run out of order (load buffering); skipped when reached.
  std::set<size_t> ran_early;
  bool arrived_at_barrier = false;  // arrived at the barrier at `pc`, waiting to pass
  bool done = false;
};

}  // namespace symsim::ptx

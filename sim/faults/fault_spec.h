// A fault from a scenario's "faults" array, validated (docs/faults.md has the schema):
// selectors (pe, peer, qp, core, link, heap_range), a time window, a probability and a count,
// and the kind's own parameters. Anything wrong is an InputError naming the JSON pointer.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/core/fault_hooks.h"
#include "models/core/time.h"

namespace symsim {

struct FaultSpec {
  size_t index = 0;  // position in "faults" (seeds the fault's RNG)
  std::string kind;
  // Selectors; empty: any.
  std::vector<int> pes;    // the PE that owns the QP / engine / core
  std::vector<int> peers;  // the target PE
  std::vector<int> qps;    // QP index within its slot
  std::vector<int> cores;  // straggler
  std::vector<std::string> links;
  bool has_heap_range = false;
  uint64_t heap_begin = 0, heap_end = 0;  // byte offsets in the target's symmetric heap
  Ps window_begin_ps = 0, window_end_ps = kForeverPs;
  double probability = 1.0;
  uint64_t count = UINT64_MAX;
  // Kind parameters.
  uint32_t depth = 0;         // cq_overflow: shrink the CQ to this many entries
  bool stall = false;         // cq_overflow: lose the CQ doorbells (the consumer stalls)
  bool cq_queue = false;      // drop/delay_doorbell: the CQ doorbell instead of the SQ's
  uint32_t split_bytes = 480; // torn_block: the unit splits here
  bool tail_first = true;     // torn_block: the bytes after the split (the flag) land first
  Ps delay_ps = 0;            // torn_block (default 1 us), delay_doorbell, reorder
  double bandwidth_factor = 1.0;
  Ps extra_latency_ps = 0;
  uint8_t status = 0x02, substatus = 0x80;  // cqe_error
  double slowdown = 1.0;                    // straggler
  uint32_t bits = 1;                        // bit_flip
};

// What validation needs to know about the platform.
struct FaultLimits {
  int pes = 1;
  int cores = 1;
  uint32_t unit_bytes = 512;
  std::vector<std::string> links;  // every link name of the fabric
};

std::vector<FaultSpec> parse_faults(const nlohmann::json& faults, const std::string& file, const FaultLimits& limits);

}  // namespace symsim

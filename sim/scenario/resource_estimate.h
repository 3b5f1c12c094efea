// What a scenario's run will take, known before it runs (docs/robustness.md, "Estimates"):
//  - the address space it maps (every SparseRegion the models create, in the order they create
//    them), which probe_address_space() reserves and releases so that `validate` refuses what
//    `run` could not map on this machine;
//  - the symmetric heap per PE, when the kernel declares it (kernels/registry/kernel_constraints.h), checked
//    against what hbm.bytes leaves;
//  - the resident memory, term by term, which `run --max-memory` (and sweep/serve) compare
//    with what the machine has.
// The terms are upper-bound-leaning estimates from measured per-object costs; see the .cpp.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/scenario.h"

namespace symsim {

struct AddressRegion {
  std::string what;        // "hbm per PE"
  uint64_t bytes = 0;      // one region
  uint64_t count = 0;      // how many the run maps
  bool accessible = true;  // false: an inaccessible MMIO window (PROT_NONE)
};

struct MemoryTerm {
  std::string what;  // "symmetric heap: 2 PEs x 8 MiB"
  uint64_t bytes = 0;
};

struct ResourceEstimate {
  std::vector<AddressRegion> regions;
  uint64_t address_space_bytes = 0;
  std::optional<uint64_t> heap_bytes_per_pe;          // reserved, when the kernel declares it
  std::optional<uint64_t> heap_touched_bytes_per_pe;  // written, likewise
  uint64_t heap_limit_bytes_per_pe = 0;               // what hbm.bytes leaves for the heap
  std::vector<MemoryTerm> memory;
  uint64_t memory_bytes = 0;

  std::string address_space_summary() const;  // "2 x 64 GiB hbm per PE + ..."
  std::string memory_summary() const;         // "40 MiB = 24 MiB process + ..."
};

ResourceEstimate estimate_resources(const Scenario& s, bool tracing = false);

struct AddressSpaceProbe {
  bool ok = true;
  bool first_pe_fits = true;    // false: one PE's regions alone do not fit (blame hbm.bytes, not pes)
  uint64_t reserved_bytes = 0;  // reserved before the failure
  std::string failed_at;        // "pe 1009 doorbell window (64 MiB)"
};

// Reserves e.regions as the run would map them (MAP_NORESERVE; PROT_NONE for windows), plus
// `headroom_bytes` for the rest of the process, then releases all of it.
AddressSpaceProbe probe_address_space(const ResourceEstimate& e, uint64_t headroom_bytes = uint64_t{4} << 30);

// MemAvailable of /proc/meminfo (0 if unknown).
uint64_t available_memory_bytes();

// 1536 -> "1.5 KiB".
std::string format_bytes(uint64_t bytes);

}  // namespace symsim

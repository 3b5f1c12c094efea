#pragma once
#include <vector>
#include <string>
#include <utility>

#include "models/ascend/wqe_layout.h"
#include "models/core/probe_table.h"
#include "sim/catalog/hazard_id.h"
#include "sim/checkers/checker.h"

namespace symsim {

inline constexpr HazardId kGmOutOfBounds{"gm_out_of_bounds", "a GM access outside any allocation or registered region"};

// gm_out_of_bounds: a copy or DMA outside every allocation and registered region.
class GmOutOfBoundsChecker : public Checker {
 public:
  using Checker::Checker;
  void on_alloc(int pe, const char* kind, const uint8_t* p, uint64_t bytes) override;
  // The hub calls it with the copy's ends classified (checker_hub.h).
  void on_copy(const CopyRecord& c, const CopyEnds& at);
  // Inline (the hub's execution): nearly always both ranges lie in allocations found before.
  void on_executed(const WqeRecord& r);
  struct Alloc {
    const uint8_t* begin;
    const uint8_t* end;
    const char* kind;
  };

 private:
  // Reports each side of r's ranges (local, remote) outside every allocation.
  void check(const WqeRecord& r, uint64_t local_len, uint64_t remote_len);
  // The reports, out of line: their strings and Hazard would otherwise widen the callers' stack
  // frames, whose lines every copy touches on a coroutine stack gone cold (docs/performance.md, s28-ep).
  [[gnu::cold, gnu::noinline]] void report_copy(const CopyRecord& c, const uint8_t* p);
  [[gnu::cold, gnu::noinline]] void report_wqe(const WqeRecord& r, uint64_t va, uint64_t len, const char* what);
  // The allocation holding [p, p+len), or null; `near` gets the one p falls in or after.
  bool inside(const uint8_t* p, uint64_t len, std::string* near) const;
  std::vector<Alloc> m_allocs;  // sorted by begin: searched on every copy and WQE
  // The allocation found last in each 1 MiB granule, in an open-addressed table (linear
  // probing) that grows with the granules met and never evicts one: the WQEs and copies of all
  // PEs go to every PE's buffers, whose granules outgrow any fixed cache as PEs are added (EP 64
  // met 1,152; a 256-slot cache missed 2.5 times per WQE, each miss a binary search). A hit
  // costs one slot's compares. (Hashed: the PEs' memories lie at multiples of a large power of
  // two, so low bits collide.)
  static constexpr unsigned kGranuleShift = 20;
  static constexpr unsigned kInitialSlotBits = 8;
  struct Span {
    const uint8_t* begin = nullptr;
    const uint8_t* end = nullptr;
    bool holds(const uint8_t* p, uint64_t len) const { return p >= begin && p + len <= end; }
  };
  // The two allocations found there last, newest first: a put's source and destination often
  // share a granule (one granule's single allocation had them evict each other at every WQE).
  struct Spans {
    Span newest, older;
    bool hold(const uint8_t* p, uint64_t len) const { return newest.holds(p, len) || older.holds(p, len); }
  };
  // Granule -> its allocations found last; doubles past half full.
  mutable ProbeTable<uint64_t, Spans, UINT64_MAX> m_recent{kInitialSlotBits, 1};
  static uint64_t granule_of(const uint8_t* p) { return reinterpret_cast<uintptr_t>(p) >> kGranuleShift; }
  // Inline, the granule's first slot only; inside() probes on.
  bool cached(const uint8_t* p, uint64_t len) const {
    const auto& s = m_recent.home(granule_of(p));
    return s.key == granule_of(p) && s.value.hold(p, len);
  }
  bool probed(const uint8_t* p, uint64_t len) const;
};

inline void GmOutOfBoundsChecker::on_executed(const WqeRecord& r) {
  if (r.status != 0) return;
  const bool remote_side = r.opcode == udma::kWrite || r.opcode == udma::kWriteImm ||
                           r.opcode == udma::kWriteWithNotify || r.opcode == udma::kRead;
  const uint64_t local_len = (r.opcode == udma::kFaa || r.opcode == udma::kCas) ? udma::atomic_width(r.bytes) : r.bytes;
  const uint64_t remote_len = remote_side ? r.bytes : udma::atomic_width(r.bytes);
  // Nearly always both ranges lie in allocations found before: no search, no report frame.
  if ((local_len == 0 || cached(reinterpret_cast<const uint8_t*>(r.local_va), local_len)) &&
      (remote_len == 0 || cached(reinterpret_cast<const uint8_t*>(r.remote_va), remote_len)))
    return;
  check(r, local_len, remote_len);
}

}  // namespace symsim

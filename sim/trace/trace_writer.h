// Perfetto / Chrome trace-event JSON from the observer hooks (open in ui.perfetto.dev).
//
// Tracks: one process per PE (pid = PE, "pe N") with threads
//   tid K                           "aiv K"         AIV core K (K < 1000)
//   tid 1000                        "udma engine"   engine busy spans
//   tid 1001                        "landed"        WQEs from any PE landed here
//   tid 100000 + key*1024 + L       "qp S.Q sq"     SQ lane L (L < 512), key = S*64 + Q
//   tid 100000 + key*1024 + 512 + L "qp S.Q cq"     CQ lane L
//   tid 2^30 + n                    "<track> #L"    any other lane past a track's first
// and a process "fabric" (pid 100000) with one thread per link (tid = link id).
// A WQE is one span named by its opcode (post -> CQE, or -> completion when no CQE) with nested
// phases "post", "doorbell", "fetch", "wire", "ack", "cqe", each named by the step it starts at;
// zero-length phases are left out. WQE lifetimes on one SQ overlap, and viewers draw "X" events
// that partly overlap on one thread wrongly, so each WQE (and each CQE's wait to be reaped) takes
// the lowest lane free at its start, as many lanes as overlap; any other slice that would partly
// overlap one on its track (core, engine, link) moves to the lowest lane where it nests.
// Each WQE is also one flow (ph s/t/f) through zero-length marks on its posting core ("wqe
// posted"), the engine ("wqe fetched"), the target's "landed" track ("wqe landed"), its SQ lane
// and CQ lane slices and the reaping core ("cqe reaped"); counter tracks (ph C) count SQ and CQ
// occupancy per QP, messages on each link and writes landing per PE.
// Output is byte-identical for identical hook calls: integer picosecond times are written as
// exact decimal microseconds, and events are sorted by (ts, pid, tid, longer first, insertion
// order). docs/trace.md describes the format.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "models/core/observer.h"

namespace symsim {

class Fabric;
namespace trace {
struct TraceState;  // the buffered events (sim/trace/trace_state.h)
}

// What a trace keeps, so traces of large runs stay small.
struct TraceFilter {
  std::vector<int> pes;    // PEs to trace; empty: all
  std::vector<int> qps;    // QP indexes within a slot (the Q of "qp S.Q"); empty: all
  Ps window_begin_ps = 0;  // events that overlap [begin, end] are kept whole
  Ps window_end_ps = std::numeric_limits<Ps>::max();
  size_t max_events = 2'000'000;  // past it recording stops; the trace says so in otherData
  bool links = true;              // link busy spans (links belong to no PE: not PE-filtered)
};

// Exact decimal microseconds of `ps`, trailing zeros dropped: 1234567 -> "1.234567", 2000000 -> "2".
std::string ps_to_us_string(Ps ps);

// Whose opcode byte a WQE carries: the Ascend UDMA WQE's or the mlx5 WQE's of the NVIDIA NIC.
// The two number their operations differently (0x08 is ATOMIC_SWAP in one, RDMA_WRITE in the other).
enum class OpcodeSet { kUdma, kMlx5 };

class TraceWriter : public Observer {
 public:
  // `fabric` names the link tracks; it may be null (links are then named "link N").
  TraceWriter(TraceFilter filter, const Fabric* fabric, OpcodeSet opcodes = OpcodeSet::kUdma);
  ~TraceWriter() override;
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  void on_wqe_posted(const QpRef& q, uint32_t wqe_index, uint8_t opcode, int core, Ps t) override;
  void on_cqe_reaped(const QpRef& q, uint32_t cqe_index, const uint8_t* cqe, int core, Ps t) override;
  void on_core_span(int pe, int core, const char* what, Ps start, Ps end) override;
  void on_sq_doorbell(const QpRef& q, uint32_t producer_index, Ps t) override;
  void on_cq_doorbell(const QpRef& q, uint32_t consumer_index, Ps t) override;
  void on_wqe_executed(const WqeRecord& r) override;
  void on_engine_busy(int pe, Ps start, Ps end) override;
  void on_link_busy(int link, Ps start, Ps end, uint64_t bytes) override;

  // Names the track of a link that is not one of `fabric`'s (NVLink links have ids of their own).
  void name_link(int link, std::string name);

  // A global instant named `id` (a hazard id) at `t`; pe < 0 puts it on the fabric process.
  // Hazards ignore the PE, QP and window filters but count against max_events.
  void hazard(int pe, const std::string& id, Ps t, const std::string& detail);

  // Writes the whole trace. Call once the simulation has ended; may be called again.
  void write(std::ostream& os) const;

  size_t event_count() const;  // buffered events, metadata excluded
  bool truncated() const;      // max_events was reached

 private:
  std::unique_ptr<trace::TraceState> m;
};

}  // namespace symsim

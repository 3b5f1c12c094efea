// Internal to the trace writer (not a public header): the buffered events and the track
// numbering that trace_writer.cpp records and trace_json.cpp writes.
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "sim/trace/trace_writer.h"

namespace symsim::trace {

constexpr uint32_t kFabricPid = 100000;
constexpr uint32_t kEngineTid = 1000;
constexpr uint32_t kLandingTid = 1001;  // where WQEs from any PE landed on this one
constexpr int kMaxCores = 1000;  // core tids stay below the engine's
constexpr uint32_t kQpTidBase = 100000;
constexpr int kQpsPerSlot = 64;
constexpr uint32_t kTidsPerQp = 1024;  // SQ lanes, then CQ lanes
constexpr uint32_t kLanes = kTidsPerQp / 2;
constexpr uint32_t kNone = UINT32_MAX;
// Lanes past those numbered above (QP lanes past kLanes, second and later lanes of other tracks)
// take ids from here up, above every QP track id.
constexpr uint32_t kExtraLaneTidBase = 1u << 30;

inline uint32_t sq_tid(const QpRef& q) {
  return kQpTidBase + static_cast<uint32_t>(q.slot * kQpsPerSlot + q.qp) * kTidsPerQp;
}
inline uint32_t cq_tid(const QpRef& q) { return sq_tid(q) + kLanes; }

// Each kind fixes the phase letter, category and what `Event::arg` holds.
enum class Kind : uint8_t {
  kWqe,            // whole WQE lifetime; arg: WqeInfo index
  kPhase,          // one step of a WQE; arg: WqeInfo index
  kSqDoorbell,     // arg: producer index
  kCqDoorbell,     // arg: consumer index
  kReaped,         // CQE visible -> reaped; arg: cqe index | core << 32
  kReapedInstant,  // reaped, CQE time unknown; same arg
  kEngineBusy,     // arg: WQEs in this contiguous busy span
  kLinkBusy,       // arg: wire bytes
  kCoreSpan,       // no arg
  kHazard,         // arg: Hazard index (the name comes from there)
  kWqeMark,        // zero-length slice a WQE's flow passes through; arg: WqeInfo index
};

// Kept small (48 B): a trace of max_events costs about 100 MB while buffered.
struct Event {
  Ps ts_ps;
  Ps dur_ps;
  const char* name;  // static or interned; null for hazards
  uint64_t arg;
  uint32_t pid;
  uint32_t tid;    // lane 0 of the track when the event has a group
  uint32_t group;  // lane group, kNone when the track has no lanes
  Kind kind;
};

// Events that share one lane: a WQE lifetime, or one CQE's wait to be reaped.
struct Group {
  Ps begin_ps, end_ps;
  uint32_t pid, tid;
};

struct WqeInfo {
  uint32_t wqe_index, bytes, cqe_index;
  int32_t target_pe;
  uint8_t opcode, status, substatus;
  bool has_cqe;
};

// One slice on a WQE's flow; a WQE's links are recorded in the order of its steps.
struct FlowLink {
  uint32_t wqe;    // WqeInfo index (the flow id is this + 1)
  uint32_t event;  // the slice the flow passes through
};

// Where a WQE was posted, until it executes; where its CQE became visible, until reaped.
struct Posted {
  Ps t;
  int core;
};
struct Visible {
  Ps t;
  uint32_t wqe;  // WqeInfo index, kNone when the WQE was not recorded
};

// A step of a counter track: the track of `tid` on `pid` ("qp S.Q sq" / "cq", a link) gains
// `delta` at `t`. Written as "C" events of the running sum.
struct CounterDelta {
  Ps t;
  uint32_t pid, tid;
  int32_t delta;
};

struct Hazard {
  std::string id, detail;
};

using QueueKey = std::tuple<int, int, int, uint32_t>;  // pe, slot, qp, ring index

const char* opcode_name(OpcodeSet set, uint8_t opcode);

// Everything a TraceWriter has recorded, and the filter it records through.
struct TraceState {
  TraceFilter filter;
  const Fabric* fabric = nullptr;
  std::map<uint32_t, std::string> link_names;  // links of another network (NVLink), by id
  OpcodeSet opcodes = OpcodeSet::kUdma;
  std::vector<Event> events;
  std::vector<Group> groups;
  std::vector<WqeInfo> wqes;
  std::vector<Hazard> hazards;
  std::unordered_set<std::string> names;      // interned core-span names (nodes never move)
  std::vector<FlowLink> flows;
  std::vector<CounterDelta> counters;
  std::map<QueueKey, Posted> posted;          // WQE posted, until executed
  std::map<QueueKey, Visible> visible;        // CQE visible, until reaped
  std::unordered_map<int, size_t> last_busy;  // per PE: the engine span a contiguous one extends
  bool truncated = false;
  Ps truncated_at_ps = 0;
  uint64_t dropped = 0;

  bool pe_ok(int pe) const {
    return pe >= 0 && (filter.pes.empty() || std::count(filter.pes.begin(), filter.pes.end(), pe));
  }
  bool qp_ok(const QpRef& q) const {
    return pe_ok(q.pe) && q.slot >= 0 && q.qp >= 0 && q.qp < kQpsPerSlot &&
           (filter.qps.empty() || std::count(filter.qps.begin(), filter.qps.end(), q.qp));
  }
  bool in_window(Ps begin, Ps end) const {
    return end >= filter.window_begin_ps && begin <= filter.window_end_ps;
  }
  // Whether `n` more events fit; once one record does not, nothing more is recorded.
  bool admit(size_t n, Ps t) {
    if (!truncated && events.size() + counters.size() + n > filter.max_events) {
      truncated = true;
      truncated_at_ps = t;
    }
    if (truncated) dropped += n;
    return !truncated;
  }
  uint32_t add(Kind k, const char* name, uint32_t pid, uint32_t tid, Ps start, Ps end, uint64_t arg,
               uint32_t group = kNone) {
    events.push_back({start, end > start ? end - start : 0, name, arg, pid, tid, group, k});
    return static_cast<uint32_t>(events.size() - 1);
  }
  void link(uint32_t wqe, uint32_t event) { flows.push_back({wqe, event}); }
  void count(Ps t, uint32_t pid, uint32_t tid, int32_t delta) { counters.push_back({t, pid, tid, delta}); }
  uint32_t add_group(uint32_t pid, uint32_t tid, Ps begin, Ps end) {
    groups.push_back({begin, std::max(begin, end), pid, tid});
    return static_cast<uint32_t>(groups.size() - 1);
  }
};

}  // namespace symsim::trace

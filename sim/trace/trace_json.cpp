// TraceWriter::write: lanes, deterministic order, and the JSON text (written by hand, so that
// times print as exact decimals and nothing is held twice in memory).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <ostream>
#include <queue>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "models/fabric/fabric.h"
#include "sim/trace/trace_state.h"
#include "sim/trace/trace_writer.h"

namespace symsim {

using namespace trace;

namespace {

using Buffer = fmt::memory_buffer;

void append(Buffer& b, std::string_view s) { b.append(s); }

void append_us(Buffer& b, Ps ps) {
  fmt::format_to(std::back_inserter(b), "{}", ps / kPsPerUs);
  Ps frac = ps % kPsPerUs;
  if (frac == 0) return;
  int digits = 6;
  for (; frac % 10 == 0; frac /= 10) --digits;
  fmt::format_to(std::back_inserter(b), ".{:0{}}", frac, digits);
}

void append_string(Buffer& b, std::string_view s) {
  b.push_back('"');
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      b.push_back('\\');
      b.push_back(c);
    } else if (static_cast<unsigned char>(c) < 0x20) {
      fmt::format_to(std::back_inserter(b), "\\u{:04x}", static_cast<unsigned>(c));
    } else {
      b.push_back(c);
    }
  }
  b.push_back('"');
}

void append_list(Buffer& b, const std::vector<int>& v) {
  fmt::format_to(std::back_inserter(b), "[{}]", fmt::join(v, ","));
}

const char* category(Kind k) {
  switch (k) {
    case Kind::kWqe:
    case Kind::kPhase:
    case Kind::kWqeMark: return "wqe";
    case Kind::kSqDoorbell:
    case Kind::kCqDoorbell: return "doorbell";
    case Kind::kReaped:
    case Kind::kReapedInstant: return "cqe";
    case Kind::kEngineBusy: return "engine";
    case Kind::kLinkBusy: return "link";
    case Kind::kCoreSpan: return "core";
    case Kind::kHazard: return "hazard";
  }
  return "";
}

bool is_instant(Kind k) {
  return k == Kind::kSqDoorbell || k == Kind::kCqDoorbell || k == Kind::kReapedInstant || k == Kind::kHazard;
}

// Gives each group the lowest lane free at its start, per track: a group never shares a lane
// with one it overlaps, however many overlap (lanes are unbounded). Returns the lane per group.
std::vector<uint32_t> assign_group_lanes(const std::vector<Group>& groups) {
  std::vector<uint32_t> order(groups.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const Group &x = groups[a], &y = groups[b];
    return std::tie(x.pid, x.tid, x.begin_ps, a) < std::tie(y.pid, y.tid, y.begin_ps, b);
  });
  std::vector<uint32_t> lane(groups.size(), 0);
  using Busy = std::pair<Ps, uint32_t>;  // end, lane
  for (size_t i = 0; i < order.size();) {
    const Group& track = groups[order[i]];
    std::priority_queue<Busy, std::vector<Busy>, std::greater<Busy>> busy;
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> free;
    uint32_t used = 0;
    for (; i < order.size() && groups[order[i]].pid == track.pid && groups[order[i]].tid == track.tid; ++i) {
      const Group& g = groups[order[i]];
      for (; !busy.empty() && busy.top().first <= g.begin_ps; busy.pop()) free.push(busy.top().second);
      uint32_t l = used;
      if (free.empty()) {
        ++used;
      } else {
        l = free.top();
        free.pop();
      }
      lane[order[i]] = l;
      busy.push({g.end_ps, l});
    }
  }
  return lane;
}

// Lanes for slices that belong to no group (core spans, engine and link busy spans): a slice may
// nest inside another on its lane, but one that would partly overlap goes to the lowest lane where
// it nests or which is free. Returns the lane per event (0 for instants and grouped events).
std::vector<uint32_t> assign_single_lanes(const std::vector<Event>& events) {
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < events.size(); ++i)
    if (events[i].group == kNone && !is_instant(events[i].kind)) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const Event &x = events[a], &y = events[b];
    // Outer slices before those they contain: longer first at one start.
    return std::make_tuple(x.pid, x.tid, x.ts_ps, ~x.dur_ps, a) < std::make_tuple(y.pid, y.tid, y.ts_ps, ~y.dur_ps, b);
  });
  std::vector<uint32_t> lane(events.size(), 0);
  std::vector<std::vector<Ps>> open;  // per lane: ends of the slices open on it, innermost last
  for (size_t i = 0; i < order.size();) {
    const Event& track = events[order[i]];
    open.clear();
    for (; i < order.size() && events[order[i]].pid == track.pid && events[order[i]].tid == track.tid; ++i) {
      const Event& e = events[order[i]];
      const Ps end = e.ts_ps + e.dur_ps;
      uint32_t l = 0;
      for (; l < open.size(); ++l) {
        std::vector<Ps>& stack = open[l];
        while (!stack.empty() && stack.back() <= e.ts_ps) stack.pop_back();
        if (stack.empty() || stack.back() >= end) break;
      }
      if (l == open.size()) open.emplace_back();
      open[l].push_back(end);
      lane[order[i]] = l;
    }
  }
  return lane;
}

// The thread id of each lane. Lanes 0..kLanes-1 of a QP track keep the ids numbered in
// trace_state.h; any other lane past the first gets the next id from kExtraLaneTidBase, in
// (pid, track, lane) order, so numbering depends only on what was recorded.
struct LaneTids {
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> extra;  // (pid, base tid, lane) -> tid
  std::map<std::pair<uint32_t, uint32_t>, std::pair<uint32_t, uint32_t>> base_of;  // (pid, tid) -> base, lane

  static bool numbered(uint32_t base_tid, uint32_t lane) {
    return lane == 0 || (base_tid >= kQpTidBase && lane < kLanes);
  }
  void want(uint32_t pid, uint32_t base_tid, uint32_t lane) {
    if (!numbered(base_tid, lane)) extra.emplace(std::make_tuple(pid, base_tid, lane), 0);
  }
  void number() {
    uint32_t next = kExtraLaneTidBase;
    for (auto& [key, tid] : extra) {
      tid = next++;
      base_of[{std::get<0>(key), tid}] = {std::get<1>(key), std::get<2>(key)};
    }
  }
  uint32_t tid(uint32_t pid, uint32_t base_tid, uint32_t lane) const {
    return numbered(base_tid, lane) ? base_tid + lane : extra.at({pid, base_tid, lane});
  }
};

std::string process_name(uint32_t pid) { return pid == kFabricPid ? "fabric" : fmt::format("pe {}", pid); }

std::string base_thread_name(const TraceState& s, uint32_t pid, uint32_t tid) {
  if (pid == kFabricPid) {
    if (s.fabric && tid < s.fabric->links().size()) return s.fabric->links()[tid]->name();
    if (const auto named = s.link_names.find(tid); named != s.link_names.end()) return named->second;
    return fmt::format("link {}", tid);
  }
  if (tid < kEngineTid) return fmt::format("aiv {}", tid);
  if (tid == kEngineTid) return "udma engine";
  if (tid == kLandingTid) return "landed";
  const uint32_t key = (tid - kQpTidBase) / kTidsPerQp, rest = (tid - kQpTidBase) % kTidsPerQp;
  return fmt::format("qp {}.{} {}", key / kQpsPerSlot, key % kQpsPerSlot, rest < kLanes ? "sq" : "cq");
}

// A lane past the first is named after its track: "qp 1.0 sq #3", "aiv 2 #1".
std::string thread_name(const TraceState& s, const LaneTids& lanes, uint32_t pid, uint32_t tid) {
  uint32_t base = tid, lane = 0;
  const auto extra = lanes.base_of.find({pid, tid});
  if (extra != lanes.base_of.end()) {
    std::tie(base, lane) = extra->second;
  } else if (pid != kFabricPid && tid >= kQpTidBase) {
    lane = (tid - kQpTidBase) % kLanes;
    base = tid - lane;
  }
  const std::string name = base_thread_name(s, pid, base);
  return lane ? fmt::format("{} #{}", name, lane) : name;
}

void append_args(Buffer& b, const TraceState& s, const Event& e) {
  const auto out = std::back_inserter(b);
  switch (e.kind) {
    case Kind::kWqe:
    case Kind::kPhase:
    case Kind::kWqeMark: {
      const WqeInfo& w = s.wqes[e.arg];
      fmt::format_to(out,
                     ",\"args\":{{\"wqe\":{},\"opcode\":\"{}\",\"bytes\":{},\"target_pe\":{},\"status\":{}",
                     w.wqe_index, opcode_name(s.opcodes, w.opcode), w.bytes, w.target_pe, w.status);
      if (w.status) fmt::format_to(out, ",\"substatus\":{}", w.substatus);
      if (w.has_cqe) fmt::format_to(out, ",\"cqe\":{}", w.cqe_index);
      b.push_back('}');
      return;
    }
    case Kind::kSqDoorbell: fmt::format_to(out, ",\"args\":{{\"pi\":{}}}", e.arg); return;
    case Kind::kCqDoorbell: fmt::format_to(out, ",\"args\":{{\"ci\":{}}}", e.arg); return;
    case Kind::kReaped:
    case Kind::kReapedInstant:
      fmt::format_to(out, ",\"args\":{{\"cqe\":{},\"core\":{}}}", static_cast<uint32_t>(e.arg),
                     static_cast<int32_t>(e.arg >> 32));
      return;
    case Kind::kEngineBusy: fmt::format_to(out, ",\"args\":{{\"wqes\":{}}}", e.arg); return;
    case Kind::kLinkBusy: fmt::format_to(out, ",\"args\":{{\"bytes\":{}}}", e.arg); return;
    case Kind::kHazard:
      append(b, ",\"args\":{\"detail\":");
      append_string(b, s.hazards[e.arg].detail);
      b.push_back('}');
      return;
    case Kind::kCoreSpan: return;
  }
}

// What was recorded and how: lets a reader tell a quiet run from a filtered or truncated one.
void append_other_data(Buffer& b, const TraceState& s) {
  const TraceFilter& f = s.filter;
  fmt::format_to(std::back_inserter(b),
                 "\"otherData\":{{\"generator\":\"symsim\",\"events\":{},\"max_events\":{},\"truncated\":{},"
                 "\"dropped_events\":{}",
                 s.events.size(), f.max_events, s.truncated, s.dropped);
  if (s.truncated) {
    append(b, ",\"truncated_at_us\":");
    append_us(b, s.truncated_at_ps);
  }
  append(b, ",\"filter\":{\"pes\":");
  append_list(b, f.pes);
  append(b, ",\"qps\":");
  append_list(b, f.qps);
  append(b, ",\"window_begin_us\":");
  append_us(b, f.window_begin_ps);
  if (f.window_end_ps != std::numeric_limits<Ps>::max()) {
    append(b, ",\"window_end_us\":");
    append_us(b, f.window_end_ps);
  }
  fmt::format_to(std::back_inserter(b), ",\"links\":{}}}}}", f.links);
}

void append_meta(Buffer& b, const char* what, uint32_t pid, const uint32_t* tid, std::string_view name,
                 uint32_t sort_index) {
  const auto out = std::back_inserter(b);
  const std::string tid_field = tid ? fmt::format(",\"tid\":{}", *tid) : std::string();
  fmt::format_to(out, "{{\"ph\":\"M\",\"name\":\"{}_name\",\"pid\":{}{},\"args\":{{\"name\":", what, pid,
                 tid_field);
  append_string(b, name);
  fmt::format_to(
      out,
      "}}}},\n{{\"ph\":\"M\",\"name\":\"{}_sort_index\",\"pid\":{}{},\"args\":{{\"sort_index\":{}}}}},\n",
      what, pid, tid_field, sort_index);
}

void append_event(Buffer& b, const TraceState& s, const Event& e, uint32_t tid) {
  const bool instant = is_instant(e.kind);
  append(b, instant ? (e.kind == Kind::kHazard ? "{\"ph\":\"i\",\"s\":\"g\",\"name\":"
                                               : "{\"ph\":\"i\",\"s\":\"t\",\"name\":")
                    : "{\"ph\":\"X\",\"name\":");
  append_string(b,
                e.kind == Kind::kHazard ? std::string_view(s.hazards[e.arg].id) : std::string_view(e.name));
  fmt::format_to(std::back_inserter(b), ",\"cat\":\"{}\",\"pid\":{},\"tid\":{},\"ts\":", category(e.kind),
                 e.pid, tid);
  append_us(b, e.ts_ps);
  if (!instant) {
    append(b, ",\"dur\":");
    append_us(b, e.dur_ps);
  }
  append_args(b, s, e);
  b.push_back('}');
}

// Each WQE's flow, as Chrome flow events (v1): "s" at its first slice, "t" at each next one, "f"
// (bound to the enclosing slice) at its last. A flow event is written right after the slice it
// binds to, at that slice's start, so a viewer finds the slice open. Links of one event are
// chained (4 bytes per event, 5 per link: traces near max_events stay within their estimate).
struct FlowPoints {
  std::vector<uint32_t> first;  // per event: its first link, kNone when none
  std::vector<uint32_t> next;   // per link: the next link of the same event
  std::vector<char> phase;      // per link: 's', 't', 'f', or 0 for a flow of one slice (not written)
};

FlowPoints flow_points(const TraceState& s) {
  FlowPoints p{std::vector<uint32_t>(s.events.size(), kNone), std::vector<uint32_t>(s.flows.size(), kNone),
               std::vector<char>(s.flows.size(), 0)};
  std::vector<uint32_t> count(s.wqes.size(), 0), seen(s.wqes.size(), 0);
  for (const FlowLink& l : s.flows) ++count[l.wqe];
  for (uint32_t i = 0; i < s.flows.size(); ++i) {
    const FlowLink& l = s.flows[i];
    const uint32_t k = seen[l.wqe]++;
    if (count[l.wqe] >= 2) p.phase[i] = k == 0 ? 's' : k + 1 == count[l.wqe] ? 'f' : 't';
    p.next[i] = p.first[l.event];  // an event has one link in practice; several come out last first
    p.first[l.event] = i;
  }
  return p;
}

void append_flow(Buffer& b, const TraceState& s, const FlowLink& l, char phase, uint32_t tid) {
  const Event& e = s.events[l.event];
  fmt::format_to(std::back_inserter(b), "{{\"ph\":\"{}\",\"name\":\"wqe\",\"cat\":\"wqe\",\"id\":{},\"pid\":{},\"tid\":{},\"ts\":",
                 phase, uint64_t{l.wqe} + 1, e.pid, tid);
  append_us(b, e.ts_ps);
  append(b, phase == 'f' ? ",\"bp\":\"e\"}" : "}");
}

// One point of a counter track: the running sum of its deltas after all those at `t`.
struct CounterSample {
  Ps t;
  uint32_t pid, tid;
  int64_t value;
};

// Samples in output order (t, pid, tid), one per track and time at which the sum was stepped.
std::vector<CounterSample> counter_samples(const std::vector<CounterDelta>& deltas) {
  std::vector<uint32_t> order(deltas.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const CounterDelta &x = deltas[a], &y = deltas[b];
    return std::tie(x.pid, x.tid, x.t, a) < std::tie(y.pid, y.tid, y.t, b);
  });
  std::vector<CounterSample> out;
  int64_t sum = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    const CounterDelta& d = deltas[order[i]];
    if (i == 0 || d.pid != deltas[order[i - 1]].pid || d.tid != deltas[order[i - 1]].tid) sum = 0;
    sum += d.delta;
    const bool last_at_t = i + 1 == order.size() || deltas[order[i + 1]].pid != d.pid ||
                           deltas[order[i + 1]].tid != d.tid || deltas[order[i + 1]].t != d.t;
    if (last_at_t) out.push_back({d.t, d.pid, d.tid, sum});
  }
  std::stable_sort(out.begin(), out.end(), [](const CounterSample& x, const CounterSample& y) {
    return std::tie(x.t, x.pid, x.tid) < std::tie(y.t, y.pid, y.tid);
  });
  return out;
}

// Counter tracks are named after the track they count: "qp 1.0 sq" {"wqes"}, "qp 1.0 cq"
// {"cqes"}, a link's name {"messages"}, "writes landing" {"writes"} (Perfetto shows
// "qp 1.0 sq wqes").
void append_counter(Buffer& b, const TraceState& s, const CounterSample& c) {
  const bool landing = c.pid != kFabricPid && c.tid == kLandingTid;
  append(b, "{\"ph\":\"C\",\"name\":");
  append_string(b, landing ? "writes landing" : base_thread_name(s, c.pid, c.tid));
  fmt::format_to(std::back_inserter(b), ",\"cat\":\"counter\",\"pid\":{},\"ts\":", c.pid);
  append_us(b, c.t);
  const char* what = c.pid == kFabricPid ? "messages"
                     : landing           ? "writes"
                     : (c.tid - kQpTidBase) % kTidsPerQp < kLanes ? "wqes"
                                                                  : "cqes";
  fmt::format_to(std::back_inserter(b), ",\"args\":{{\"{}\":{}}}}}", what, c.value);
}

}  // namespace

std::string ps_to_us_string(Ps ps) {
  Buffer b;
  append_us(b, ps);
  return fmt::to_string(b);
}

void TraceWriter::write(std::ostream& os) const {
  const TraceState& s = *m;
  const std::vector<uint32_t> group_lane = assign_group_lanes(s.groups);
  std::vector<uint32_t> lane = assign_single_lanes(s.events);
  for (size_t i = 0; i < s.events.size(); ++i)
    if (s.events[i].group != kNone) lane[i] = group_lane[s.events[i].group];
  LaneTids lanes;
  for (size_t i = 0; i < s.events.size(); ++i) lanes.want(s.events[i].pid, s.events[i].tid, lane[i]);
  lanes.number();
  std::vector<uint32_t> tid(s.events.size());
  for (size_t i = 0; i < tid.size(); ++i) tid[i] = lanes.tid(s.events[i].pid, s.events[i].tid, lane[i]);
  std::vector<uint32_t> order(s.events.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const Event &x = s.events[a], &y = s.events[b];
    // At one start, the longer slice first: a viewer nests what follows inside it.
    return std::make_tuple(x.ts_ps, x.pid, tid[a], ~x.dur_ps, a) < std::make_tuple(y.ts_ps, y.pid, tid[b], ~y.dur_ps, b);
  });

  Buffer b;
  const auto flush = [&](size_t above) {
    if (b.size() <= above) return;
    os.write(b.data(), static_cast<std::streamsize>(b.size()));
    b.clear();
  };
  append(b, "{\"displayTimeUnit\":\"ns\",");
  append_other_data(b, s);
  append(b, ",\n\"traceEvents\":[\n");

  // Names for every track with an event; hazards are global instants and name no thread.
  std::set<uint32_t> pids;
  std::set<std::pair<uint32_t, uint32_t>> threads;
  for (size_t i = 0; i < tid.size(); ++i) {
    pids.insert(s.events[i].pid);
    if (s.events[i].kind != Kind::kHazard) threads.insert({s.events[i].pid, tid[i]});
  }
  for (const uint32_t pid : pids) append_meta(b, "process", pid, nullptr, process_name(pid), pid);
  for (const auto& [pid, t] : threads) append_meta(b, "thread", pid, &t, thread_name(s, lanes, pid, t), t);

  const auto flows = flow_points(s);
  const std::vector<CounterSample> counters = counter_samples(s.counters);
  bool first = true;
  const auto next = [&] {
    if (!first) append(b, ",\n");
    first = false;
  };
  size_t c = 0;
  // Counter samples go before the events at their time (merged by time, then pid).
  const auto counters_until = [&](Ps t, uint32_t pid) {
    for (; c < counters.size() && std::tie(counters[c].t, counters[c].pid) <= std::tie(t, pid); ++c) {
      next();
      append_counter(b, s, counters[c]);
    }
  };
  for (size_t k = 0; k < order.size(); ++k) {
    counters_until(s.events[order[k]].ts_ps, s.events[order[k]].pid);
    next();
    append_event(b, s, s.events[order[k]], tid[order[k]]);
    for (uint32_t link = flows.first[order[k]]; link != kNone; link = flows.next[link]) {
      if (!flows.phase[link]) continue;
      next();
      append_flow(b, s, s.flows[link], flows.phase[link], tid[order[k]]);
    }
    flush(1u << 20);
  }
  counters_until(std::numeric_limits<Ps>::max(), UINT32_MAX);
  if (!first) append(b, "\n");
  append(b, "]}\n");
  flush(0);
}

}  // namespace symsim

#include "sim/trace/trace_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "sim/io/strict_json.h"
#include "sim/scenario/input_error.h"

namespace symsim::trace {

namespace {

using nlohmann::json;

// Traces of large runs reach hundreds of MB; past this a diff is not what anyone wants.
constexpr size_t kMaxTraceBytes = size_t{1} << 30;

class EventReader {
 public:
  EventReader(const std::string& file, const json& event, size_t index)
      : m_file(file), m_event(event), m_index(index) {
    if (!event.is_object()) fail("", "not an object");
  }

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    const std::string pointer = fmt::format("/traceEvents/{}", m_index);
    throw InputError(m_file, key.empty() ? pointer : pointer + "/" + key, what);
  }

  std::string text(const char* key) const {
    const auto it = m_event.find(key);
    if (it == m_event.end() || !it->is_string()) fail(key, "missing or not a string");
    return it->get<std::string>();
  }
  int64_t integer(const char* key) const {
    const auto it = m_event.find(key);
    if (it == m_event.end() || !it->is_number_integer()) fail(key, "missing or not an integer");
    return it->get<int64_t>();
  }
  uint64_t id() const {
    const auto it = m_event.find("id");
    if (it != m_event.end() && it->is_number_unsigned()) return it->get<uint64_t>();
    fail("id", "missing or not a non-negative integer (a flow id)");
  }
  // Microseconds in the file, whole picoseconds here.
  int64_t time_ps(const char* key) const {
    const auto it = m_event.find(key);
    if (it == m_event.end() || !it->is_number()) fail(key, "missing or not a number (microseconds)");
    const double v = it->get<double>();
    if (!std::isfinite(v) || v < 0 || v > 1e12) fail(key, fmt::format("{} is not a time: it must be 0..1e12 us", v));
    return std::llround(v * 1e6);
  }
  const json& args() const {
    const auto it = m_event.find("args");
    if (it == m_event.end() || !it->is_object()) fail("args", "missing or not an object");
    return *it;
  }

 private:
  const std::string& m_file;
  const json& m_event;
  size_t m_index;
};

std::string counter_values(const json& args) {
  std::string out;
  for (const auto& [key, value] : args.items()) out += (out.empty() ? "" : ",") + key + "=" + value.dump();
  return out;
}

// Orders a track's slices by start, longest first, and gives each its nesting depth.
void nest(std::vector<SliceShape>& slices) {
  std::stable_sort(slices.begin(), slices.end(), [](const SliceShape& a, const SliceShape& b) {
    return a.ts_ps != b.ts_ps ? a.ts_ps < b.ts_ps : a.dur_ps > b.dur_ps;
  });
  std::vector<const SliceShape*> open;  // the enclosing slices of the next one, innermost last
  auto encloses = [](const SliceShape& outer, const SliceShape& s) {
    const int64_t end = outer.ts_ps + outer.dur_ps;
    // A zero-length mark at a slice's very end is still inside it (the writer's `bp: e`).
    return end > s.ts_ps || (end == s.ts_ps && s.dur_ps == 0 && outer.dur_ps > 0);
  };
  for (SliceShape& s : slices) {
    while (!open.empty() && !encloses(*open.back(), s)) open.pop_back();
    s.depth = static_cast<int>(open.size());
    open.push_back(&s);
  }
}

}  // namespace

TraceShape read_trace_shape(const std::string& path) {
  // Plain parsing: the strict parser's duplicate-key bookkeeping costs minutes on a 100 MB trace,
  // and a duplicate key changes nothing that is compared here.
  json doc;
  try {
    doc = json::parse(io::read_regular_file(path, kMaxTraceBytes));
  } catch (const json::parse_error& e) {
    throw InputError(path, "", std::string("not JSON: ") + e.what());
  }
  if (!doc.is_object()) throw InputError(path, "", "not a trace: expected an object with \"traceEvents\"");
  const auto events = doc.find("traceEvents");
  if (events == doc.end() || !events->is_array())
    throw InputError(path, "/traceEvents", "missing or not an array: not a symsim/Chrome trace");

  std::map<int64_t, std::string> process_names;
  std::map<std::pair<int64_t, int64_t>, std::string> thread_names;
  for (size_t i = 0; i < events->size(); ++i) {
    const EventReader e(path, (*events)[i], i);
    if (e.text("ph") != "M") continue;
    const std::string what = e.text("name");
    const json& args = e.args();
    const auto name = args.find("name");
    if (what == "process_name" || what == "thread_name") {
      if (name == args.end() || !name->is_string()) e.fail("args/name", "missing or not a string");
      if (what == "process_name") process_names[e.integer("pid")] = name->get<std::string>();
      else thread_names[{e.integer("pid"), e.integer("tid")}] = name->get<std::string>();
    }
  }
  auto process = [&](int64_t pid) {
    const auto it = process_names.find(pid);
    return it != process_names.end() ? it->second : fmt::format("pid {}", pid);
  };
  auto track = [&](int64_t pid, int64_t tid) {
    const auto it = thread_names.find({pid, tid});
    return process(pid) + "/" + (it != thread_names.end() ? it->second : fmt::format("tid {}", tid));
  };

  TraceShape shape;
  if (const auto other = doc.find("otherData"); other != doc.end() && other->is_object()) {
    const auto truncated = other->find("truncated");
    shape.truncated = truncated != other->end() && truncated->is_boolean() && truncated->get<bool>();
  }
  for (size_t i = 0; i < events->size(); ++i) {
    const EventReader e(path, (*events)[i], i);
    const std::string ph = e.text("ph");
    if (ph == "M") continue;
    ++shape.events;
    const int64_t ts = e.time_ps("ts");
    const int64_t pid = e.integer("pid");
    if (ph == "X") {
      shape.tracks[track(pid, e.integer("tid"))].slices.push_back({e.text("name"), 0, ts, e.time_ps("dur")});
    } else if (ph == "i") {
      const auto scope = (*events)[i].find("s");
      const bool global = scope != (*events)[i].end() && *scope == "g";
      const std::string key = global ? process(pid) + "/(global)" : track(pid, e.integer("tid"));
      shape.tracks[key].instants.push_back({e.text("name"), ts});
    } else if (ph == "C") {
      shape.counters[process(pid) + "/" + e.text("name")].push_back({ts, counter_values(e.args())});
    } else if (ph == "s" || ph == "t" || ph == "f") {
      std::string& flow = shape.flows[e.id()];
      flow += (flow.empty() ? "" : " > ") + ph + " " + track(pid, e.integer("tid"));
    } else {
      e.fail("ph", fmt::format("\"{}\" is not an event kind symsim writes (M, X, i, C, s, t, f)", ph));
    }
  }
  for (auto& [key, t] : shape.tracks) nest(t.slices);
  return shape;
}

}  // namespace symsim::trace

#include "sim/trace/trace_diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>

namespace symsim::trace {

namespace {

double us(int64_t ps) { return static_cast<double>(ps) / 1e6; }

class Differ {
 public:
  explicit Differ(const DiffOptions& options) : m_pct(options.time_tolerance_pct) {}

  bool same_time(int64_t a, int64_t b) const {
    const double apart = std::fabs(static_cast<double>(a - b));
    return apart <= std::max(1.0, m_pct / 100.0 * static_cast<double>(std::max(a, b)));
  }

  void add(std::string line) { m_lines.push_back(std::move(line)); }
  std::vector<std::string> take() { return std::move(m_lines); }

  void time(const std::string& where, const char* what, int64_t a, int64_t b) {
    if (!same_time(a, b))
      add(fmt::format("{}: {} {} us vs {} us (more than {}% apart)", where, what, us(a), us(b), m_pct));
  }

  void slices(const std::string& track, const std::vector<SliceShape>& a, const std::vector<SliceShape>& b) {
    if (a.size() != b.size())
      add(fmt::format("track \"{}\": {} slices vs {}", track, a.size(), b.size()));
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
      const std::string where = fmt::format("track \"{}\": slice {} ({} at {} us)", track, i, a[i].name, us(a[i].ts_ps));
      if (a[i].name != b[i].name) add(fmt::format("{}: named \"{}\" vs \"{}\"", where, a[i].name, b[i].name));
      if (a[i].depth != b[i].depth) add(fmt::format("{}: nesting depth {} vs {}", where, a[i].depth, b[i].depth));
      time(where, "starts", a[i].ts_ps, b[i].ts_ps);
      time(where, "lasts", a[i].dur_ps, b[i].dur_ps);
      if (a[i].name != b[i].name || a[i].depth != b[i].depth) return;  // the rest is shifted: one line is enough
    }
  }

  void instants(const std::string& track, const std::vector<InstantShape>& a, const std::vector<InstantShape>& b) {
    if (a.size() != b.size()) add(fmt::format("track \"{}\": {} instants vs {}", track, a.size(), b.size()));
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
      const std::string where = fmt::format("track \"{}\": instant {} ({})", track, i, a[i].name);
      if (a[i].name != b[i].name) return add(fmt::format("{}: named \"{}\" vs \"{}\"", where, a[i].name, b[i].name));
      time(where, "at", a[i].ts_ps, b[i].ts_ps);
    }
  }

  void counter(const std::string& name, const std::vector<CounterStep>& a, const std::vector<CounterStep>& b) {
    if (a.size() != b.size()) add(fmt::format("counter \"{}\": {} steps vs {}", name, a.size(), b.size()));
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
      const std::string where = fmt::format("counter \"{}\": step {}", name, i);
      if (a[i].values != b[i].values) return add(fmt::format("{}: {} vs {}", where, a[i].values, b[i].values));
      time(where, "at", a[i].ts_ps, b[i].ts_ps);
    }
  }

 private:
  double m_pct;
  std::vector<std::string> m_lines;
};

// Keys of two maps walked together: a callback for keys in both, a line for keys in one only.
template <typename Map, typename Both>
void walk(const Map& a, const Map& b, const char* kind, Differ& d, Both both) {
  for (const auto& [key, value] : a) {
    const auto it = b.find(key);
    if (it == b.end()) d.add(fmt::format("{} \"{}\": only in A", kind, key));
    else both(key, value, it->second);
  }
  for (const auto& [key, value] : b)
    if (!a.count(key)) d.add(fmt::format("{} \"{}\": only in B", kind, key));
}

std::vector<std::string> sorted_paths(const std::map<uint64_t, std::string>& flows) {
  std::vector<std::string> paths;
  for (const auto& [id, path] : flows) paths.push_back(path);
  std::sort(paths.begin(), paths.end());
  return paths;
}

}  // namespace

std::vector<std::string> diff_traces(const TraceShape& a, const TraceShape& b, const DiffOptions& options) {
  Differ d(options);
  if (a.truncated != b.truncated)
    d.add(fmt::format("otherData.truncated: {} vs {}", a.truncated, b.truncated));
  walk(a.tracks, b.tracks, "track", d, [&](const std::string& key, const TrackShape& ta, const TrackShape& tb) {
    d.slices(key, ta.slices, tb.slices);
    d.instants(key, ta.instants, tb.instants);
  });
  walk(a.counters, b.counters, "counter", d,
       [&](const std::string& key, const auto& ca, const auto& cb) { d.counter(key, ca, cb); });
  // Flows are compared as a multiset of paths: their ids are numbering, not structure.
  const std::vector<std::string> pa = sorted_paths(a.flows), pb = sorted_paths(b.flows);
  if (pa.size() != pb.size()) d.add(fmt::format("flows: {} vs {}", pa.size(), pb.size()));
  std::vector<std::string> only_a, only_b;
  std::set_difference(pa.begin(), pa.end(), pb.begin(), pb.end(), std::back_inserter(only_a));
  std::set_difference(pb.begin(), pb.end(), pa.begin(), pa.end(), std::back_inserter(only_b));
  for (const std::string& p : only_a) d.add("flow only in A: " + p);
  for (const std::string& p : only_b) d.add("flow only in B: " + p);
  return d.take();
}

int trace_diff_main(const std::string& path_a, const std::string& path_b, const DiffOptions& options,
                    size_t max_lines) {
  const TraceShape a = read_trace_shape(path_a);
  const TraceShape b = read_trace_shape(path_b);
  const std::vector<std::string> lines = diff_traces(a, b, options);
  if (lines.empty()) {
    std::cout << fmt::format("{} and {}: same structure ({} tracks, {} counters, {} flows, {} events), times within {}%\n",
                             path_a, path_b, a.tracks.size(), a.counters.size(), a.flows.size(), a.events,
                             options.time_tolerance_pct);
    return 0;
  }
  std::cout << fmt::format("A = {}\nB = {}\n", path_a, path_b);
  for (size_t i = 0; i < std::min(lines.size(), max_lines); ++i) std::cout << "  " << lines[i] << "\n";
  if (lines.size() > max_lines) std::cout << fmt::format("  ... and {} more\n", lines.size() - max_lines);
  std::cout << fmt::format("{} differences (time tolerance {}%)\n", lines.size(), options.time_tolerance_pct);
  return 1;
}

}  // namespace symsim::trace

#include "sim/faults/fault_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "sim/checkers/catalog.h"
#include "sim/faults/fault_kinds.h"
#include "sim/scenario/input_error.h"

namespace symsim {

using nlohmann::json;

namespace {

// The keys a fault of `kind` may have besides "kind" (its registration: faults/fault_kinds.h).
std::set<std::string> kind_keys(const std::string& kind) {
  std::set<std::string> keys;
  for (const FaultKind& k : catalog::faults()) {
    if (kind != k.name) continue;
    std::istringstream words(k.keys);
    for (std::string w; words >> w;) {
      if (w == "@qp" || w == "@wqe") {
        keys.insert({"pe", "peer", "qp", "window_us"});
        if (w == "@wqe") keys.insert({"heap_range", "probability", "count"});
      } else {
        keys.insert(w);
      }
    }
  }
  return keys;
}

class Reader {
 public:
  Reader(const std::string& file, std::string ptr) : m_file(file), m_ptr(std::move(ptr)) {}
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw InputError(m_file, key.empty() ? m_ptr : m_ptr + "/" + key, what);
  }
  double number(const json& j, const std::string& key, double min, double max, bool integer) const {
    if (!j.is_number()) fail(key, fmt::format("expected a number, got {}", j.type_name()));
    const double v = j.get<double>();
    if (!std::isfinite(v)) fail(key, "expected a finite number");
    if (integer && std::floor(v) != v) fail(key, fmt::format("expected an integer, got {}", v));
    if (v < min || v > max) fail(key, fmt::format("{} is out of range [{}, {}]", v, min, max));
    return v;
  }
  // An integer or an array of integers in [0, limit).
  std::vector<int> ints(const json& j, const std::string& key, int limit, const char* what) const {
    std::vector<int> out;
    if (j.is_array()) {
      if (j.empty()) fail(key, "expected at least one value");
      for (size_t i = 0; i < j.size(); ++i) {
        const std::string k = fmt::format("{}/{}", key, i);
        out.push_back(static_cast<int>(number(j[i], k, 0, limit - 1, true)));
      }
    } else {
      if (!j.is_number()) fail(key, fmt::format("expected a {} or an array of them, got {}", what, j.type_name()));
      out.push_back(static_cast<int>(number(j, key, 0, limit - 1, true)));
    }
    return out;
  }
  std::pair<double, double> range(const json& j, const std::string& key, double max, bool integer) const {
    if (!j.is_array() || j.size() != 2) fail(key, "expected [begin, end]");
    const double b = number(j[0], key + "/0", 0, max, integer);
    const double e = number(j[1], key + "/1", 0, max, integer);
    if (!(b < e)) fail(key, fmt::format("begin {} must be below end {}", b, e));
    return {b, e};
  }

 private:
  const std::string& m_file;
  std::string m_ptr;
};

FaultSpec parse_one(const json& f, size_t i, const std::string& file, const FaultLimits& lim) {
  const std::string ptr = fmt::format("/faults/{}", i);
  const Reader r(file, ptr);
  if (!f.is_object()) r.fail("", fmt::format("expected an object, got {}", f.type_name()));
  if (!f.contains("kind")) r.fail("kind", "missing required key");
  if (!f["kind"].is_string()) r.fail("kind", fmt::format("expected a string, got {}", f["kind"].type_name()));
  FaultSpec s;
  s.index = i;
  s.kind = f["kind"].get<std::string>();
  if (!is_fault_kind(s.kind)) {
    std::string known;
    for (const CatalogEntry& e : fault_catalog()) known += (known.empty() ? "" : ", ") + std::string(e.id);
    r.fail("kind", fmt::format("unknown fault kind '{}' (known: {})", s.kind, known));
  }
  const std::set<std::string> allowed = kind_keys(s.kind);
  for (auto it = f.begin(); it != f.end(); ++it) {
    if (it.key() == "kind" || allowed.count(it.key())) continue;
    std::string list;
    for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
    r.fail(it.key(), fmt::format("'{}' does not apply to a {} fault (allowed: kind, {})", it.key(), s.kind, list));
  }
  if (f.contains("pe")) s.pes = r.ints(f["pe"], "pe", lim.pes, "PE");
  if (f.contains("peer")) s.peers = r.ints(f["peer"], "peer", lim.pes, "PE");
  if (f.contains("qp")) s.qps = r.ints(f["qp"], "qp", 32, "QP index");
  if (f.contains("core")) s.cores = r.ints(f["core"], "core", lim.cores, "AIV core");
  if (f.contains("link")) {
    const json& l = f["link"];
    const json list = l.is_array() ? l : json::array({l});
    if (list.empty()) r.fail("link", "expected at least one link name");
    for (size_t k = 0; k < list.size(); ++k) {
      const std::string key = l.is_array() ? fmt::format("link/{}", k) : "link";
      if (!list[k].is_string()) r.fail(key, fmt::format("expected a link name, got {}", list[k].type_name()));
      const std::string name = list[k].get<std::string>();
      if (std::find(lim.links.begin(), lim.links.end(), name) == lim.links.end()) {
        std::string some;
        for (size_t n = 0; n < lim.links.size() && n < 4; ++n) some += (n ? ", " : "") + lim.links[n];
        r.fail(key, fmt::format("no link '{}' on this fabric (links are named like {})", name, some));
      }
      s.links.push_back(name);
    }
  }
  if ((s.kind == fault_kind::kLinkDegrade || s.kind == fault_kind::kLinkDown) && s.links.empty() && s.pes.empty())
    r.fail("", "a link fault needs 'link' (link names) or 'pe' (that PE's port links)");
  if (f.contains("heap_range")) {
    const auto [b, e] = r.range(f["heap_range"], "heap_range", 9007199254740991.0, true);
    s.has_heap_range = true;
    s.heap_begin = static_cast<uint64_t>(b);
    s.heap_end = static_cast<uint64_t>(e);
  }
  if (f.contains("window_us")) {
    const auto [b, e] = r.range(f["window_us"], "window_us", 1e12, false);
    s.window_begin_ps = ns_to_ps(b * 1000.0);
    s.window_end_ps = ns_to_ps(e * 1000.0);
  }
  if (f.contains("probability")) s.probability = r.number(f["probability"], "probability", 0, 1, false);
  if (f.contains("count")) s.count = static_cast<uint64_t>(r.number(f["count"], "count", 1, 1e15, true));
  const auto delay = [&](const char* key, bool required, double def_ns) {
    if (!f.contains(key)) {
      if (required) r.fail(key, "missing required key");
      return ns_to_ps(def_ns);
    }
    return ns_to_ps(r.number(f[key], key, 0, 1e12, false));
  };
  if (s.kind == fault_kind::kCqOverflow) {
    if (f.contains("depth") == f.contains("stall"))
      r.fail("", "a cq_overflow fault takes exactly one of 'depth' (shrink the CQ) and 'stall' (stall its consumer)");
    if (f.contains("depth")) s.depth = static_cast<uint32_t>(r.number(f["depth"], "depth", 1, 1u << 24, true));
    if (f.contains("stall")) {
      if (!f["stall"].is_boolean() || !f["stall"].get<bool>()) r.fail("stall", "expected true");
      s.stall = true;
    }
  } else if (s.kind == fault_kind::kTornBlock) {
    if (f.contains("split_bytes"))
      s.split_bytes = static_cast<uint32_t>(r.number(f["split_bytes"], "split_bytes", 1, lim.unit_bytes - 1, true));
    if (s.split_bytes >= lim.unit_bytes) s.split_bytes = lim.unit_bytes / 2;
    if (f.contains("first")) {
      const json& first = f["first"];
      if (!first.is_string() || (first != "tail" && first != "head"))
        r.fail("first", "expected \"tail\" (the bytes after the split, the flag, land first) or \"head\"");
      s.tail_first = first == "tail";
    }
    s.delay_ps = delay("delay_ns", false, 1000.0);
    if (s.delay_ps == 0) r.fail("delay_ns", "must be above 0: the parts must land at different times");
  } else if (s.kind == fault_kind::kDropDoorbell || s.kind == fault_kind::kDelayDoorbell) {
    if (f.contains("queue")) {
      const json& q = f["queue"];
      if (!q.is_string() || (q != "sq" && q != "cq")) r.fail("queue", "expected \"sq\" or \"cq\"");
      s.cq_queue = q == "cq";
    }
    if (s.kind == fault_kind::kDelayDoorbell) s.delay_ps = delay("delay_ns", true, 0);
  } else if (s.kind == fault_kind::kLinkDegrade) {
    if (f.contains("bandwidth_factor"))
      s.bandwidth_factor = r.number(f["bandwidth_factor"], "bandwidth_factor", 1e-6, 1, false);
    s.extra_latency_ps = delay("extra_latency_ns", false, 0);
    if (s.bandwidth_factor == 1.0 && s.extra_latency_ps == 0)
      r.fail("", "a link_degrade fault needs 'bandwidth_factor' below 1 or 'extra_latency_ns' above 0");
  } else if (s.kind == fault_kind::kReorder) {
    s.delay_ps = delay("delay_ns", true, 0);
  } else if (s.kind == fault_kind::kCqeError) {
    if (f.contains("status")) s.status = static_cast<uint8_t>(r.number(f["status"], "status", 1, 255, true));
    if (f.contains("substatus")) s.substatus = static_cast<uint8_t>(r.number(f["substatus"], "substatus", 0, 255, true));
  } else if (s.kind == fault_kind::kStraggler) {
    if (!f.contains("slowdown")) r.fail("slowdown", "missing required key");
    s.slowdown = r.number(f["slowdown"], "slowdown", 1, 1e6, false);
  } else if (s.kind == fault_kind::kBitFlip) {
    if (f.contains("bits")) s.bits = static_cast<uint32_t>(r.number(f["bits"], "bits", 1, 4096, true));
  }
  return s;
}

}  // namespace

std::vector<FaultSpec> parse_faults(const json& faults, const std::string& file, const FaultLimits& limits) {
  if (!faults.is_array()) throw InputError(file, "/faults", fmt::format("expected an array, got {}", faults.type_name()));
  std::vector<FaultSpec> out;
  for (size_t i = 0; i < faults.size(); ++i) out.push_back(parse_one(faults[i], i, file, limits));
  return out;
}

}  // namespace symsim

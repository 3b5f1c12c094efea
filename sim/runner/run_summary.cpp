#include "sim/runner/run_summary.h"

#include <fmt/format.h>

namespace symsim {

using nlohmann::json;

namespace {

// "pe 0 AIV core 3 (kernel k) at 1.234 us: reason"; core and time only where the family knows
// them (a GPU trap's reason carries its own time).
std::string trap_line(const json& t) {
  std::string where = fmt::format("pe {}", t["pe"].get<int>());
  if (t.contains("core")) where += fmt::format(" AIV core {}", t["core"].get<int>());
  where += fmt::format(" (kernel {})", t["kernel"].get<std::string>());
  if (t.contains("time_ns")) where += fmt::format(" at {:.3f} us", t["time_ns"].get<double>() / 1000.0);
  return fmt::format("  trap: {}: {}\n", where, t["reason"].get<std::string>());
}

// "hazard ID pe P core C qp Q wqe W addr A at T us (site) [repeats N]: detail"; each of pe, core,
// qp, wqe and addr only where the hazard has one, and `repeats` as result.json counts it
// (further occurrences at the same place).
std::string hazard_line(const json& h) {
  std::string where;
  if (h["pe"].get<int>() >= 0) where += fmt::format(" pe {}", h["pe"].get<int>());
  if (h.contains("core")) where += fmt::format(" core {}", h["core"].get<int>());
  if (h["qp"].get<int>() >= 0) where += fmt::format(" qp {}", h["qp"].get<int>());
  if (h["wqe"].get<int64_t>() >= 0) where += fmt::format(" wqe {}", h["wqe"].get<int64_t>());
  if (!h["addr"].get<std::string>().empty()) where += " addr " + h["addr"].get<std::string>();
  return fmt::format("  hazard {}{} at {:.3f} us{}{}{}: {}\n", h["id"].get<std::string>(), where,
                     h["time_ns"].get<double>() / 1000.0,
                     h.contains("site") ? " (" + h["site"].get<std::string>() + ")" : "",
                     h.contains("repeats") ? fmt::format(" [repeats {}]", h["repeats"].get<uint64_t>()) : "",
                     h.value("observed", true) ? "" : " (not observed: timing hid it)", h["detail"].get<std::string>());
}

}  // namespace

std::string summarize(const json& r) {
  std::string out = fmt::format("{}: {}  simulated {:.3f} us  wall {:.2f} s\n", r["scenario"].get<std::string>(),
                                r["status"].get<std::string>(), r["sim_time_ns"].get<double>() / 1000.0,
                                r["wall_s"].get<double>());
  const json& t = r["stats"]["totals"];
  out += fmt::format("  {} WQEs, {} bytes, {} doorbells, {} CQEs\n", t["wqes"].get<uint64_t>(), t["bytes"].get<uint64_t>(),
                     t["doorbells"].get<uint64_t>(), t["cqes"].get<uint64_t>());
  size_t passed = 0;
  for (const json& e : r["expectations"]) passed += e["ok"].get<bool>();
  out += fmt::format("  expectations: {} of {} hold\n", passed, r["expectations"].size());
  for (const json& e : r["expectations"])
    if (!e["ok"].get<bool>())
      out += fmt::format("  FAILED: {}{}\n", e["what"].get<std::string>(),
                         e["detail"].get<std::string>().empty() ? "" : " -- " + e["detail"].get<std::string>());
  if (r.contains("traps"))
    for (const json& trap : r["traps"]) out += trap_line(trap);
  size_t shown = 0;
  for (const json& h : r["hazards"]) {
    if (shown++ == 10) {
      out += fmt::format("  ... {} more hazards in result.json\n", r["hazards"].size() - 10);
      break;
    }
    out += hazard_line(h);
  }
  return out;
}

}  // namespace symsim

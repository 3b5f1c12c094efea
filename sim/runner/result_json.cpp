#include "sim/runner/result_json.h"

#include <utility>

#include "sim/package/version.h"

namespace symsim {

using nlohmann::json;

json hazard_json(const Hazard& h) {
  json j = {{"id", h.id}, {"pe", h.pe}, {"qp", h.qp}, {"wqe", h.wqe}, {"addr", h.addr},
            {"time_ns", static_cast<double>(h.time_ps) / 1000.0}, {"detail", h.detail}};
  j["observed"] = h.observed;
  if (h.slot >= 0) j["slot"] = h.slot;
  if (h.core >= 0) j["core"] = h.core;
  if (!h.site.empty()) j["site"] = h.site;
  if (h.repeats > 0) j["repeats"] = h.repeats;
  return j;
}

json trap_json(const TrapRecord& t) {
  json j = {{"pe", t.pe}, {"kernel", t.kernel}, {"reason", t.reason}};
  if (t.core >= 0) j["core"] = t.core;
  if (t.time_ps) j["time_ns"] = ps_to_ns(*t.time_ps);
  return j;
}

json result_json(RunRecord&& r) {
  json hazards = json::array();
  for (const Hazard& h : r.hazards) hazards.push_back(hazard_json(h));
  json traps = json::array();
  for (const TrapRecord& t : r.traps) traps.push_back(trap_json(t));
  return {{"symsim", 1},
          {"scenario", r.scenario},
          {"status", r.passed ? "pass" : "fail"},
          {"seed", r.seed},
          {"tool", tool_json()},
          {"sim_time_ns", static_cast<double>(r.end_ps) / 1000.0},
          {"wall_s", r.wall_s},
          {"hazards", std::move(hazards)},
          {"expectations", std::move(r.expectations)},
          {"checks", std::move(r.checks)},
          {"traps", std::move(traps)},
          {"stats", std::move(r.stats)},
          {"config", std::move(r.config)}};
}

}  // namespace symsim

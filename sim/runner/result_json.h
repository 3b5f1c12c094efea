// The one result model: everything a run writes to result.json (docs/schema/result.schema.json),
// whatever the platform family. The runner fills a RunRecord; result_json() is the only place
// that turns one into JSON.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/checkers/hazard_log.h"
#include "sim/runner/family_simulation.h"

namespace symsim {

struct RunRecord {
  std::string scenario;
  bool passed = false;
  uint64_t seed = 0;
  Ps end_ps = 0;
  double wall_s = 0;
  std::vector<Hazard> hazards;
  nlohmann::json expectations = nlohmann::json::array();
  nlohmann::json checks = nlohmann::json::array();
  std::vector<TrapRecord> traps;
  nlohmann::json stats = nlohmann::json::object();
  nlohmann::json config = nlohmann::json::object();  // the scenario's effective configuration
};

nlohmann::json hazard_json(const Hazard& h);
nlohmann::json trap_json(const TrapRecord& t);
// Takes the record's JSON parts (moved, not copied: the stats list every QP, 131,072 at EP 256).
nlohmann::json result_json(RunRecord&& r);

}  // namespace symsim

// The `expectations` list of result.json and the run's verdict, with the checks both
// runners make; each runner adds its own (how a kernel traps differs per platform).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/checkers/hazard_log.h"
#include "models/core/time.h"
#include "sim/scenario/scenario.h"

namespace symsim {

class ExpectationReport {
 public:
  void expect(bool good, std::string what, std::string detail);

  // The host drivers' verifications: required to hold, required to fail somewhere (a bug's
  // consequence), or only recorded ("any", e.g. when the run hangs by design). Returns the
  // `checks` list of result.json.
  nlohmann::json host_checks(const Expectations& e, const std::vector<std::string>& host_errors);
  // expect.hazards (each reported, and no other), the simulated-time bounds, and that a host
  // program verified something when its checks must pass.
  void hazards_and_time(const Expectations& e, const HazardLog& hazards, Ps end_ps, bool host_errors);

  bool ok() const { return m_ok; }
  const nlohmann::json& list() const { return m_list; }

 private:
  nlohmann::json m_list = nlohmann::json::array();
  bool m_ok = true;
};

}  // namespace symsim

#include "sim/service/run_record.h"

#include <algorithm>

namespace symsim::service {

const char* state_name(RunState s) {
  switch (s) {
    case RunState::kQueued:
      return "queued";
    case RunState::kRunning:
      return "running";
    case RunState::kDone:
      return "done";
  }
  return "?";
}

nlohmann::json Run::info() const {
  nlohmann::json j = {{"run", id}, {"name", name}, {"state", state_name(state)}, {"trace", trace}};
  if (state == RunState::kRunning) j["pid"] = static_cast<int64_t>(pid);
  if (state == RunState::kDone) {
    j["outcome"] = outcome;
    j["exit_code"] = exit_code;
    if (!detail.empty()) j["detail"] = detail;
  }
  if (sim_time_ns >= 0) j["sim_time_ns"] = sim_time_ns;
  j["hazards"] = std::max<uint64_t>(hazard_total, hazards.size());
  return j;
}

nlohmann::json Run::done_event() const {
  nlohmann::json j = {
      {"event", "done"}, {"run", id}, {"name", name}, {"outcome", outcome}, {"exit_code", exit_code}};
  if (!detail.empty()) j["detail"] = detail;
  if (sim_time_ns >= 0) j["sim_time_ns"] = sim_time_ns;
  j["hazards"] = std::max<uint64_t>(hazard_total, hazards.size());
  return j;
}

}  // namespace symsim::service

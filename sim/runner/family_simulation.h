// One run's family-specific part, built by PlatformFamily::build: the platform's models and
// what only that family knows (its hazard observers, how its programs start and stop, how a
// hang shows, its traps and extra statistics). The one runner (runner.cpp) does the rest.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/core/observer.h"
#include "models/core/time.h"

namespace symsim {

class HazardLog;
class StatsCollector;
class TraceWriter;
class ExpectationReport;
struct TraceFilter;

// A kernel that trapped; `core` and the time are there where the family knows them.
struct TrapRecord {
  int pe = -1;
  int core = -1;
  std::string kernel;
  std::optional<Ps> time_ps;
  std::string reason;
};

class FamilySimulation {
 public:
  virtual ~FamilySimulation() = default;
  // Where observers attach (statistics, trace, tests).
  virtual Hooks& hooks() = 0;
  // The family's hazard observers (and fault injection), reporting into `log`.
  virtual void attach_family_observers(HazardLog& log) = 0;
  virtual std::unique_ptr<TraceWriter> make_trace(const TraceFilter& filter) = 0;
  // Spawns one host program per PE (before sc_start).
  virtual void start_hosts(std::function<void(int pe)> host_main) = 0;
  // After sc_start(limit): the run's end time; settles memory and reports end-of-run and
  // hang hazards into `log`.
  virtual Ps finish(Ps limit_ps, double limit_us, HazardLog& log) = 0;
  // Traps, ordered by time where known, then PE and core.
  virtual std::vector<TrapRecord> traps() = 0;
  // The `stats` object of result.json; the family may add expectations of its own.
  virtual nlohmann::json stats(const StatsCollector& stats, Ps end_ps, ExpectationReport& report) = 0;
  // Ends the host programs (after everything above was read).
  virtual void stop() = 0;
};

}  // namespace symsim

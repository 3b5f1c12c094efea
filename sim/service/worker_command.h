// `symsim worker`: runs one scenario for the service or a sweep, like `symsim run`, and streams
// events (started, progress, hazard, finished) as JSON lines to --events-fd. Exit codes as `run`.
#pragma once
#include <string>

#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"

namespace symsim::service {

struct WorkerOptions {
  std::string scenario;
  std::string out_dir;
  LoadOptions load;
  TraceOptions trace;
  int events_fd = -1;
  double progress_interval_s = 0.25;
  std::string cosim_socket;  // co-simulation: host programs connect here (sim/cosim)
};

int worker_main(const WorkerOptions& options);

}  // namespace symsim::service

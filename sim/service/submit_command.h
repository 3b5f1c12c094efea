// `symsim submit`: sends a scenario to a running `symsim serve`, shows its progress and
// hazards, writes result.json (and the trace) like `symsim run`, and exits with its code.
// Also lists, cancels and waits for runs, and shuts the server down, for scripts.
#pragma once
#include <string>
#include <vector>

namespace symsim::service {

struct SubmitOptions {
  std::string server;  // endpoint; empty: default_server()
  std::string token;   // empty: $SYMSIM_TOKEN
  std::string scenario;
  std::vector<std::string> sets;
  bool has_seed = false;
  uint64_t seed = 0;
  std::string trace_path;
  std::string out_dir;
  bool detach = false;  // print the run id and return without waiting
  bool quiet = false;
  // Other actions instead of submitting.
  bool list = false;
  std::string cancel_run, wait_run;
  std::string shutdown_mode;
};

int submit_main(const SubmitOptions& options);

}  // namespace symsim::service

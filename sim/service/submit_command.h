// `symsim submit`: sends a scenario to a running `symsim serve`, shows its progress and
// hazards, writes result.json (and the trace) like `symsim run`, and exits with its code.
// Also lists, cancels and waits for runs, and shuts the server down, for scripts.
#pragma once
#include <string>
#include <vector>

namespace symsim::service {

struct SubmitOptions {
  std::string server;  // endpoint; empty: default_server()
  std::string token;   // empty: --token-file, else $SYMSIM_TOKEN
  std::string token_file;
  double connect_timeout_s = 10;  // connecting and the server's hello
  double timeout_s = 0;           // waiting for the run; 0: no limit
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

// Exit codes: the run's (0, 1, 2, 3 as `symsim run`; 124 for a run stopped by its time limit);
// 2 when the server cannot be reached (refused, no socket, no answer within --connect-timeout)
// or a path given is bad; 124 when --timeout passed first.
int submit_main(const SubmitOptions& options);

}  // namespace symsim::service

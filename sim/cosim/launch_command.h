// `symsim launch -n N [options] PROGRAM ARGS...`: co-simulates a real host program, as
// `mpirun -n N` would start it on hardware. Starts a private `symsim serve` (or uses --server),
// submits a co-simulation run of N PEs, starts N copies of PROGRAM (one per PE; each finds the
// simulator through SYMSIM_COSIM_SOCKET and its rank in SYMSIM_PE, RANK, OMPI_COMM_WORLD_RANK
// and PMI_RANK), waits for them and for the run, and writes result.json like `symsim run`.
#pragma once
#include <string>
#include <vector>

namespace symsim::cosim {

struct LaunchOptions {
  int pes = 2;
  std::string platform = "ascend910c";
  std::vector<std::string> sets;  // --set PATH=VALUE on the co-simulation scenario
  std::string server;             // an existing server; empty: start a private one
  std::string token;
  std::string out_dir;  // default: symsim-out/cosim_<program>
  std::string trace_path;
  double timeout_s = 600;
  bool quiet = false;
  std::vector<std::string> command;  // PROGRAM ARGS...
};

// Exit code: that of the run (0 pass, 1 fail, ...); 1 when a host program exited non-zero or
// every host program exited without all of them connecting; 124 when --timeout stopped the
// co-simulation; 130/143 on SIGINT/SIGTERM (run cancelled, hosts and private server stopped).
int launch_main(const LaunchOptions& options);

}  // namespace symsim::cosim

// What one benchmark run measured, and how a run is isolated: each simulation runs in a child
// process (SystemC allows one per process, and CPU time and peak RSS are then the run's own),
// which sends its figures back as one line of text.
#pragma once
#include <functional>
#include <string>

namespace symsim::bench {

struct Figures {
  std::string name;    // "put (checkers on)"
  std::string status;  // the run's status ("pass", "fail", ...), or how the child died
  std::string unit;    // what `work` counts: "WQEs", "events", "PEs"
  double work = 0;
  double wall_s = 0;
  double cpu_s = 0;
  double rss_mib = 0;
  double sim_us = 0;  // simulated time (0: not a timed run)

  double per_cpu_s() const { return cpu_s > 0 ? work / cpu_s : 0; }
  double per_wall_s() const { return wall_s > 0 ? work / wall_s : 0; }
  std::string line() const;  // one line, key=value, no spaces inside values
  static Figures parse(const std::string& line);
};

// Runs `run` in a child process (stdout silenced when `quiet`) and returns its figures, with
// wall time, CPU time and peak RSS filled in from the child's own process.
Figures in_child(const std::function<Figures()>& run, bool quiet);

}  // namespace symsim::bench

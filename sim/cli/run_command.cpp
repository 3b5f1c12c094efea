#include "sim/cli/run_command.h"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "sim/cli/cli_values.h"
#include "sim/io/output_file.h"
#include "sim/io/path_component.h"
#include "sim/runner/one_shot_exit.h"
#include "sim/runner/wall_limit.h"
#include "sim/scenario/input_error.h"
#include "sim/scenario/resource_estimate.h"
#include "sim/service/trace_args.h"
#include "sim/stats/tty_progress.h"

namespace symsim::cli {

namespace fs = std::filesystem;

std::string default_out_dir(const Scenario& s) {
  return (fs::path("symsim-out") / io::safe_path_component(s.name)).string();
}

namespace {

void check_trace_pes(const std::vector<int>& pes, const Scenario& s) {
  for (int pe : pes)
    if (pe >= s.pes)
      throw InputError(
          "--trace-pes", "",
          fmt::format("PE {} does not exist: the scenario has {} PEs (0..{})", pe, s.pes, s.pes - 1));
}

void check_memory(const Scenario& s, const RunRequest& r) {
  if (r.max_memory == "unlimited") return;
  const bool given = !r.max_memory.empty();
  const uint64_t limit = given ? parse_bytes(r.max_memory, "--max-memory") : available_memory_bytes();
  if (limit == 0) return;  // /proc/meminfo unreadable: nothing to compare with
  const ResourceEstimate e = estimate_resources(s, !r.trace.path.empty());
  if (e.memory_bytes > limit)
    throw InputError(
        "--max-memory", "",
        fmt::format("{}: the run is estimated to need {}, more than {} ({}); lower pes or the kernel's "
                    "sizes, or raise --max-memory (\"unlimited\" skips this check)",
                    s.file, e.memory_summary(), format_bytes(limit),
                    given ? "--max-memory" : "the memory this machine has available now"));
}

}  // namespace

int run_command(RunRequest r) {
  if (!r.max_wall_s.empty()) parse_seconds(r.max_wall_s, "--max-wall-s");  // before the scenario: cheap first
  // A filter without a trace would be silently ignored.
  if (r.trace.path.empty() && !r.trace_pes.empty())
    throw InputError("--trace-pes", "", "filters a trace: give --trace FILE too");
  if (r.trace.path.empty() && !r.trace_window.empty())
    throw InputError("--trace-window", "", "filters a trace: give --trace FILE too");
  if (!r.trace_pes.empty()) r.trace.pes = service::parse_pe_list(r.trace_pes, "--trace-pes");
  if (!r.trace_window.empty()) service::parse_trace_window_us(r.trace_window, r.trace, "--trace-window");
  const Scenario s = load_scenario(r.file, r.load);
  check_trace_pes(r.trace.pes, s);
  check_memory(s, r);

  // Every output is checked before the run, so a bad path costs no simulation.
  const std::string dir = r.out_dir.empty() ? default_out_dir(s) : r.out_dir;
  const std::string result_path = (fs::path(dir) / "result.json").string();
  io::create_output_dir(dir);
  io::check_writable(result_path);
  if (!r.trace.path.empty()) io::check_writable(r.trace.path);

  if (!r.max_wall_s.empty()) arm_wall_limit(parse_seconds(r.max_wall_s, "--max-wall-s"), "the run");
  TtyProgress progress;  // a status line on stderr while a long run goes (terminals only)
  const RunOutput out = run_scenario(s, r.trace, progress.observers(), one_shot_run_end());
  progress.finish();
  disarm_wall_limit();
  io::write_file(result_path, out.result.dump(2) + "\n");
  std::cout << summarize(out.result) << "  result: " << result_path << "\n";
  if (!r.trace.path.empty()) std::cout << "  trace: " << r.trace.path << "\n";
  const int rc = out.passed ? 0 : 1;
  // The result and the trace are written: the process ends here, its run's state left to the
  // exit (sim/runner/one_shot_exit.h), unless it was torn down already.
  exit_if_kept(out, rc);
  return rc;
}

}  // namespace symsim::cli

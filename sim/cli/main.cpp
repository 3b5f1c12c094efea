// The symsim command line: run, validate, list (docs/cli.md). Exit codes: 0 pass, 1 an
// expectation failed, 2 invalid input, 3 internal error.
#include <systemc>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <csignal>
#include <cstdlib>
#include <iostream>

#include "sim/cli/cli_values.h"
#include "sim/cli/list_command.h"
#include "sim/cli/run_command.h"
#include "sim/explore/explore_command.h"
#include "sim/io/output_file.h"
#include "kernels/registry/kernel_registry.h"
#include "sim/io/strict_json.h"
#include "sim/runner/huge_heap.h"
#include "sim/runner/platform_family.h"
#include "sim/runner/runner.h"
#include "sim/scenario/input_error.h"
#include "sim/scenario/scenario.h"
#include "symsim/kernel_library.h"
#include "sim/service/commands.h"
#include "sim/package/version.h"
#include "sim/report/commands.h"
#ifdef SYMSIM_HAVE_LITMUS
#include "sim/litmus/litmus_command.h"
#endif

using namespace symsim;

namespace {

constexpr int kExitPass = 0, kExitInput = 2, kExitInternal = 3;

}  // namespace

// Our own main: silence SystemC's banner (stdout is for results), then elaborate as usual.
int main(int argc, char* argv[]) {
  reexec_with_huge_heap(argv);
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  // Past a file-size limit (ulimit -f) a write fails with EFBIG and is reported with its path,
  // instead of the process being killed part-way through a file.
  std::signal(SIGXFSZ, SIG_IGN);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) {
  // Named, so that usage lines (and the man page made from them) say "symsim", not argv[0].
  CLI::App app{"symsim: a cycle-approximate simulator of NPU/GPU-initiated communication over symmetric memory",
               "symsim"};
  app.require_subcommand(1);
  app.set_version_flag("--version", symsim::version_line(), "print the version and git commit, and exit");

  std::string file, seed_text;
  cli::RunRequest req;
  LoadOptions& load = req.load;
  CLI::App* run_cmd = app.add_subcommand("run", "run one scenario");
  run_cmd->add_option("scenario", file, "scenario JSON file")->required();
  run_cmd->add_option("--out", req.out_dir, "output folder (default: symsim-out/<scenario name>)");
  run_cmd->add_option("--trace", req.trace.path, "write a Perfetto/Chrome trace JSON here");
  run_cmd->add_option("--trace-pes", req.trace_pes, "trace only these PEs (e.g. 0,1,4-7)");
  run_cmd->add_option("--trace-window", req.trace_window, "trace only this simulated window in us (BEGIN:END)");
  auto* seed_opt = run_cmd->add_option("--seed", seed_text, "override the scenario's seed (0..2^53-1)");
  run_cmd->add_option("--set", load.sets, "override a value by dotted path (PATH=VALUE), repeatable");
  run_cmd->add_option("--max-memory", req.max_memory,
                      "refuse a run estimated to need more memory (e.g. 8G; default: MemAvailable; \"unlimited\")");
  run_cmd->add_option("--max-wall-s", req.max_wall_s, "stop the run after this many wall seconds (exit 124)");
  run_cmd->footer(
      "Environment:\n"
      "  SYMSIM_FULL_TEARDOWN=1  destroy the run's state (platform, memory, observers) before exiting, as\n"
      "                          the service does; by default it is left to the exit once the result is\n"
      "                          written (for leak checkers such as valgrind --leak-check; docs/cli.md)");
  symsim::explore::ExploreOptions explore;
  auto* explore_opt = run_cmd->add_option("--explore", explore.schedules,
                                          "run N schedules (seeds with legal timing perturbations) in parallel "
                                          "workers and report the union of their hazards");
  auto* jobs_opt = run_cmd->add_option("--jobs", explore.jobs,
                                       "with --explore: worker processes at once (default: one per CPU)");
  std::vector<std::string> kernel_libs;  // CANN-style programs built with cmake/SymsimKernelLibrary.cmake
  run_cmd->add_option("--kernel-lib", kernel_libs, "load a kernel library (its kernel becomes a kernel name), repeatable");

  CLI::App* validate_cmd = app.add_subcommand("validate", "check a scenario without running it");
  validate_cmd->add_option("scenario", file, "scenario JSON file")->required();
  validate_cmd->add_option("--set", load.sets, "override a value by dotted path (PATH=VALUE), repeatable");
  validate_cmd->add_option("--kernel-lib", kernel_libs, "load a kernel library first, repeatable");

  std::vector<std::unique_ptr<cli::SubcommandGroup>> groups;
  groups.push_back(std::make_unique<cli::ListCommand>(app, kernel_libs));

#ifdef SYMSIM_HAVE_LITMUS
  std::vector<std::string> litmus_paths;
  std::string litmus_expected, litmus_json;
  int litmus_seeds = 1000;
  CLI::App* litmus_cmd = app.add_subcommand("litmus", "run PTX litmus tests on the memory-ordering model");
  litmus_cmd->add_option("paths", litmus_paths, ".litmus files or folders")->required();
  litmus_cmd->add_option("--expected", litmus_expected, "CSV of the formal model's verdicts")->required();
  litmus_cmd->add_option("--seeds", litmus_seeds, "seeds per test (default 1000)");
  litmus_cmd->add_option("--json", litmus_json, "write the per-test results here");
#endif

  groups.push_back(std::make_unique<symsim::service::Commands>(app));  // serve, submit, worker, sweep, launch
  groups.push_back(std::make_unique<symsim::report::Commands>(app));   // report, trace diff

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitPass : kExitInput;
  }

  try {
    for (const std::string& lib : kernel_libs) symsim::shim::load_kernel_library(lib);
    for (const auto& g : groups)
      if (const auto code = g->dispatch()) return *code;
#ifdef SYMSIM_HAVE_LITMUS
    if (*litmus_cmd) return symsim::litmus::litmus_main(litmus_paths, litmus_expected, litmus_seeds, litmus_json);
#endif
    if (*seed_opt) load.seed = cli::parse_seed(seed_text, "--seed");
    if (*validate_cmd) {
      const Scenario s = load_scenario(file, load);
      std::cout << fmt::format("{}: valid ({} PEs, kernel {}, platform {})\n", file, s.pes, s.kernel, s.platform_name);
      return kExitPass;
    }
    if (*jobs_opt && !*explore_opt) throw InputError("--jobs", "", "only with --explore N");
    if (*explore_opt) {
      explore.out_dir = req.out_dir;
      explore.kernel_libs = kernel_libs;
      return symsim::explore::explore_main(file, load, explore);
    }
    req.file = file;
    return cli::run_command(req);
  } catch (const InputError& e) {
    std::cerr << "symsim: invalid input: " << e.what() << "\n";
    return kExitInput;
  } catch (const io::OutputError& e) {
    std::cerr << "symsim: " << e.what() << "\n";
    return e.exit_code();
  } catch (const std::invalid_argument& e) {
    std::cerr << "symsim: invalid input: " << e.what() << "\n";
    return kExitInput;
  } catch (const std::exception& e) {
    std::cerr << "symsim: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
}

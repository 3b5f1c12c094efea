#include "sim/service/commands.h"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>

#include "sim/cosim/launch_command.h"
#include "sim/scenario/input_error.h"
#include "sim/service/server.h"
#include "sim/service/submit_command.h"
#include "sim/service/trace_args.h"
#include "sim/service/worker_command.h"
#include "sim/sweep/sweep_command.h"
#include "symsim/kernel_library.h"

namespace symsim::service {

namespace {
constexpr uint64_t kMinRunMemoryBytes = uint64_t{128} << 20;
// Loads kernel libraries (so their kernels validate here) and returns their absolute paths
// for the worker processes, which load them again.
std::vector<std::string> load_libraries(const std::vector<std::string>& libs) {
  std::vector<std::string> absolute;
  for (const std::string& lib : libs) {
    shim::load_kernel_library(lib);
    absolute.push_back(std::filesystem::absolute(lib).string());
  }
  return absolute;
}
}  // namespace

struct Commands::Impl {
  CLI::App* serve = nullptr;
  std::vector<std::string> sockets, listens;
  ServerOptions server;

  CLI::App* submit = nullptr;
  SubmitOptions submit_opts;
  CLI::Option* submit_seed = nullptr;

  CLI::App* worker = nullptr;
  WorkerOptions worker_opts;
  std::string worker_trace_pes, worker_trace_window;
  uint64_t worker_seed = 0;
  CLI::Option* worker_seed_opt = nullptr;
  std::vector<std::string> worker_libs;

  CLI::App* sweep = nullptr;
  sweep::SweepOptions sweep_opts;

  CLI::App* launch = nullptr;
  cosim::LaunchOptions launch_opts;
};

Commands::Commands(CLI::App& app) : m(std::make_unique<Impl>()) {
  Impl& i = *m;
  i.serve = app.add_subcommand("serve",
                               "run the simulation service (JSON lines over a Unix socket or loopback TCP)");
  i.serve->add_option("--socket", i.sockets,
                      "listen on this Unix socket (default: <dir>/symsim.sock), repeatable");
  i.serve->add_option("--listen", i.listens,
                      "listen on unix:PATH or tcp:HOST:PORT (loopback unless --public), repeatable");
  i.serve->add_option("--dir", i.server.state_dir, "folder of run folders (default: symsim-serve)");
  i.serve->add_option("--workers", i.server.workers, "worker processes at once (default: hardware threads)");
  i.serve
      ->add_option("--queue", i.server.queue_limit,
                   "runs that may wait for a worker (default 64); more submits wait")
      ->check(CLI::PositiveNumber);
  i.serve
      ->add_option("--max-frame-bytes", i.server.max_frame_bytes,
                   "longest request line accepted (default 1 MiB)")
      ->check(CLI::Range(size_t{64}, size_t{1} << 30));
  i.serve->add_option("--token", i.server.token,
                      "clients must send this token (default: $SYMSIM_TOKEN; generated into <dir>/token for TCP)");
  i.serve->add_option("--root", i.server.root,
                      "scenario_path requests may read files only under this folder (default: --dir)");
  i.serve->add_flag("--public", i.server.allow_public, "allow a non-loopback TCP address (needs a token)");
  i.serve
      ->add_option("--run-timeout", i.server.run_timeout_s,
                   "stop a run after this many wall seconds; a submit may ask for less (default: none)")
      ->check(CLI::Range(0.0, kMaxRunTimeoutS));
  i.serve
      ->add_option("--run-memory", i.server.run_memory_bytes,
                   "stop a run whose worker uses more resident memory than this, e.g. 8G (default: none)")
      ->transform(CLI::AsSizeValue(false))
      ->check(CLI::Range(uint64_t{0}, uint64_t{1} << 50));
  i.serve->add_option("--progress-interval", i.server.progress_interval_s,
                      "seconds between progress events (default 0.25)");
  i.serve->add_option("--kernel-lib", i.server.kernel_libs,
                      "load a kernel library, here and in every worker, repeatable");

  i.submit =
      app.add_subcommand("submit", "submit a scenario to a running `symsim serve` and wait for its result");
  SubmitOptions& s = i.submit_opts;
  i.submit->add_option("scenario", s.scenario, "scenario JSON file");
  i.submit->add_option(
      "--server", s.server,
      "unix:PATH or tcp:HOST:PORT (default: $SYMSIM_SERVER or unix:symsim-serve/symsim.sock)");
  i.submit->add_option("--token", s.token, "the server's token (default: $SYMSIM_TOKEN)");
  i.submit->add_option("--token-file", s.token_file, "read the server's token from this file (serve's <dir>/token)");
  i.submit
      ->add_option("--connect-timeout", s.connect_timeout_s,
                   "give up when the server does not answer within this many seconds (default 10)")
      ->check(CLI::Range(0.001, 86400.0));
  i.submit
      ->add_option("--timeout", s.timeout_s,
                   "stop waiting for the run after this many seconds: exit 124, the run goes on (default: none)")
      ->check(CLI::Range(0.0, kMaxRunTimeoutS));
  i.submit->add_option("--set", s.sets, "override a value by dotted path (PATH=VALUE), repeatable");
  i.submit_seed = i.submit->add_option("--seed", s.seed, "override the scenario's seed");
  i.submit->add_option("--out", s.out_dir, "where result.json goes (default: symsim-out/<scenario name>)");
  i.submit->add_option("--trace", s.trace_path, "fetch the run's Perfetto trace into this file");
  i.submit->add_flag("--detach", s.detach, "print the run id and return without waiting");
  i.submit->add_flag("--quiet", s.quiet, "no progress or hazard lines on stderr");
  i.submit->add_flag("--list", s.list, "list the server's runs");
  i.submit->add_option("--cancel", s.cancel_run, "cancel this run");
  i.submit->add_option("--wait", s.wait_run, "wait for this run and fetch its result");
  i.submit->add_option("--shutdown", s.shutdown_mode, "shut the server down: drain, finish or cancel");

  i.worker = app.add_subcommand("worker", "run one scenario for the service (internal)");
  i.worker->group("");  // not listed in --help: the service and sweeps start it
  WorkerOptions& w = i.worker_opts;
  i.worker->add_option("scenario", w.scenario, "scenario JSON file")->required();
  i.worker->add_option("--out", w.out_dir, "output folder")->required();
  i.worker->add_option("--set", w.load.sets, "override a value by dotted path");
  i.worker_seed_opt = i.worker->add_option("--seed", i.worker_seed, "override the scenario's seed");
  i.worker->add_option("--trace", w.trace.path, "write a trace here");
  i.worker->add_option("--trace-pes", i.worker_trace_pes, "trace only these PEs");
  i.worker->add_option("--trace-window", i.worker_trace_window, "trace only this window in us (BEGIN:END)");
  i.worker->add_option("--events-fd", w.events_fd, "write JSON-line events to this fd");
  i.worker->add_option("--progress-interval", w.progress_interval_s, "seconds between progress events");
  i.worker->add_option("--cosim", w.cosim_socket, "co-simulation: host programs connect to this Unix socket");
  i.worker->add_option("--kernel-lib", i.worker_libs, "load a kernel library first");

  i.sweep = app.add_subcommand("sweep",
                               "run a grid of --set overrides over scenarios in parallel; shard and merge");
  sweep::SweepOptions& sw = i.sweep_opts;
  i.sweep->add_option("sweep", sw.file, "sweep JSON file (docs/sweeps.md)");
  i.sweep->add_option("--jobs,-j", sw.jobs, "worker processes at once (default: hardware threads)");
  i.sweep->add_option("--shard", sw.shard,
                      "run only slice I of M (I/M, 0-based): points with index % M == I");
  i.sweep->add_option("--out", sw.out_dir, "results folder (default: symsim-sweep/<name>[/shard-I-of-M])");
  i.sweep->add_option("--merge", sw.merge, "join these shard result folders into --out")->expected(1, -1);
  i.sweep->add_flag("--quiet", sw.quiet, "no progress bar");
  i.sweep->add_flag("--resume", sw.resume, "keep the points already finished in --out, run only the rest");
  i.sweep->add_option("--point-timeout", sw.point_timeout_s,
                      "stop a point after this many wall seconds (status timeout; default: none)");
  i.sweep->add_option("--timeout", sw.timeout_s,
                      "stop the sweep after this many wall seconds: partial table, exit 124 (default: none)");
  i.sweep->add_option("--kernel-lib", sw.kernel_libs,
                      "load a kernel library, here and in every worker, repeatable");

  i.launch =
      app.add_subcommand("launch", "co-simulate a host program: start the simulator and N host processes");
  i.launch->prefix_command();  // PROGRAM and everything after it belong to the host program
  cosim::LaunchOptions& l = i.launch_opts;
  i.launch->add_option("-n,--pes", l.pes, "host processes, one per PE (default 2)")
      ->check(CLI::Range(1, 4096));
  i.launch->add_option("--platform", l.platform, "platform preset (default ascend910c)");
  i.launch->add_option("--set", l.sets, "override a value by dotted path (PATH=VALUE), repeatable");
  i.launch->add_option("--server", l.server, "use this running server (default: start a private one)");
  i.launch->add_option("--token", l.token, "the server's token (default: $SYMSIM_TOKEN)");
  i.launch->add_option("--out", l.out_dir, "where result.json goes (default: symsim-out/cosim_<program>)");
  i.launch->add_option("--trace", l.trace_path, "write the run's Perfetto trace here");
  i.launch->add_option("--timeout", l.timeout_s,
                       "stop the co-simulation after this many wall seconds (default 600)");
  i.launch->add_flag("--quiet", l.quiet, "fewer messages on stderr");
}

Commands::~Commands() = default;

std::optional<int> Commands::dispatch() {
  Impl& i = *m;
  if (*i.serve) {
    if (i.server.token.empty())
      if (const char* t = std::getenv("SYMSIM_TOKEN")) i.server.token = t;
    for (const std::string& s : i.sockets) i.server.listen.push_back(parse_endpoint("unix:" + s, "--socket"));
    for (const std::string& l : i.listens) i.server.listen.push_back(parse_endpoint(l, "--listen"));
    if (i.server.run_memory_bytes > 0 && i.server.run_memory_bytes < kMinRunMemoryBytes)
      throw InputError("--run-memory", "", "at least 128M: a worker needs that much to start");
    if (i.server.listen.empty())
      i.server.listen.push_back(parse_endpoint("unix:" + i.server.state_dir + "/symsim.sock", "--socket"));
    i.server.kernel_libs = load_libraries(i.server.kernel_libs);
    return serve_main(i.server);
  }
  if (*i.submit) {
    i.submit_opts.has_seed = static_cast<bool>(*i.submit_seed);
    const bool other = i.submit_opts.list || !i.submit_opts.cancel_run.empty() ||
                       !i.submit_opts.wait_run.empty() || !i.submit_opts.shutdown_mode.empty();
    if (i.submit_opts.scenario.empty() && !other)
      throw std::invalid_argument(
          "symsim submit: give a scenario file (or --list, --cancel, --wait, --shutdown)");
    return submit_main(i.submit_opts);
  }
  if (*i.worker) {
    if (*i.worker_seed_opt) i.worker_opts.load.seed = i.worker_seed;
    load_libraries(i.worker_libs);
    if (!i.worker_trace_pes.empty())
      i.worker_opts.trace.pes = parse_pe_list(i.worker_trace_pes, "--trace-pes");
    if (!i.worker_trace_window.empty()) parse_trace_window_us(i.worker_trace_window, i.worker_opts.trace);
    return worker_main(i.worker_opts);
  }
  if (*i.sweep) {
    i.sweep_opts.kernel_libs = load_libraries(i.sweep_opts.kernel_libs);
    return sweep::sweep_main(i.sweep_opts);
  }
  if (*i.launch) {
    i.launch_opts.command = i.launch->remaining();
    return cosim::launch_main(i.launch_opts);
  }
  return std::nullopt;
}

}  // namespace symsim::service

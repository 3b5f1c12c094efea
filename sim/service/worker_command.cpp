#include "sim/service/worker_command.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>

#include "sim/cosim/cosim_server.h"
#include "sim/scenario/input_error.h"
#include "sim/service/event_sink.h"
#include "sim/service/progress_observer.h"
#include "sim/service/trace_args.h"

namespace fs = std::filesystem;

namespace symsim::service {

namespace {
// Hazards streamed per run; the result keeps every one.
constexpr size_t kMaxStreamedHazards = 200;
}  // namespace

namespace {
int run_worker(const WorkerOptions& o, EventSink& sink);
}  // namespace

int worker_main(const WorkerOptions& o) {
  EventSink sink(o.events_fd);
  try {
    return run_worker(o, sink);
  } catch (const std::bad_alloc&) {
    // Out of memory (the machine, or a ulimit): say so to the server before exiting.
    sink.emit({{"event", "out_of_memory"}});
    std::cerr << "symsim worker: out of memory\n";
    return 3;
  }
}

namespace {

int run_worker(const WorkerOptions& o, EventSink& sink) {
  sink.emit({{"event", "started"}, {"pid", static_cast<int64_t>(getpid())}});
  const Scenario s = load_scenario(o.scenario, o.load);
  if (!o.cosim_socket.empty()) cosim::serve_host_programs(o.cosim_socket, s.pes, sink);
  fs::create_directories(o.out_dir);
  ProgressObserver progress(sink, o.progress_interval_s);
  const RunOutput out = run_scenario(s, o.trace, {&progress});
  progress.finish(static_cast<Ps>(out.result["sim_time_ns"].get<double>() * 1000.0 + 0.5));
  {
    std::ofstream f(fs::path(o.out_dir) / "result.json");
    f << out.result.dump(2) << "\n";
    if (!f) throw std::runtime_error("cannot write " + (fs::path(o.out_dir) / "result.json").string());
  }
  const nlohmann::json& hazards = out.result["hazards"];
  for (size_t i = 0; i < hazards.size() && i < kMaxStreamedHazards; ++i)
    sink.emit({{"event", "hazard"}, {"hazard", hazards[i]}});
  sink.emit({{"event", "finished"},
             {"status", out.result["status"]},
             {"sim_time_ns", out.result["sim_time_ns"]},
             {"hazards", hazards.size()}});
  return out.passed ? 0 : 1;
}

}  // namespace

}  // namespace symsim::service

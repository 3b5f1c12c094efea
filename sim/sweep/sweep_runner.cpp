#include "sim/sweep/sweep_runner.h"

#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <map>
#include <thread>

#include "sim/io/output_file.h"
#include "sim/service/worker_process.h"
#include "sim/sweep/child_guard.h"
#include "sim/sweep/progress_bar.h"
#include "sim/sweep/stop_signals.h"
#include "sim/sweep/sweep_table.h"

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

namespace symsim::sweep {

namespace {

PointOutcome outcome_of(const fs::path& dir, const service::ExitStatus& x) {
  PointOutcome o;
  const fs::path result = dir / "result.json";
  if (fs::exists(result)) {
    try {
      std::ifstream in(result);
      o.result = json::parse(in);
    } catch (const json::exception&) {
      o.result = nullptr;
    }
  }
  const bool has_result = !o.result.is_null();
  if (x.exited && (x.code == 0 || x.code == 1) && has_result) {
    o.status = x.code == 0 ? "pass" : "fail";
    o.exit_code = x.code;
    return o;
  }
  o.status = x.exited && x.code == 2 ? "invalid" : x.exited && x.code == 3 ? "error" : "crashed";
  o.exit_code = x.exited && x.code == 2 ? 2 : 3;
  const std::string tail = service::file_tail((dir / "worker.log").string(), 400);
  o.detail = "worker " + x.describe() + (tail.empty() ? "" : ": " + tail);
  return o;
}

struct Running {
  const Point* point;
  Clock::time_point started;
  bool timed_out = false;
};

}  // namespace

RunResult run_points(const SweepSpec& spec, const std::vector<Point>& points, const RunnerOptions& o) {
  const std::string exe = service::self_executable();
  StopSignals signals;
  RunResult result;
  std::map<pid_t, Running> running;
  size_t next = 0, failed = 0;
  ProgressBar bar(points.size(), o.progress);
  bar.update(0, 0);
  auto stop_reason = [&]() {
    if (g_stop_signal == SIGINT) return StopReason::kSigint;
    if (g_stop_signal == SIGTERM) return StopReason::kSigterm;
    if (o.deadline && Clock::now() >= *o.deadline) return StopReason::kTimeLimit;
    return StopReason::kNone;
  };
  while (next < points.size() || !running.empty()) {
    if ((result.stopped = stop_reason()) != StopReason::kNone) break;
    while (next < points.size() && static_cast<int>(running.size()) < std::max(1, o.jobs)) {
      const Point& p = points[next++];
      const fs::path dir = o.out_dir / "points" / std::to_string(p.index);
      fs::remove_all(dir);  // a rerun starts clean
      io::create_output_dir(dir.string());
      std::vector<std::string> argv = {exe, "worker", p.scenario_path, "--out", dir.string()};
      for (const std::string& s : p.sets) argv.insert(argv.end(), {"--set", s});
      if (p.has_seed) argv.insert(argv.end(), {"--seed", std::to_string(p.seed)});
      for (const std::string& lib : o.kernel_libs) argv.insert(argv.end(), {"--kernel-lib", lib});
      const service::SpawnedWorker w = service::spawn_worker(argv, (dir / "worker.log").string());
      if (o.guard) o.guard->kill_group(w.pid);
      close(w.events_fd);  // no --events-fd: the worker writes no events
      running[w.pid] = {&p, Clock::now()};
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid < 0 && errno != EINTR && errno != ECHILD) break;
    auto it = pid > 0 ? running.find(pid) : running.end();
    if (it == running.end()) {
      if (pid > 0) continue;  // not a worker (the guard's watcher)
      // Nothing ended: stop points past their limit, then wait a little (a signal ends it).
      const auto now = Clock::now();
      for (auto& [wpid, r] : running)
        if (o.point_timeout_s > 0 && !r.timed_out &&
            now - r.started > std::chrono::duration<double>(o.point_timeout_s)) {
          r.timed_out = true;
          kill(-wpid, SIGKILL);
        }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    if (o.guard) o.guard->forget(pid);
    const Running r = it->second;
    running.erase(it);
    const fs::path dir = o.out_dir / "points" / std::to_string(r.point->index);
    PointOutcome out = outcome_of(dir, service::decode_wait_status(status));
    if (r.timed_out) {
      out.status = kTimeoutStatus;
      out.exit_code = kExitTimeLimit;
      out.detail = fmt::format("ran past its {} s limit (--point-timeout) and was stopped", o.point_timeout_s);
      out.result = nullptr;
    }
    failed += out.status != "pass";
    result.rows.push_back(point_row(spec, *r.point, out));
    write_text_file(dir / "row.json", result.rows.back().dump(2) + "\n");
    bar.update(result.rows.size(), failed);
  }
  for (const auto& [pid, r] : running) kill(-pid, SIGKILL);
  for (const auto& [pid, r] : running) {
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    if (o.guard) o.guard->forget(pid);
  }
  bar.finish();
  return result;
}

}  // namespace symsim::sweep

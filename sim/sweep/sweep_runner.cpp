#include "sweep/sweep_runner.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <map>

#include "service/worker_process.h"
#include "sweep/progress_bar.h"
#include "sweep/sweep_table.h"

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

namespace symsim::sweep {

namespace {

volatile sig_atomic_t g_interrupted = 0;
void on_interrupt(int) { g_interrupted = 1; }

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

}  // namespace

std::vector<ordered_json> run_points(const SweepSpec& spec, const std::vector<Point>& points,
                                     const RunnerOptions& o) {
  const std::string exe = service::self_executable();
  struct sigaction sa {
  }, old_int{}, old_term{};
  sa.sa_handler = on_interrupt;  // no SA_RESTART: waitpid returns EINTR
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);

  std::vector<ordered_json> rows;
  std::map<pid_t, const Point*> running;
  size_t next = 0, failed = 0;
  ProgressBar bar(points.size(), o.progress);
  bar.update(0, 0);
  while ((next < points.size() || !running.empty()) && !g_interrupted) {
    while (next < points.size() && static_cast<int>(running.size()) < std::max(1, o.jobs)) {
      const Point& p = points[next++];
      const fs::path dir = o.out_dir / "points" / std::to_string(p.index);
      fs::remove_all(dir);  // a rerun starts clean
      fs::create_directories(dir);
      std::vector<std::string> argv = {exe, "worker", p.scenario_path, "--out", dir.string()};
      for (const std::string& s : p.sets) argv.insert(argv.end(), {"--set", s});
      if (p.has_seed) argv.insert(argv.end(), {"--seed", std::to_string(p.seed)});
      for (const std::string& lib : o.kernel_libs) argv.insert(argv.end(), {"--kernel-lib", lib});
      const service::SpawnedWorker w = service::spawn_worker(argv, (dir / "worker.log").string());
      close(w.events_fd);  // no --events-fd: the worker writes no events
      running[w.pid] = &p;
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break;
    }
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const Point& p = *it->second;
    running.erase(it);
    const PointOutcome out =
        outcome_of(o.out_dir / "points" / std::to_string(p.index), service::decode_wait_status(status));
    failed += out.status != "pass";
    rows.push_back(point_row(spec, p, out));
    bar.update(rows.size(), failed);
  }
  if (g_interrupted) {
    for (const auto& [pid, p] : running) kill(-pid, SIGKILL);
    for (const auto& [pid, p] : running) waitpid(pid, nullptr, 0);
  }
  bar.finish();
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  if (g_interrupted) throw std::runtime_error("interrupted: the sweep's workers were stopped");
  return rows;
}

}  // namespace symsim::sweep

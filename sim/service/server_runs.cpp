// Runs: the queue, worker processes and their events, outcomes; and shutdown.
#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/buffer.hpp>
#include <cerrno>
#include <filesystem>
#include <iostream>
#include <utility>

#include "sim/service/protocol.h"
#include "sim/service/server.h"

namespace fs = std::filesystem;
namespace asio = boost::asio;
using nlohmann::json;

namespace symsim::service {

namespace {

constexpr size_t kUnixPathMax = 107;  // sun_path less the terminating NUL
constexpr auto kSpawnPause = std::chrono::milliseconds(500);
// How often running workers' resident memory is checked against --run-memory: a worker that
// allocates 1 GB/s overshoots by at most about 200 MB before it is stopped.
constexpr auto kMemoryCheckInterval = std::chrono::milliseconds(200);

// The worker's log tail, for the detail of a failed run.
std::string log_detail(const Run& run, const std::string& what) {
  const std::string tail = file_tail((run.dir / "worker.log").string(), 600);
  return tail.empty() ? what : what + ": " + tail;
}

}  // namespace

void Server::pump() {
  if (m_pumping) return;  // a resumed session's submit calls back in here
  m_pumping = true;
  bool progress = true;
  while (progress) {
    progress = false;
    const bool may_start = m_shutdown_mode.empty() || m_shutdown_mode == "drain";
    while (may_start && !m_spawn_paused && m_running < m_options.workers && !m_queue.empty()) {
      const std::string id = m_queue.front();
      m_queue.pop_front();
      start_run(*m_runs.at(id));
      progress = true;
    }
    while (!m_held.empty() &&
           (m_queue.size() + m_validating < m_options.queue_limit || !m_shutdown_mode.empty())) {
      const uint64_t sid = m_held.front();
      m_held.pop_front();
      auto it = m_sessions.find(sid);
      if (it == m_sessions.end()) continue;
      const std::shared_ptr<Session> s = it->second;  // resume may close it
      s->resume();
      progress = true;
    }
  }
  m_pumping = false;
}

void Server::start_run(Run& run) {
  std::vector<std::string> argv = {m_options.worker_executable,
                                   "worker",
                                   (run.dir / "scenario.json").string(),
                                   "--out",
                                   run.dir.string(),
                                   "--events-fd",
                                   std::to_string(kWorkerEventsFd),
                                   "--progress-interval",
                                   fmt::format("{}", m_options.progress_interval_s)};
  argv.insert(argv.end(), run.worker_args.begin(), run.worker_args.end());
  for (const std::string& lib : m_options.kernel_libs) argv.insert(argv.end(), {"--kernel-lib", lib});
  if (run.cosim) {
    std::string sock = fs::absolute(run.dir / "cosim.sock").string();
    if (sock.size() > kUnixPathMax) sock = fmt::format("/tmp/symsim-cosim-{}-{}.sock", getpid(), run.id);
    argv.insert(argv.end(), {"--cosim", sock});
  }
  SpawnedWorker w;
  try {
    w = spawn_worker(argv, (run.dir / "worker.log").string(), {true});
  } catch (const std::system_error& e) {
    const int code = e.code().value();
    if (code == EAGAIN || code == EMFILE || code == ENFILE || code == ENOMEM) {
      // Out of processes or descriptors for now: the run keeps its place and starts later.
      m_queue.push_front(run.id);
      pause_spawning();
      return;
    }
    finish(run, "error", std::string("could not start a worker: ") + e.what());
    return;
  } catch (const std::exception& e) {
    finish(run, "error", std::string("could not start a worker: ") + e.what());
    return;
  }
  run.pid = w.pid;
  run.events = std::make_unique<asio::posix::stream_descriptor>(m_io, w.events_fd);
  run.state = RunState::kRunning;
  ++m_running;
  notify(run,
         {{"event", "state"}, {"run", run.id}, {"state", "running"}, {"pid", static_cast<int64_t>(run.pid)}});
  if (run.timeout_s > 0) {
    run.timer =
        std::make_unique<asio::steady_timer>(m_io, std::chrono::duration_cast<asio::steady_timer::duration>(
                                                       std::chrono::duration<double>(run.timeout_s)));
    run.timer->async_wait([this, &run](boost::system::error_code ec) {
      if (ec || run.state != RunState::kRunning) return;
      run.timed_out = true;
      kill_run(run);
    });
  }
  read_events(run);
}

void Server::pause_spawning() {
  if (std::exchange(m_spawn_paused, true)) return;
  std::cerr << "symsim serve: cannot start a worker now (out of processes or descriptors); retrying\n";
  auto timer = std::make_shared<asio::steady_timer>(m_io, kSpawnPause);
  timer->async_wait([this, timer](boost::system::error_code) {
    m_spawn_paused = false;
    pump();
  });
}

void Server::watch_memory() {
  m_memory_timer = std::make_unique<asio::steady_timer>(m_io, kMemoryCheckInterval);
  m_memory_timer->async_wait([this](boost::system::error_code ec) {
    if (ec || m_stopped) return;
    for (auto& [id, run] : m_runs)
      if (run->state == RunState::kRunning && !run->reaped && !run->out_of_memory &&
          resident_bytes(run->pid) > m_options.run_memory_bytes) {
        run->out_of_memory = true;
        kill_run(*run);
      }
    watch_memory();
  });
}

void Server::read_events(Run& run) {
  run.events->async_read_some(asio::buffer(run.buffer), [this, &run](boost::system::error_code ec, size_t n) {
    if (ec == asio::error::operation_aborted || !run.events) return;
    if (!ec) {
      std::vector<LineFramer::Item> items;
      run.framer.feed(run.buffer, n, items);
      for (const auto& it : items)
        if (!it.too_long) on_event(run, it.text);
      read_events(run);
      return;
    }
    run.pipe_closed = true;  // EOF: the worker exited (or closed its events)
    reap_children();
    maybe_finish(run);
  });
}

void Server::on_event(Run& run, const std::string& line) {
  json e;
  try {
    e = json::parse(line);
  } catch (const json::exception&) {
    return;  // not ours: a worker writes events only through the sink
  }
  if (!e.is_object() || !e.contains("event") || !e["event"].is_string()) return;
  const std::string kind = e["event"].get<std::string>();
  e["run"] = run.id;
  if (kind == "progress") {
    if (e.contains("sim_time_ns")) run.sim_time_ns = e["sim_time_ns"].get<double>();
    notify(run, e, true);
  } else if (kind == "hazard") {
    run.hazards.push_back(e["hazard"]);
    notify(run, e);
  } else if (kind == "finished") {
    run.sim_time_ns = e.value("sim_time_ns", run.sim_time_ns);
    run.hazard_total = e.value("hazards", uint64_t{0});
  } else if (kind == "out_of_memory") {
    run.out_of_memory = true;
  } else if (kind == "cosim_ready") {
    run.cosim_ready = e;
    notify(run, e);
  }
}

void Server::wait_signals() {
  m_signals.async_wait([this](boost::system::error_code ec, int sig) {
    if (ec) return;
    if (sig == SIGCHLD) {
      reap_children();
    } else {
      // First signal: finish running runs; a second one cancels them.
      begin_shutdown(m_shutdown_mode.empty() ? "finish" : "cancel");
    }
    if (!m_stopped) wait_signals();
  });
}

void Server::reap_children() {
  for (auto& [id, run] : m_runs) {
    if (run->state != RunState::kRunning || run->reaped) continue;
    int status = 0;
    if (waitpid(run->pid, &status, WNOHANG) == run->pid) {
      run->reaped = true;
      run->exit = decode_wait_status(status);
      maybe_finish(*run);
    }
  }
}

void Server::maybe_finish(Run& run) {
  if (run.state != RunState::kRunning || !run.pipe_closed || !run.reaped) return;
  const ExitStatus& x = run.exit;
  const bool has_result = fs::exists(run.dir / "result.json");
  if (run.cancel_requested) {
    finish(run, "cancelled",
           run.shutdown_cancel ? "cancelled at shutdown" : "cancelled by a client while running");
  } else if (run.timed_out) {
    finish(run, "timeout", fmt::format("ran past its {} s limit and was stopped", run.timeout_s));
  } else if (run.out_of_memory && m_options.run_memory_bytes > 0) {
    finish(run, "out_of_memory",
           fmt::format("used more than its {} MiB memory limit (--run-memory) and was stopped",
                       m_options.run_memory_bytes >> 20));
  } else if (x.exited && (x.code == 0 || x.code == 1) && has_result) {
    finish(run, x.code == 0 ? "pass" : "fail", "");
  } else if (x.exited && x.code == 2) {
    finish(run, "invalid", log_detail(run, "the worker rejected the scenario"));
  } else if (x.exited && x.code == 3) {
    finish(run, "error", log_detail(run, "internal error in the worker"));
  } else {
    finish(run, "crashed",
           log_detail(run, "worker " + x.describe() + (has_result ? "" : " without writing a result")));
  }
}

void Server::finish(Run& run, std::string outcome, std::string detail) {
  if (run.state == RunState::kRunning) {
    --m_running;
    if (run.timer) run.timer->cancel();
    run.events.reset();
  }
  run.state = RunState::kDone;
  run.outcome = std::move(outcome);
  run.exit_code = outcome_exit_code(run.outcome);
  run.detail = std::move(detail);
  try {
    save_run_record(run);  // a restarted server answers for it from this record
  } catch (const std::exception& e) {
    std::cerr << "symsim serve: " << e.what() << "\n";
  }
  notify(run, run.done_event());
  if (!m_shutdown_mode.empty())
    (run.shutdown_cancel ? m_shutdown_cancelled : m_shutdown_finished).push_back(run.id);
  pump();
  maybe_complete_shutdown();
}

void Server::kill_run(Run& run) {
  if (run.state != RunState::kRunning || run.pid <= 0 || run.reaped) return;
  if (kill(-run.pid, SIGKILL) != 0) kill(run.pid, SIGKILL);
}

// ---------------------------------------------------------------------------------------------
// Shutdown.

void Server::begin_shutdown(const std::string& mode) {
  auto rank = [](const std::string& m) {
    return m == "drain" ? 1 : m == "finish" ? 2 : m == "cancel" ? 3 : 0;
  };
  if (m_stopped || rank(mode) <= rank(m_shutdown_mode)) return;
  const bool first = m_shutdown_mode.empty();
  m_shutdown_mode = mode;
  std::cerr << fmt::format("symsim serve: shutting down ({}): {} queued, {} running\n", mode, m_queue.size(),
                           m_running);
  if (first) {
    boost::system::error_code ec;
    for (auto& a : m_unix) a->close(ec);
    for (auto& a : m_tcp) a->close(ec);
    std::error_code fs_ec;
    for (const Endpoint& e : m_bound)
      if (e.is_unix) fs::remove(e.path, fs_ec);
  }
  m_defer_completion = true;  // until every queued run below is accounted for
  if (mode != "drain") {
    const std::deque<std::string> queued = std::exchange(m_queue, {});
    for (const std::string& id : queued) {
      Run& r = *m_runs.at(id);
      r.shutdown_cancel = true;
      finish(r, "cancelled", "cancelled at shutdown before it started");
    }
  }
  if (mode == "cancel") {
    for (auto& [id, run] : m_runs)
      if (run->state == RunState::kRunning) {
        run->shutdown_cancel = true;
        run->cancel_requested = true;
        kill_run(*run);
      }
  }
  pump();  // held submits get their "shutting_down" reply
  m_defer_completion = false;
  maybe_complete_shutdown();
}

void Server::maybe_complete_shutdown() {
  if (m_shutdown_mode.empty() || m_stopped || m_defer_completion || m_running > 0 || !m_queue.empty()) return;
  m_stopped = true;
  const json event = {{"event", "shutdown"},
                      {"mode", m_shutdown_mode},
                      {"finished", m_shutdown_finished},
                      {"cancelled", m_shutdown_cancelled}};
  write_private_file((fs::path(m_options.state_dir) / "shutdown.json").string(), event.dump(2) + "\n");
  std::cerr << fmt::format("symsim serve: stopped ({}); finished during shutdown: [{}]; cancelled: [{}]\n",
                           m_shutdown_mode, fmt::join(m_shutdown_finished, " "),
                           fmt::join(m_shutdown_cancelled, " "));
  std::vector<std::shared_ptr<Session>> sessions;
  for (auto& [id, s] : m_sessions) sessions.push_back(s);
  for (auto& s : sessions) {
    s->send(event);
    s->close_after_flush();
  }
  m_signals.cancel();
  if (m_memory_timer) m_memory_timer->cancel();
  if (m_sessions.empty()) {
    m_io.stop();
    return;
  }
  // Clients that do not read their last messages do not hold the server up.
  m_exit_timer = std::make_unique<asio::steady_timer>(m_io, std::chrono::seconds(2));
  m_exit_timer->async_wait([this](boost::system::error_code) { m_io.stop(); });
}

}  // namespace symsim::service

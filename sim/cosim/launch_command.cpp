#include "sim/cosim/launch_command.h"

#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <thread>

#include "sim/cosim/host_programs.h"
#include "sim/cosim/private_server.h"
#include "sim/cosim/wire.h"
#include "sim/io/output_file.h"
#include "sim/io/path_component.h"
#include "sim/runner/runner.h"
#include "sim/scenario/input_error.h"
#include "sim/service/client.h"
#include "sim/service/protocol.h"
#include "sim/service/worker_process.h"
#include "sim/sweep/stop_signals.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace symsim::cosim {

namespace {

// How long the others may go on after a host program failed before the run is cancelled, and
// how long host programs may go on after the run ended before they are stopped.
constexpr auto kFailureGrace = std::chrono::seconds(5);
constexpr auto kPoll = std::chrono::milliseconds(10);
constexpr double kMaxTimeoutS = 365.0 * 24 * 3600;  // beyond a year a limit is a typo
constexpr int kExitTimeLimit = 124;                 // --timeout reached (as timeout(1))

int launch(const LaunchOptions& o) {
  if (o.command.empty())
    throw InputError("symsim launch", "",
                     "give the host program to run (symsim launch -n N PROGRAM ARGS...)");
  if (o.pes < 1) throw InputError("-n", "", "at least one PE");
  if (!std::isfinite(o.timeout_s) || o.timeout_s <= 0 || o.timeout_s > kMaxTimeoutS)
    throw InputError("--timeout", "", fmt::format("expected seconds in (0, {}], got {}", kMaxTimeoutS, o.timeout_s));
  const std::string program = fs::path(o.command[0]).filename().string();
  const fs::path out_dir =
      o.out_dir.empty() ? fs::path("symsim-out") / io::safe_path_component("cosim_" + program) : fs::path(o.out_dir);
  // Where the results go is checked before anything runs (a bad path: exit 2, nothing lost).
  io::create_output_dir(out_dir.string());
  if (!o.trace_path.empty()) io::check_writable(o.trace_path);
  sweep::ChildGuard guard;  // before any thread or child: a kill -9 of launch still cleans up
  sweep::StopSignals signals;
  std::unique_ptr<PrivateServer> own;
  std::unique_ptr<service::Client> client;
  if (o.server.empty()) {
    own = std::make_unique<PrivateServer>(guard);
    client = own->connect();
  } else {
    const char* env_token = std::getenv("SYMSIM_TOKEN");
    client = std::make_unique<service::Client>(service::parse_endpoint(o.server, "--server"),
                                               !o.token.empty() ? o.token
                                               : env_token      ? env_token
                                                                : "");
  }

  const json scenario = {
      {"symsim", 1},
      {"name", "cosim_" + program},
      {"description", fmt::format("co-simulated host program: {}", fmt::join(o.command, " "))},
      {"platform", o.platform},
      {"pes", o.pes},
      {"kernel", {{"name", "cosim_host"}, {"blocks", 1}}},
      {"expect", {{"hazards", json::array()}}}};
  const json submitted = client->request({{"op", "submit"},
                                          {"scenario", scenario},
                                          {"name", "symsim launch " + program},
                                          {"cosim", true},
                                          {"set", o.sets},
                                          {"trace", !o.trace_path.empty()},
                                          {"timeout_s", o.timeout_s}});
  if (!submitted.value("ok", false)) {
    const std::string msg = submitted["error"].value("message", std::string());
    if (submitted["error"].value("code", std::string()) == service::err::kInvalidScenario)
      throw std::invalid_argument(msg);
    throw std::runtime_error("server: " + msg);
  }
  const std::string run = submitted["run"].get<std::string>();

  // The simulator listens once its worker has built the platform.
  json done;
  std::string socket;
  auto on_event = [&](const json& e) {
    if (e.value("run", std::string()) != run) return;
    if (e.value("event", std::string()) == "cosim_ready") socket = e["socket"].get<std::string>();
    if (e.value("event", std::string()) == "done") done = e;
  };
  client->on_event(on_event);  // events that arrive while a request waits for its reply
  bool cancelled = false;
  auto cancel = [&] {
    if (cancelled || !done.is_null()) return;
    cancelled = true;
    client->request({{"op", "cancel"}, {"run", run}});
  };
  auto next_event = [&] {
    if (auto e = client->next_for(kPoll)) on_event(*e);
  };
  while (socket.empty() && done.is_null() && !sweep::g_stop_signal) next_event();

  HostPrograms hosts(guard);
  bool never_connected = false;
  if (!socket.empty() && !sweep::g_stop_signal) {
    if (!o.quiet)
      std::cerr << fmt::format("symsim launch: run {}: {} host processes of {}\n", run, o.pes,
                               fmt::join(o.command, " "));
    hosts.start(o.command, socket, o.pes);
    std::optional<std::chrono::steady_clock::time_point> run_ended_at;
    while (!sweep::g_stop_signal) {
      const auto now = std::chrono::steady_clock::now();
      if (hosts.poll()) {
        // The simulator removes its socket once every host program has connected: still
        // there with every host gone, it waits for connections that can never come.
        if (done.is_null() && fs::exists(socket)) {
          never_connected = true;
          cancel();
        }
        break;
      }
      if (!done.is_null()) {
        // The run is over (finished, timed out, cancelled): host programs still running get a
        // moment to exit by themselves after a normal end, none after any other.
        const std::string outcome = done.value("outcome", std::string());
        if (!run_ended_at) run_ended_at = now;
        if ((outcome != "pass" && outcome != "fail") || now - *run_ended_at > kFailureGrace) {
          hosts.stop();
          break;
        }
      }
      // A host program that failed may leave the others waiting for it forever (at a
      // barrier, or before it ever connected): after a grace period the run is cancelled,
      // which closes their connections and ends them.
      if (hosts.first_failure() && now - *hosts.first_failure() > kFailureGrace) cancel();
      next_event();
    }
    // A host program that failed may leave the simulation waiting for it (for a connection
    // that never comes): give the run a moment to end by itself, then cancel it.
    if (hosts.first_failure() && done.is_null() && !sweep::g_stop_signal) {
      const auto deadline = std::chrono::steady_clock::now() + kFailureGrace;
      while (done.is_null() && std::chrono::steady_clock::now() < deadline && !sweep::g_stop_signal) next_event();
      cancel();
    }
  }
  if (sweep::g_stop_signal) {
    cancel();
    hosts.stop();
  }
  while (done.is_null()) next_event();
  hosts.stop();

  int code = done.value("exit_code", 3);
  const std::string outcome = done.value("outcome", std::string());
  const json r = client->request({{"op", "result"}, {"run", run}});
  if (r.value("ok", false)) {
    io::write_file((out_dir / "result.json").string(), r["result"].dump(2) + "\n");
    std::cout << summarize(r["result"]) << "  result: " << (out_dir / "result.json").string() << "\n";
    if (!o.trace_path.empty())
      io::write_file(o.trace_path, [&](std::ostream& t) {
        for (uint64_t offset = 0;;) {
          const json c =
              client->request({{"op", "trace"}, {"run", run}, {"offset", offset}, {"max_bytes", 1u << 20}});
          if (!c.value("ok", false))
            throw std::runtime_error("the server did not send the trace: " + c.value("error", json()).dump());
          t << c["data"].get<std::string>();
          offset += c["data"].get<std::string>().size();
          if (c["eof"].get<bool>()) break;
        }
      });
  } else if (sweep::g_stop_signal) {
    std::cerr << fmt::format("symsim launch: stopped by {}: run {} cancelled, host programs stopped\n",
                             sweep::g_stop_signal == SIGINT ? "SIGINT" : "SIGTERM", run);
  } else if (never_connected) {
    std::cerr << fmt::format(
        "symsim launch: every host program exited, but not all of them connected to the simulator "
        "(through ${}); run {} cancelled. Is {} linked with the symsim co-simulation host library?\n",
        kEnvSocket, run, o.command[0]);
  } else if (outcome == "timeout") {
    std::cerr << fmt::format(
        "symsim launch: the co-simulation ran past --timeout {} s: run {} stopped, host programs stopped\n",
        o.timeout_s, run);
  } else {
    std::cerr << fmt::format("symsim launch: run {} ended {}: {}\n", run, outcome,
                             done.value("detail", std::string()));
  }
  for (size_t pe = 0; pe < hosts.size(); ++pe) {
    const service::ExitStatus& s = hosts.status(pe);
    std::cout << fmt::format("  host program pe {}: {}\n", pe, s.describe());
    if (!(s.exited && s.code == 0)) code = std::max(code, 1);
  }
  if (own) client->request({{"op", "shutdown"}, {"mode", "finish"}});
  if (sweep::g_stop_signal) return 128 + sweep::g_stop_signal;
  if (never_connected) return 1;
  if (outcome == "timeout") return kExitTimeLimit;
  return code;
}

}  // namespace

int launch_main(const LaunchOptions& o) {
  try {
    return launch(o);
  } catch (const io::OutputError& e) {
    std::cerr << "symsim launch: " << e.what() << "\n";
    return e.exit_code();
  }
}

}  // namespace symsim::cosim

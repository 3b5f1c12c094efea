#include "cosim/launch_command.h"

#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <thread>

#include "cosim/wire.h"
#include "runner/runner.h"
#include "scenario/input_error.h"
#include "service/client.h"
#include "service/protocol.h"
#include "service/worker_process.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace symsim::cosim {

namespace {

// How long the others may go on after a host program failed before the run is cancelled.
constexpr auto kFailureGrace = std::chrono::seconds(5);

// A `symsim serve` of our own, in a temporary folder, stopped when done.
class PrivateServer {
 public:
  PrivateServer() {
    char tmpl[] = "/tmp/symsim-launch-XXXXXX";
    if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
    m_dir = tmpl;
    m_socket = (m_dir / "serve.sock").string();
    const service::SpawnedWorker w =
        service::spawn_worker({service::self_executable(), "serve", "--socket", m_socket, "--dir",
                               (m_dir / "state").string(), "--workers", "1"},
                              (m_dir / "serve.log").string());
    close(w.events_fd);
    m_pid = w.pid;
  }
  ~PrivateServer() {
    if (m_pid > 0) {
      kill(m_pid, SIGTERM);
      waitpid(m_pid, nullptr, 0);
    }
    std::error_code ec;
    fs::remove_all(m_dir, ec);
  }
  std::string endpoint() const { return "unix:" + m_socket; }
  // Connects, retrying while the server starts.
  std::unique_ptr<service::Client> connect() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    for (;;) {
      try {
        return std::make_unique<service::Client>(service::parse_endpoint(endpoint(), "--server"), "");
      } catch (const std::exception& e) {
        int status = 0;
        if (waitpid(m_pid, &status, WNOHANG) == m_pid) {
          m_pid = -1;
          throw std::runtime_error("the private symsim serve exited: " +
                                   service::file_tail((m_dir / "serve.log").string(), 400));
        }
        if (std::chrono::steady_clock::now() > deadline) throw;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
  }

 private:
  fs::path m_dir;
  std::string m_socket;
  pid_t m_pid = -1;
};

// Starts one host process for `pe` with the launcher's environment.
pid_t start_host(const std::vector<std::string>& command, const std::string& socket, int pe, int n) {
  std::vector<std::string> env_kv = {std::string(kEnvSocket) + "=" + socket,
                                     std::string(kEnvPe) + "=" + std::to_string(pe),
                                     std::string(kEnvPes) + "=" + std::to_string(n),
                                     "RANK=" + std::to_string(pe),
                                     "WORLD_SIZE=" + std::to_string(n),
                                     "OMPI_COMM_WORLD_RANK=" + std::to_string(pe),
                                     "OMPI_COMM_WORLD_SIZE=" + std::to_string(n),
                                     "PMI_RANK=" + std::to_string(pe),
                                     "PMI_SIZE=" + std::to_string(n)};
  std::vector<char*> argv;
  for (const std::string& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    for (std::string& kv : env_kv) putenv(kv.data());
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "symsim launch: cannot run %s: %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  return pid;
}

// Waits for every host process. When one fails, the others may wait for it forever (at a
// barrier, or before it ever connected): after a grace period the run is cancelled, which
// closes their connections and ends them.
// Returns whether any host program failed.
bool wait_hosts(std::vector<std::pair<pid_t, service::ExitStatus>>& hosts,
                const std::function<void()>& cancel_run) {
  std::vector<bool> done(hosts.size(), false);
  size_t left = hosts.size();
  std::optional<std::chrono::steady_clock::time_point> failed_at;
  bool cancelled = false;
  while (left > 0) {
    for (size_t i = 0; i < hosts.size(); ++i) {
      int st = 0;
      if (done[i] || waitpid(hosts[i].first, &st, WNOHANG) != hosts[i].first) continue;
      done[i] = true;
      --left;
      hosts[i].second = service::decode_wait_status(st);
      if (!(hosts[i].second.exited && hosts[i].second.code == 0) && !failed_at)
        failed_at = std::chrono::steady_clock::now();
    }
    if (left > 0 && failed_at && !cancelled &&
        std::chrono::steady_clock::now() - *failed_at > kFailureGrace) {
      cancel_run();
      cancelled = true;
    }
    if (left > 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return failed_at.has_value();
}

}  // namespace

int launch_main(const LaunchOptions& o) {
  if (o.command.empty())
    throw InputError("symsim launch", "",
                     "give the host program to run (symsim launch -n N PROGRAM ARGS...)");
  if (o.pes < 1) throw InputError("-n", "", "at least one PE");
  std::unique_ptr<PrivateServer> own;
  std::unique_ptr<service::Client> client;
  if (o.server.empty()) {
    own = std::make_unique<PrivateServer>();
    client = own->connect();
  } else {
    const char* env_token = std::getenv("SYMSIM_TOKEN");
    client = std::make_unique<service::Client>(service::parse_endpoint(o.server, "--server"),
                                               !o.token.empty() ? o.token
                                               : env_token      ? env_token
                                                                : "");
  }

  const std::string program = fs::path(o.command[0]).filename().string();
  const json scenario = {
      {"symsim", 1},
      {"name", "cosim_" + program},
      {"description", fmt::format("co-simulated host program: {}", fmt::join(o.command, " "))},
      {"platform", o.platform},
      {"pes", o.pes},
      {"kernel", {{"name", "cosim_host"}, {"blocks", 1}}},
      {"expect", {{"hazards", json::array()}}}};
  json events = json::array();
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
  while (socket.empty() && done.is_null()) on_event(client->next());
  std::vector<std::pair<pid_t, service::ExitStatus>> hosts;
  if (!socket.empty()) {
    if (!o.quiet)
      std::cerr << fmt::format("symsim launch: run {}: {} host processes of {}\n", run, o.pes,
                               fmt::join(o.command, " "));
    for (int pe = 0; pe < o.pes; ++pe) hosts.push_back({start_host(o.command, socket, pe, o.pes), {}});
    const bool failed = wait_hosts(hosts, [&] { client->request({{"op", "cancel"}, {"run", run}}); });
    // A host program that failed may leave the simulation waiting for it (for a connection
    // that never comes): give the run a moment to end by itself, then cancel it.
    if (failed && done.is_null()) {
      const auto deadline = std::chrono::steady_clock::now() + kFailureGrace;
      while (done.is_null() && std::chrono::steady_clock::now() < deadline)
        if (auto e = client->next_for(std::chrono::milliseconds(100))) on_event(*e);
      if (done.is_null()) client->request({{"op", "cancel"}, {"run", run}});
    }
  }
  while (done.is_null()) on_event(client->next());

  int code = done.value("exit_code", 3);
  const json r = client->request({{"op", "result"}, {"run", run}});
  if (r.value("ok", false)) {
    const fs::path dir =
        o.out_dir.empty() ? fs::path("symsim-out") / ("cosim_" + program) : fs::path(o.out_dir);
    fs::create_directories(dir);
    std::ofstream(dir / "result.json") << r["result"].dump(2) << "\n";
    std::cout << summarize(r["result"]) << "  result: " << (dir / "result.json").string() << "\n";
    if (!o.trace_path.empty()) {
      std::ofstream t(o.trace_path, std::ios::binary);
      for (uint64_t offset = 0;;) {
        const json c =
            client->request({{"op", "trace"}, {"run", run}, {"offset", offset}, {"max_bytes", 1u << 20}});
        if (!c.value("ok", false)) break;
        t << c["data"].get<std::string>();
        offset += c["data"].get<std::string>().size();
        if (c["eof"].get<bool>()) break;
      }
    }
  } else {
    std::cerr << fmt::format("symsim launch: run {} ended {}: {}\n", run,
                             done.value("outcome", std::string()), done.value("detail", std::string()));
  }
  for (size_t pe = 0; pe < hosts.size(); ++pe) {
    const service::ExitStatus& s = hosts[pe].second;
    const bool ok = s.exited && s.code == 0;
    std::cout << fmt::format("  host program pe {}: {}\n", pe, s.describe());
    if (!ok) code = std::max(code, 1);
  }
  if (own) client->request({{"op", "shutdown"}, {"mode", "finish"}});
  return code;
}

}  // namespace symsim::cosim

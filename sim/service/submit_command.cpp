#include "sim/service/submit_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "sim/runner/runner.h"
#include "sim/scenario/input_error.h"
#include "sim/io/output_file.h"
#include "sim/io/strict_json.h"
#include "sim/service/client.h"
#include "sim/io/path_component.h"
#include "sim/service/protocol.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace symsim::service {

namespace {

constexpr int kExitInternal = 3;
constexpr int kExitInput = 2;
constexpr int kExitTimeLimit = 124;  // as timeout(1), sweeps and launch

// --timeout passed before the run ended.
struct WaitTimeout : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using Clock = std::chrono::steady_clock;

// The next message, within the deadline when there is one.
json next_before(Client& c, const std::optional<Clock::time_point>& deadline, const std::string& run) {
  if (!deadline) return c.next();
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now());
  std::optional<json> m = c.next_for(std::max(left, std::chrono::milliseconds(0)));
  if (!m) throw WaitTimeout("run " + run + " did not finish within --timeout; it goes on (symsim submit --wait " + run + ")");
  return *m;
}

[[noreturn]] void fail_reply(const json& reply) {
  throw std::runtime_error(fmt::format("server: {} ({})", reply["error"].value("message", std::string("?")),
                                       reply["error"].value("code", std::string("?"))));
}

// Shows events on stderr: progress on one rewritten line on a terminal, hazards always.
class EventPrinter {
 public:
  explicit EventPrinter(bool quiet) : m_quiet(quiet), m_tty(isatty(2)) {}
  void operator()(const json& e) {
    if (m_quiet) return;
    const std::string kind = e.value("event", std::string());
    if (kind == "progress" && m_tty) {
      std::cerr << fmt::format("\r  {} running: {:.3f} us simulated, {} WQEs, {:.1f} s",
                               e.value("run", std::string()), e.value("sim_time_ns", 0.0) / 1000.0,
                               e.value("wqes", uint64_t{0}), e.value("wall_s", 0.0))
                << std::flush;
      m_line = true;
    } else if (kind == "hazard") {
      clear();
      const json& h = e["hazard"];
      std::cerr << fmt::format("  hazard {} pe {} at {:.3f} us: {}\n", h.value("id", std::string()),
                               h.value("pe", -1), h.value("time_ns", 0.0) / 1000.0,
                               h.value("detail", std::string()));
    } else if (kind == "state") {
      clear();
      std::cerr << fmt::format("  {} {}\n", e.value("run", std::string()), e.value("state", std::string()));
    }
  }
  void clear() {
    if (m_line) std::cerr << "\r\033[K";
    m_line = false;
  }

 private:
  bool m_quiet, m_tty, m_line = false;
};

// Waits for `run`'s done event, then fetches its result (and trace) into `out_dir`. The default
// folder is named after the scenario (as the server reports it), made one safe path component.
int collect(Client& c, const std::string& run, const std::string& name, const SubmitOptions& o,
            EventPrinter& printer, const std::optional<Clock::time_point>& deadline) {
  json done;
  c.on_event([&](const json& e) {
    if (e.value("run", std::string()) != run) return;
    printer(e);
    if (e.value("event", std::string()) == "done") done = e;
  });
  const json w = c.request({{"op", "watch"}, {"run", run}});
  if (!w.value("ok", false)) fail_reply(w);
  while (done.is_null()) {
    const json e = next_before(c, deadline, run);
    if (e.contains("event")) {
      if (e.value("run", std::string()) == run) {
        printer(e);
        if (e["event"] == "done") done = e;
      } else if (e["event"] == "shutdown" && done.is_null()) {
        throw std::runtime_error("the server shut down before run " + run + " finished");
      }
    }
  }
  printer.clear();
  const std::string outcome = done.value("outcome", std::string());
  const json r = c.request({{"op", "result"}, {"run", run}});
  if (!r.value("ok", false)) {
    std::cerr << fmt::format("symsim submit: run {} ended {}: {}\n", run, outcome,
                             done.value("detail", std::string()));
    return outcome_exit_code(outcome);
  }
  const fs::path dir = o.out_dir.empty() ? fs::path("symsim-out") / io::safe_path_component(name) : fs::path(o.out_dir);
  io::create_output_dir(dir.string());
  io::write_file((dir / "result.json").string(), r["result"].dump(2) + "\n");
  std::string summary;
  try {
    summary = summarize(r["result"]);
  } catch (const json::exception&) {
    summary = "(the server's result has an unexpected shape)\n";
  }
  std::cout << summary << "  result: " << (dir / "result.json").string() << "  (run " << run << ")\n";
  if (!o.trace_path.empty()) {
    io::write_file(o.trace_path, [&](std::ostream& t) {
      for (uint64_t offset = 0;;) {
        const json chunk =
            c.request({{"op", "trace"}, {"run", run}, {"offset", offset}, {"max_bytes", 1u << 20}});
        if (!chunk.value("ok", false)) fail_reply(chunk);
        const std::string data = chunk["data"].get<std::string>();
        t << data;
        offset += data.size();
        if (chunk["eof"].get<bool>() || data.empty()) break;
      }
    });
    std::cout << "  trace: " << o.trace_path << "\n";
  }
  return done.value("exit_code", kExitInternal);
}

std::string token_of(const SubmitOptions& o) {
  if (!o.token.empty()) return o.token;
  if (!o.token_file.empty()) {
    std::string t = io::read_regular_file(o.token_file, 4096);
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r' || t.back() == ' ')) t.pop_back();
    return t;
  }
  const char* env = std::getenv("SYMSIM_TOKEN");
  return env ? env : "";
}

int submit(const SubmitOptions& o);

}  // namespace

int submit_main(const SubmitOptions& o) {
  try {
    return submit(o);
  } catch (const ConnectError& e) {
    std::cerr << "symsim submit: --server: " << e.what() << "\n";
    return kExitInput;
  } catch (const WaitTimeout& e) {
    std::cerr << "symsim submit: " << e.what() << "\n";
    return kExitTimeLimit;
  } catch (const io::OutputError& e) {
    std::cerr << "symsim submit: " << e.what() << "\n";
    return e.exit_code();
  }
}

namespace {

int submit(const SubmitOptions& o) {
  const Endpoint ep = parse_endpoint(o.server.empty() ? default_server() : o.server, "--server");
  const std::string token = token_of(o);
  // Where results go must take them before anything runs.
  if (!o.trace_path.empty()) io::check_writable(o.trace_path);
  if (!o.out_dir.empty()) {
    io::create_output_dir(o.out_dir);
    io::check_writable((fs::path(o.out_dir) / "result.json").string());
  }
  std::optional<Clock::time_point> deadline;
  if (o.timeout_s > 0)
    deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.timeout_s));
  const auto connect_timeout = std::chrono::milliseconds(static_cast<int64_t>(o.connect_timeout_s * 1000));
  Client c(ep, token, std::max(connect_timeout, std::chrono::milliseconds(1)));
  EventPrinter printer(o.quiet);

  if (o.list) {
    const json r = c.request({{"op", "list"}});
    if (!r.value("ok", false)) fail_reply(r);
    for (const json& run : r["runs"])
      std::cout << fmt::format("{:<6} {:<8} {:<9} {}\n", run["run"].get<std::string>(),
                               run["state"].get<std::string>(), run.value("outcome", std::string("-")),
                               run["name"].get<std::string>());
    return 0;
  }
  if (!o.cancel_run.empty()) {
    const json r = c.request({{"op", "cancel"}, {"run", o.cancel_run}});
    if (!r.value("ok", false)) fail_reply(r);
    std::cout << o.cancel_run << " cancelled\n";
    return 0;
  }
  if (!o.shutdown_mode.empty()) {
    const json r = c.request({{"op", "shutdown"}, {"mode", o.shutdown_mode}});
    if (!r.value("ok", false)) fail_reply(r);
    for (;;) {  // the server says which runs it finished and which it cancelled, then closes
      const json e = next_before(c, deadline, "shutdown");
      if (e.value("event", std::string()) == "shutdown") {
        std::cout << "finished: " << e["finished"].dump() << "\ncancelled: " << e["cancelled"].dump() << "\n";
        return 0;
      }
    }
  }
  if (!o.wait_run.empty()) return collect(c, o.wait_run, o.wait_run, o, printer, deadline);

  const json scenario = io::read_strict_json_file(o.scenario, io::kDefaultMaxJsonBytes);
  json req = {{"op", "submit"}, {"scenario", scenario},           {"name", o.scenario},
              {"set", o.sets},  {"trace", !o.trace_path.empty()}, {"watch", !o.detach}};
  if (o.has_seed) req["seed"] = o.seed;
  const json r = c.request(req);
  if (!r.value("ok", false)) {
    if (r["error"].value("code", std::string()) == err::kInvalidScenario)
      throw std::invalid_argument(r["error"].value("message", std::string()));  // exit 2, as `run`
    fail_reply(r);
  }
  const std::string run = r["run"].get<std::string>();
  if (o.detach) {
    std::cout << run << "\n";
    return 0;
  }
  return collect(c, run, r.value("name", std::string()), o, printer, deadline);
}

}  // namespace

}  // namespace symsim::service

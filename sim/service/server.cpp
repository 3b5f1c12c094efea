#include "service/server.h"

#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/buffer.hpp>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "scenario/input_error.h"
#include "scenario/scenario.h"
#include "service/protocol.h"
#include "service/trace_args.h"
#include "package/version.h"

namespace fs = std::filesystem;
namespace asio = boost::asio;
using nlohmann::json;

namespace symsim::service {

namespace {

// A request field missing or of the wrong type.
struct BadRequest : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string need_string(const json& req, const char* key) {
  auto it = req.find(key);
  if (it == req.end() || !it->is_string()) throw BadRequest(fmt::format("\"{}\" must be a string", key));
  return it->get<std::string>();
}

template <typename T>
T optional_field(const json& req, const char* key, T fallback, bool (json::*is)() const) {
  auto it = req.find(key);
  if (it == req.end() || it->is_null()) return fallback;
  if (!((*it).*is)()) throw BadRequest(fmt::format("\"{}\" has the wrong type", key));
  return it->get<T>();
}

bool tokens_equal(const std::string& a, const std::string& b) {
  unsigned diff = a.size() != b.size();
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The worker's log tail, for the detail of a failed run.
std::string log_detail(const Run& run, const std::string& what) {
  const std::string tail = file_tail((run.dir / "worker.log").string(), 600);
  return tail.empty() ? what : what + ": " + tail;
}

constexpr size_t kTraceChunkDefault = 256u << 10;
constexpr size_t kTraceChunkMax = 4u << 20;
constexpr size_t kUnixPathMax = 107;  // sun_path less the terminating NUL

}  // namespace

Server::Server(asio::io_context& io, ServerOptions options)
    : m_io(io), m_options(std::move(options)), m_signals(io, SIGCHLD, SIGINT, SIGTERM) {
  if (m_options.workers <= 0)
    m_options.workers = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (m_options.worker_executable.empty()) m_options.worker_executable = self_executable();
}

Server::~Server() {
  for (auto& [id, run] : m_runs)
    if (run->state == RunState::kRunning && run->pid > 0) kill(-run->pid, SIGKILL);
}

// ---------------------------------------------------------------------------------------------
// Listening.

void Server::start() {
  if (m_options.listen.empty())
    throw InputError("symsim serve", "", "nothing to listen on (--socket or --listen)");
  fs::create_directories(fs::path(m_options.state_dir) / "runs");
  // Go on numbering after the runs a previous server left in the same folder.
  for (const auto& e : fs::directory_iterator(fs::path(m_options.state_dir) / "runs")) {
    const std::string n = e.path().filename().string();
    if (n.size() > 1 && n[0] == 'r' && n.find_first_not_of("0123456789", 1) == std::string::npos)
      m_next_run = std::max<uint64_t>(m_next_run, std::stoull(n.substr(1)) + 1);
  }
  for (const Endpoint& e : m_options.listen) {
    if (e.is_unix) {
      if (e.path.size() > kUnixPathMax)
        throw InputError(e.path, "", "Unix socket path longer than 107 bytes");
      asio::local::stream_protocol::endpoint ep(e.path);
      if (fs::exists(fs::symlink_status(e.path))) {
        asio::local::stream_protocol::socket probe(m_io);
        boost::system::error_code ec;
        probe.connect(ep, ec);
        if (!ec) throw InputError(e.path, "", "another server is listening on this socket");
        fs::remove(e.path);  // stale socket from a server that died
      }
      auto a = std::make_unique<asio::local::stream_protocol::acceptor>(m_io, ep);
      chmod(e.path.c_str(), 0600);  // only this user may connect
      m_unix.push_back(std::move(a));
      m_bound.push_back(e);
    } else {
      const std::string host = e.host == "localhost" ? "127.0.0.1" : e.host;
      boost::system::error_code ec;
      const auto addr = asio::ip::make_address(host, ec);
      if (ec) throw InputError("--listen", "", "not an IP address: '" + e.host + "'");
      if (!addr.is_loopback()) {
        if (!m_options.allow_public)
          throw InputError(
              "--listen", "",
              e.host + " is not a loopback address: pass --public (with --token) to listen on it");
        if (m_options.token.empty())
          throw InputError("--listen", "", "listening on a non-loopback address needs --token");
      }
      auto a = std::make_unique<asio::ip::tcp::acceptor>(m_io, asio::ip::tcp::endpoint(addr, e.port));
      Endpoint b = e;
      b.port = a->local_endpoint().port();
      m_tcp.push_back(std::move(a));
      m_bound.push_back(b);
    }
  }
  for (size_t i = 0; i < m_unix.size(); ++i) accept_unix(i);
  for (size_t i = 0; i < m_tcp.size(); ++i) accept_tcp(i);
  wait_signals();
}

void Server::accept_unix(size_t i) {
  m_unix[i]->async_accept([this, i](boost::system::error_code ec, asio::local::stream_protocol::socket s) {
    if (ec == asio::error::operation_aborted || !m_shutdown_mode.empty()) return;
    if (!ec) add_session(Session::Socket(std::move(s)));
    accept_unix(i);
  });
}

void Server::accept_tcp(size_t i) {
  m_tcp[i]->async_accept([this, i](boost::system::error_code ec, asio::ip::tcp::socket s) {
    if (ec == asio::error::operation_aborted || !m_shutdown_mode.empty()) return;
    if (!ec) {
      s.set_option(asio::ip::tcp::no_delay(true), ec);
      add_session(Session::Socket(std::move(s)));
    }
    accept_tcp(i);
  });
}

void Server::add_session(Session::Socket socket) {
  const uint64_t id = m_next_session++;
  auto s = std::make_shared<Session>(*this, std::move(socket), id, m_options.max_frame_bytes);
  m_sessions[id] = s;
  s->start();
}

void Server::session_closed(uint64_t id) {
  m_sessions.erase(id);
  m_held.erase(std::remove(m_held.begin(), m_held.end(), id), m_held.end());
  for (auto& [rid, run] : m_runs) run->watchers.erase(id);
  if (m_stopped && m_sessions.empty()) m_io.stop();
}

void Server::notify(Run& run, const json& event, bool lossy) {
  const std::set<uint64_t> watchers = run.watchers;  // a send may close a session
  for (uint64_t id : watchers) {
    auto it = m_sessions.find(id);
    if (it != m_sessions.end()) it->second->send(event, lossy);
  }
}

// ---------------------------------------------------------------------------------------------
// Requests.

std::optional<json> Server::dispatch(Session& s, const json& req) {
  if (!req.is_object()) return error_reply(req, err::kBadRequest, "a request is a JSON object");
  auto op_it = req.find("op");
  if (op_it == req.end() || !op_it->is_string())
    return error_reply(req, err::kBadRequest, "\"op\" must be a string");
  const std::string op = op_it->get<std::string>();
  if (!m_options.token.empty() && !s.authenticated() && op != "hello")
    return error_reply(req, err::kUnauthorized,
                       "this server needs a token: send {\"op\":\"hello\",\"token\":...} first");
  try {
    if (op == "hello") return op_hello(s, req);
    if (op == "submit")
      return op_submit(s, req, optional_field<bool>(req, "cosim", false, &json::is_boolean));
    if (op == "status") return op_status(req);
    if (op == "list") return op_list(req);
    if (op == "watch") return op_watch(s, req, true);
    if (op == "unwatch") return op_watch(s, req, false);
    if (op == "cancel") return op_cancel(req);
    if (op == "result") return op_result(req);
    if (op == "trace") return op_trace(req);
    if (op == "shutdown") return op_shutdown(req);
    return error_reply(
        req, err::kUnknownOp,
        "unknown op '" + op +
            "' (hello, submit, status, list, watch, unwatch, cancel, result, trace, shutdown)");
  } catch (const BadRequest& e) {
    return error_reply(req, err::kBadRequest, e.what());
  } catch (const json::exception& e) {
    return error_reply(req, err::kBadRequest, e.what());
  } catch (const std::exception& e) {
    return error_reply(req, err::kInternal, e.what());
  }
}

json Server::op_hello(Session& s, const json& req) {
  if (!m_options.token.empty()) {
    auto it = req.find("token");
    if (it == req.end() || !it->is_string() || !tokens_equal(it->get<std::string>(), m_options.token))
      return error_reply(req, err::kUnauthorized, "wrong or missing token");
    s.set_authenticated();
  }
  return ok_reply(req, {{"server", "symsim"},
                        {"protocol", kProtocolVersion},
                        {"version", symsim::version()},
                        {"commit", symsim::commit()},
                        {"session", s.id()},
                        {"workers", m_options.workers},
                        {"queue_limit", m_options.queue_limit},
                        {"max_frame_bytes", m_options.max_frame_bytes},
                        {"serving", m_shutdown_mode.empty()}});
}

std::optional<json> Server::op_submit(Session& s, const json& req, bool cosim) {
  if (!m_shutdown_mode.empty()) return error_reply(req, err::kShuttingDown, "the server is shutting down");
  // Check the request's shape before anything else, so a malformed one never waits.
  const bool block = optional_field<bool>(req, "block", true, &json::is_boolean);
  const bool watch = optional_field<bool>(req, "watch", true, &json::is_boolean);
  const double timeout_s =
      optional_field<double>(req, "timeout_s", m_options.run_timeout_s, &json::is_number);
  LoadOptions load;
  std::vector<std::string> args;
  if (auto it = req.find("seed"); it != req.end()) {
    if (!it->is_number_unsigned()) throw BadRequest("\"seed\" must be a non-negative integer");
    load.seed = it->get<uint64_t>();
    args.insert(args.end(), {"--seed", std::to_string(*load.seed)});
  }
  if (auto it = req.find("set"); it != req.end()) {
    if (!it->is_array()) throw BadRequest("\"set\" must be an array of \"PATH=VALUE\" strings");
    for (const json& v : *it) {
      if (!v.is_string()) throw BadRequest("\"set\" must be an array of \"PATH=VALUE\" strings");
      load.sets.push_back(v.get<std::string>());
      args.insert(args.end(), {"--set", v.get<std::string>()});
    }
  }
  bool trace = false;
  std::vector<std::string> trace_args;
  if (auto it = req.find("trace"); it != req.end() && !it->is_null()) {
    if (it->is_boolean()) {
      trace = it->get<bool>();
    } else if (it->is_object()) {
      trace = true;
      const std::string pes = it->contains("pes") ? need_string(*it, "pes") : "";
      const std::string window = it->contains("window_us") ? need_string(*it, "window_us") : "";
      try {  // malformed filters are the request's fault, not the worker's
        TraceOptions check;
        if (!pes.empty()) parse_pe_list(pes, "trace.pes");
        if (!window.empty()) parse_trace_window_us(window, check);
      } catch (const InputError& e) {
        throw BadRequest(std::string("\"trace\": ") + e.what());
      }
      if (!pes.empty()) trace_args.insert(trace_args.end(), {"--trace-pes", pes});
      if (!window.empty()) trace_args.insert(trace_args.end(), {"--trace-window", window});
    } else {
      throw BadRequest("\"trace\" must be true, false or {\"pes\": \"0,2-3\", \"window_us\": \"BEGIN:END\"}");
    }
  }
  std::string text, display;
  if (auto it = req.find("scenario"); it != req.end()) {
    if (!it->is_object()) throw BadRequest("\"scenario\" must be a scenario object");
    text = it->dump(2);
    display = optional_field<std::string>(req, "name", "<submitted scenario>", &json::is_string);
  } else if (auto p = req.find("scenario_path"); p != req.end()) {
    display = need_string(req, "scenario_path");
    if (!fs::is_regular_file(display))
      return error_reply(req, err::kInvalidScenario, display + ": cannot open the file");
    text = read_file(display);
  } else {
    throw BadRequest("a submit needs \"scenario\" (an object) or \"scenario_path\"");
  }
  if (m_queue.size() >= m_options.queue_limit) {
    if (!block)
      return error_reply(req, err::kQueueFull, fmt::format("{} runs are queued (the limit)", m_queue.size()));
    m_held.push_back(s.id());
    return std::nullopt;
  }

  // Validate exactly as the worker will load it, before taking a run id.
  const fs::path incoming = fs::path(m_options.state_dir) / "incoming.json";
  std::ofstream(incoming, std::ios::binary | std::ios::trunc) << text;
  Scenario sc;
  try {
    sc = load_scenario(incoming.string(), load);
  } catch (const InputError& e) {
    std::string msg = e.what();
    if (msg.rfind(incoming.string(), 0) == 0) msg = display + msg.substr(incoming.string().size());
    return error_reply(req, err::kInvalidScenario, msg);
  }
  auto run = std::make_unique<Run>();
  run->id = fmt::format("r{}", m_next_run++);
  run->name = sc.name;
  run->dir = fs::path(m_options.state_dir) / "runs" / run->id;
  fs::create_directories(run->dir);
  fs::rename(incoming, run->dir / "scenario.json");
  run->trace = trace;
  run->cosim = cosim;
  run->timeout_s = timeout_s;
  run->owner = s.id();
  run->worker_args = std::move(args);
  if (trace) {
    run->worker_args.insert(run->worker_args.end(), {"--trace", (run->dir / "trace.json").string()});
    run->worker_args.insert(run->worker_args.end(), trace_args.begin(), trace_args.end());
  }
  if (watch) run->watchers.insert(s.id());
  Run& r = *run;
  m_order.push_back(r.id);
  m_queue.push_back(r.id);
  m_runs.emplace(r.id, std::move(run));
  m_io.post([this] { pump(); });  // after the reply, so it precedes the run's events
  return ok_reply(req, {{"run", r.id}, {"name", r.name}, {"state", "queued"}, {"queued", m_queue.size()}});
}

Run* Server::find_run(const json& req, json& error) {
  const std::string id = need_string(req, "run");
  auto it = m_runs.find(id);
  if (it == m_runs.end()) {
    error = error_reply(req, err::kUnknownRun, "no run '" + id + "'");
    return nullptr;
  }
  return it->second.get();
}

json Server::op_status(const json& req) {
  json error;
  Run* run = find_run(req, error);
  if (!run) return error;
  return ok_reply(req, {{"run", run->info()}});
}

json Server::op_list(const json& req) {
  const std::string state = optional_field<std::string>(req, "state", "", &json::is_string);
  json runs = json::array();
  for (const std::string& id : m_order) {
    const Run& r = *m_runs.at(id);
    if (state.empty() || state == state_name(r.state)) runs.push_back(r.info());
  }
  return ok_reply(req, {{"runs", std::move(runs)}, {"queued", m_queue.size()}, {"running", m_running}});
}

json Server::op_watch(Session& s, const json& req, bool watch) {
  json error;
  Run* run = find_run(req, error);
  if (!run) return error;
  if (!watch) {
    run->watchers.erase(s.id());
    return ok_reply(req, {{"run", run->id}});
  }
  const bool already = !run->watchers.insert(s.id()).second;
  json reply = ok_reply(req, {{"run", run->info()}});
  // Catch the new watcher up after the reply: what was streamed so far, and the end if any.
  if (!already) {
    s.send(reply);
    if (!run->cosim_ready.is_null()) s.send(run->cosim_ready);
    for (const json& h : run->hazards) s.send({{"event", "hazard"}, {"run", run->id}, {"hazard", h}});
    if (run->state == RunState::kDone) s.send(run->done_event());
    return json();  // already sent
  }
  return reply;
}

json Server::op_cancel(const json& req) {
  json error;
  Run* run = find_run(req, error);
  if (!run) return error;
  if (run->state == RunState::kDone)
    return error_reply(req, err::kAlreadyFinished,
                       fmt::format("run {} already finished ({})", run->id, run->outcome));
  if (run->state == RunState::kQueued) {
    m_queue.erase(std::remove(m_queue.begin(), m_queue.end(), run->id), m_queue.end());
    finish(*run, "cancelled", "cancelled by a client before it started");
  } else {
    run->cancel_requested = true;
    kill_run(*run);
  }
  return ok_reply(req, {{"run", run->id}, {"state", state_name(run->state)}});
}

json Server::op_result(const json& req) {
  json error;
  Run* run = find_run(req, error);
  if (!run) return error;
  if (run->state != RunState::kDone)
    return error_reply(req, err::kNotFinished, "run " + run->id + " is " + state_name(run->state));
  const fs::path file = run->dir / "result.json";
  if (!fs::exists(file))
    return error_reply(req, err::kNoResult,
                       fmt::format("run {} ended {} without a result{}", run->id, run->outcome,
                                   run->detail.empty() ? "" : ": " + run->detail));
  return ok_reply(req, {{"run", run->id},
                        {"outcome", run->outcome},
                        {"exit_code", run->exit_code},
                        {"result", json::parse(read_file(file))}});
}

json Server::op_trace(const json& req) {
  json error;
  Run* run = find_run(req, error);
  if (!run) return error;
  if (run->state != RunState::kDone)
    return error_reply(req, err::kNotFinished, "run " + run->id + " is " + state_name(run->state));
  const fs::path file = run->dir / "trace.json";
  if (!run->trace || !fs::exists(file))
    return error_reply(req, err::kNoTrace, "run " + run->id + " has no trace (submit with \"trace\": true)");
  const uint64_t offset = optional_field<uint64_t>(req, "offset", 0, &json::is_number_unsigned);
  const size_t max_bytes = std::clamp<size_t>(
      optional_field<uint64_t>(req, "max_bytes", kTraceChunkDefault, &json::is_number_unsigned), 4,
      kTraceChunkMax);
  const uint64_t total = fs::file_size(file);
  std::string data;
  if (offset < total) {
    std::ifstream in(file, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(offset));
    data.resize(static_cast<size_t>(std::min<uint64_t>(max_bytes, total - offset)));
    in.read(data.data(), static_cast<std::streamsize>(data.size()));
    // End on a whole UTF-8 character so the chunk is valid JSON text.
    if (offset + data.size() < total) {
      size_t end = data.size();
      while (end > 0 && (static_cast<unsigned char>(data[end - 1]) & 0xC0) == 0x80) --end;
      if (end > 0 && (static_cast<unsigned char>(data[end - 1]) & 0x80))
        --end;  // a lead byte whose tail was cut
      data.resize(end);
    }
  }
  return ok_reply(req, {{"run", run->id},
                        {"offset", offset},
                        {"data", data},
                        {"total_bytes", total},
                        {"eof", offset + data.size() >= total}});
}

json Server::op_shutdown(const json& req) {
  const std::string mode = optional_field<std::string>(req, "mode", "finish", &json::is_string);
  if (mode != "drain" && mode != "finish" && mode != "cancel")
    throw BadRequest("\"mode\" must be drain (run what is queued), finish (finish running runs) or cancel");
  json reply = ok_reply(req, {{"mode", mode}, {"queued", m_queue.size()}, {"running", m_running}});
  m_io.post([this, mode] { begin_shutdown(mode); });  // after the reply is queued
  return reply;
}

// ---------------------------------------------------------------------------------------------
// Runs.

void Server::pump() {
  if (m_pumping) return;  // a resumed session's submit calls back in here
  m_pumping = true;
  bool progress = true;
  while (progress) {
    progress = false;
    const bool may_start = m_shutdown_mode.empty() || m_shutdown_mode == "drain";
    while (may_start && m_running < m_options.workers && !m_queue.empty()) {
      const std::string id = m_queue.front();
      m_queue.pop_front();
      start_run(*m_runs.at(id));
      progress = true;
    }
    while (!m_held.empty() && (m_queue.size() < m_options.queue_limit || !m_shutdown_mode.empty())) {
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
    w = spawn_worker(argv, (run.dir / "worker.log").string());
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
  std::ofstream(fs::path(m_options.state_dir) / "shutdown.json") << event.dump(2) << "\n";
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
  if (m_sessions.empty()) {
    m_io.stop();
    return;
  }
  // Clients that do not read their last messages do not hold the server up.
  m_exit_timer = std::make_unique<asio::steady_timer>(m_io, std::chrono::seconds(2));
  m_exit_timer->async_wait([this](boost::system::error_code) { m_io.stop(); });
}

int serve_main(ServerOptions options) {
  signal(SIGPIPE, SIG_IGN);
  asio::io_context io;
  Server server(io, std::move(options));
  server.start();
  for (const Endpoint& e : server.bound())
    std::cout << "symsim serve: listening on " << e.describe() << std::endl;
  io.run();
  // Stopped. Destroying the server's signal set gives SIGINT and SIGTERM back their default
  // action; block them first, so that a late one (the second of a SIGTERM pair, sent while the
  // server was already on its way out) does not kill the process as it exits.
  sigset_t late;
  sigemptyset(&late);
  sigaddset(&late, SIGINT);
  sigaddset(&late, SIGTERM);
  sigprocmask(SIG_BLOCK, &late, nullptr);
  return 0;
}

}  // namespace symsim::service

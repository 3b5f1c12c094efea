// The server's core: connections, request dispatch, work handed to the background thread,
// and serve_main. Listening is in server_listen.cpp, the requests in server_requests.cpp,
// runs and shutdown in server_runs.cpp.
#include "sim/service/server.h"

#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <iostream>
#include <thread>

#include "sim/scenario/input_error.h"
#include "sim/service/protocol.h"
#include "sim/service/request_line.h"

namespace asio = boost::asio;
using nlohmann::json;

namespace symsim::service {

namespace {
// Wrong tokens a connection may send before it is closed.
constexpr int kMaxAuthFailures = 3;
}  // namespace

Server::Server(asio::io_context& io, ServerOptions options)
    : m_io(io), m_options(std::move(options)), m_signals(io, SIGCHLD, SIGINT, SIGTERM) {
  if (m_options.workers <= 0)
    m_options.workers = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (m_options.worker_executable.empty()) m_options.worker_executable = self_executable();
  m_unix_needs_token = !m_options.token.empty();
}

Server::~Server() {
  for (auto& [id, run] : m_runs)
    if (run->state == RunState::kRunning && run->pid > 0) kill(-run->pid, SIGKILL);
}

// ---------------------------------------------------------------------------------------------
// Connections.

void Server::add_session(Session::Socket socket, bool tcp) {
  const uint64_t id = m_next_session++;
  const bool needs_token = tcp || m_unix_needs_token;
  auto s = std::make_shared<Session>(*this, std::move(socket), id, m_options.max_frame_bytes, needs_token);
  if (m_sessions.size() >= m_max_sessions) {
    // Each connection costs a descriptor; the reserve is for workers and run files.
    s->send(error_reply(nullptr, err::kServerBusy,
                        fmt::format("the server has {} connections, its limit; try again later", m_sessions.size())));
    s->close_after_flush();
    return;
  }
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
  if (s.needs_token() && !s.authenticated() && op != "hello") {
    return refuse_auth(s, error_reply(req, err::kUnauthorized,
                                      "this server needs a token: send {\"op\":\"hello\",\"token\":...} first"));
  }
  try {
    if (op == "hello") return op_hello(s, req);
    if (op == "submit") return op_submit(s, req);
    if (op == "status") return op_status(req);
    if (op == "list") return op_list(req);
    if (op == "watch") return op_watch(s, req, true);
    if (op == "unwatch") return op_watch(s, req, false);
    if (op == "cancel") return op_cancel(req);
    if (op == "result") return op_result(s, req);
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
  } catch (const std::bad_alloc&) {
    return error_reply(req, err::kServerBusy, "the server is out of memory; try again later");
  } catch (const std::exception& e) {
    return error_reply(req, err::kInternal, e.what());
  }
}

json Server::refuse_auth(Session& s, json reply) {
  if (s.add_auth_failure() < kMaxAuthFailures) return reply;
  std::cerr << fmt::format("symsim serve: closed connection {} after {} requests without the right token\n", s.id(),
                           kMaxAuthFailures);
  s.send(reply);
  s.close_after_flush();  // the reply goes out; nothing more is read
  return json();          // already sent
}

void Server::reply_later(Session& s, std::function<json()> job) {
  s.set_pending();
  m_background.post([this, id = s.id(), job = std::move(job)] {
    json reply = job();
    asio::post(m_io, [this, id, reply = std::move(reply)] {
      if (auto it = m_sessions.find(id); it != m_sessions.end()) {
        const std::shared_ptr<Session> keep = it->second;  // complete() may close it
        keep->complete(reply);
      }
    });
  });
}

void Server::decode_later(Session& s, std::string line) {
  m_background.post([this, id = s.id(), line = std::move(line)] {
    std::optional<json> request;
    std::string error;
    try {
      request = decode_request_line(line);
    } catch (const BadLine& e) {
      error = e.what();
    } catch (const std::bad_alloc&) {
      error = "the server is out of memory for this request";
    }
    asio::post(m_io, [this, id, request = std::move(request), error = std::move(error)]() mutable {
      if (auto it = m_sessions.find(id); it != m_sessions.end()) {
        const std::shared_ptr<Session> keep = it->second;
        keep->decoded(std::move(request), error);
      }
    });
  });
}

int serve_main(ServerOptions options) {
  signal(SIGPIPE, SIG_IGN);
  umask(077);  // the socket, run folders, results and token: this user's only
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

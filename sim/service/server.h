// `symsim serve`: accepts clients on Unix sockets or loopback TCP, queues submitted scenarios
// (bounded, with back-pressure), runs each in its own `symsim worker` process, relays progress
// and hazards to watchers, and keeps results in per-run folders (docs/service.md).
#pragma once
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sim/service/background_work.h"
#include "sim/service/confined_file.h"
#include "sim/service/endpoint.h"
#include "sim/service/run_record.h"
#include "sim/service/session.h"
#include "sim/service/state_dir.h"
#include "sim/service/submit_request.h"
#include "sim/service/submit_validation.h"

namespace symsim::service {

struct ServerOptions {
  std::vector<Endpoint> listen;
  std::string state_dir = "symsim-serve";
  int workers = 0;          // concurrent worker processes; 0: one per hardware thread
  size_t queue_limit = 64;  // runs waiting for a worker
  size_t max_frame_bytes = 1u << 20;
  std::string token;          // required from every client when set; generated for TCP when not
  bool allow_public = false;  // listen on a non-loopback TCP address (needs a token)
  std::string root;           // scenario_path files are read under here; default: state_dir
  double run_timeout_s = 0;   // 0: no limit
  uint64_t run_memory_bytes = 0;  // resident-memory limit of each worker; 0: none
  double progress_interval_s = 0.25;
  std::string worker_executable;         // default: this executable
  std::vector<std::string> kernel_libs;  // loaded here (validation) and by every worker
};

// Runs the server until it shuts down (a `shutdown` request, SIGINT or SIGTERM).
int serve_main(ServerOptions options);

class Server {
 public:
  Server(boost::asio::io_context& io, ServerOptions options);
  ~Server();
  // Binds every endpoint (throws InputError or std::system_error) and starts accepting.
  void start();
  // Handles one request; nullopt means the session must hold it (queue full, back-pressure);
  // a null reply means the handler already sent it.
  std::optional<nlohmann::json> dispatch(Session& session, const nlohmann::json& request);
  void session_closed(uint64_t id);
  // Parses a long request line on the background thread, then hands it to the session.
  void decode_later(Session& s, std::string line);

  size_t max_frame_bytes() const { return m_options.max_frame_bytes; }
  // The actual endpoints (TCP port 0 resolved).
  const std::vector<Endpoint>& bound() const { return m_bound; }

 private:
  // Requests.
  nlohmann::json op_hello(Session& s, const nlohmann::json& req);
  std::optional<nlohmann::json> op_submit(Session& s, const nlohmann::json& req);
  nlohmann::json op_status(const nlohmann::json& req);
  nlohmann::json op_list(const nlohmann::json& req);
  nlohmann::json op_watch(Session& s, const nlohmann::json& req, bool watch);
  nlohmann::json op_cancel(const nlohmann::json& req);
  nlohmann::json op_result(Session& s, const nlohmann::json& req);
  nlohmann::json op_trace(const nlohmann::json& req);
  nlohmann::json op_shutdown(const nlohmann::json& req);
  Run* find_run(const nlohmann::json& req, nlohmann::json& error);
  // A submit whose scenario was validated off the event thread: queue it, or answer the error.
  nlohmann::json finish_submit(Session* s, const nlohmann::json& req, SubmitRequest sub, Validation v);
  // Runs `job` on the background thread, then sends its reply to the session (which holds its
  // further requests meanwhile, keeping replies in order).
  void reply_later(Session& s, std::function<nlohmann::json()> job);
  // An unauthorized reply; the third on one connection is sent and the connection closed.
  nlohmann::json refuse_auth(Session& s, nlohmann::json reply);

  // Connections.
  void bind_endpoints();
  void accept_unix(size_t i);
  void accept_tcp(size_t i);
  // After an accept failed: at once for a connection that went away, after a pause when the
  // process is out of descriptors (so the loop does not spin).
  void after_accept_error(const boost::system::error_code& ec, std::function<void()> again);
  void add_session(Session::Socket socket, bool tcp);
  void notify(Run& run, const nlohmann::json& event, bool lossy = false);

  // Runs.
  void pump();  // starts queued runs while workers are free, then lets held sessions retry
  void start_run(Run& run);
  void pause_spawning();  // out of processes or descriptors: leave the queue for a while
  void watch_memory();    // stops runs past --run-memory (resident memory, checked periodically)
  void read_events(Run& run);
  void on_event(Run& run, const std::string& line);
  void reap_children();
  void wait_signals();
  void maybe_finish(Run& run);
  void finish(Run& run, std::string outcome, std::string detail);
  void kill_run(Run& run);

  // Shutdown: "drain" runs everything queued, "finish" cancels the queue and finishes running
  // runs, "cancel" cancels everything.
  void begin_shutdown(const std::string& mode);
  void maybe_complete_shutdown();

  boost::asio::io_context& m_io;
  ServerOptions m_options;
  bool m_unix_needs_token = false;  // a token given by the operator applies to Unix clients too
  std::unique_ptr<StateDir> m_state;
  std::unique_ptr<ConfinedRoot> m_root;
  bool m_accept_paused = false;  // accepts pause while out of descriptors (logged once)
  size_t m_max_sessions = 0;  // connections beyond it get server_busy (descriptors kept in reserve)
  std::vector<Endpoint> m_bound;
  std::vector<std::unique_ptr<boost::asio::local::stream_protocol::acceptor>> m_unix;
  std::vector<std::unique_ptr<boost::asio::ip::tcp::acceptor>> m_tcp;
  boost::asio::signal_set m_signals;
  std::map<uint64_t, std::shared_ptr<Session>> m_sessions;  // owned here: a held session has no I/O pending
  uint64_t m_next_session = 1;
  std::map<std::string, std::unique_ptr<Run>> m_runs;  // by id
  std::vector<std::string> m_order;                    // ids in submission order
  std::deque<std::string> m_queue;                     // queued ids
  std::deque<uint64_t> m_held;                         // sessions holding a submit
  uint64_t m_next_run = 1;
  size_t m_validating = 0;  // submits on the background thread (they hold queue places)
  int m_running = 0;
  bool m_spawn_paused = false;
  bool m_pumping = false;
  bool m_defer_completion = false;
  std::string m_shutdown_mode;  // empty: serving
  std::vector<std::string> m_shutdown_finished, m_shutdown_cancelled;
  std::unique_ptr<boost::asio::steady_timer> m_exit_timer;
  std::unique_ptr<boost::asio::steady_timer> m_memory_timer;
  bool m_stopped = false;
  BackgroundWork m_background;  // last: its thread stops first
};

}  // namespace symsim::service

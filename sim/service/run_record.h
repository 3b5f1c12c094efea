// One submitted run as the server tracks it: queued, running in a worker process, or done
// with an outcome. Its folder holds scenario.json, result.json, trace.json and worker.log.
#pragma once
#include <sys/types.h>

#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "sim/service/line_framer.h"
#include "sim/service/worker_process.h"

namespace symsim::service {

enum class RunState { kQueued, kRunning, kDone };
const char* state_name(RunState s);

struct Run {
  std::string id;    // "r1", "r2", ... in submission order
  std::string name;  // the scenario's name
  std::filesystem::path dir;
  std::vector<std::string> worker_args;  // after `symsim worker SCENARIO --out DIR`
  bool trace = false;
  bool cosim = false;
  double timeout_s = 0;  // 0: none
  uint64_t owner = 0;    // the session that submitted it
  RunState state = RunState::kQueued;

  // While running.
  pid_t pid = -1;
  std::unique_ptr<boost::asio::posix::stream_descriptor> events;
  LineFramer framer{16u << 20};
  char buffer[4096];
  bool pipe_closed = false;
  bool reaped = false;
  ExitStatus exit;
  bool cancel_requested = false;
  bool timed_out = false;
  bool shutdown_cancel = false;  // cancelled because the server shut down
  bool out_of_memory = false;    // past --run-memory (or the worker ran out of memory)
  std::unique_ptr<boost::asio::steady_timer> timer;

  // What watchers are told and what is kept for those who watch later.
  std::set<uint64_t> watchers;          // session ids
  std::vector<nlohmann::json> hazards;  // as streamed (the first 200)
  uint64_t hazard_total = 0;            // as the worker counted them
  nlohmann::json cosim_ready;           // the co-simulation socket event, once the worker listens
  double sim_time_ns = -1;
  std::string outcome;  // when done
  int exit_code = -1;
  std::string detail;

  // The summary `status` and `list` return.
  nlohmann::json info() const;
  // The `done` event.
  nlohmann::json done_event() const;
};

}  // namespace symsim::service

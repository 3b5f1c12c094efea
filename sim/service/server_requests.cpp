// The requests: hello, submit (validated off the event thread), status, list, watch, cancel,
// result, trace and shutdown (docs/service.md).
#include <fmt/format.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "sim/io/strict_json.h"
#include "sim/package/version.h"
#include "sim/service/protocol.h"
#include "sim/service/server.h"

namespace fs = std::filesystem;
namespace asio = boost::asio;
using nlohmann::json;

namespace symsim::service {

namespace {

constexpr size_t kTraceChunkDefault = 256u << 10;
constexpr size_t kTraceChunkMax = 4u << 20;
constexpr size_t kMaxResultBytes = size_t{1} << 30;

bool tokens_equal(const std::string& a, const std::string& b) {
  unsigned diff = a.size() != b.size();
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

// What a reply echoes of its request ("op", "id"), without the rest (a scenario can be large).
json request_head(const json& req) {
  json head = json::object();
  for (const char* key : {"op", "id"})
    if (auto it = req.find(key); it != req.end()) head[key] = *it;
  return head;
}

bool resource_errno(int e) { return e == EMFILE || e == ENFILE || e == ENOMEM || e == ENOSPC || e == EDQUOT; }

}  // namespace

json Server::op_hello(Session& s, const json& req) {
  if (s.needs_token()) {
    auto it = req.find("token");
    if (it == req.end() || !it->is_string() || !tokens_equal(it->get<std::string>(), m_options.token))
      return refuse_auth(s, error_reply(req, err::kUnauthorized, "wrong or missing token"));
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

std::optional<json> Server::op_submit(Session& s, const json& req) {
  if (!m_shutdown_mode.empty()) return error_reply(req, err::kShuttingDown, "the server is shutting down");
  // The request's shape first, so a malformed one never waits.
  SubmitRequest sub = parse_submit_request(req);
  if (m_queue.size() + m_validating >= m_options.queue_limit) {
    if (!sub.block)
      return error_reply(req, err::kQueueFull, fmt::format("{} runs are queued (the limit)", m_queue.size()));
    m_held.push_back(s.id());
    return std::nullopt;
  }
  // Reading and validating the scenario is the slow part: off the event thread, holding a queue
  // place meanwhile. This connection's later requests wait for the reply (replies stay in order).
  ++m_validating;
  s.set_pending();
  m_background.post([this, sid = s.id(), head = request_head(req), sub = std::move(sub), root = m_root.get(),
                     max_bytes = m_options.max_frame_bytes]() mutable {
    Validation v = validate_submission(sub, root, max_bytes);
    asio::post(m_io, [this, sid, head = std::move(head), sub = std::move(sub), v = std::move(v)]() mutable {
      --m_validating;
      auto it = m_sessions.find(sid);
      const std::shared_ptr<Session> session = it == m_sessions.end() ? nullptr : it->second;
      const json reply = finish_submit(session.get(), head, std::move(sub), std::move(v));
      if (session) session->complete(reply);
      pump();  // a queue place freed by a refused submit lets a held one in
    });
  });
  return json();  // answered later
}

json Server::finish_submit(Session* s, const json& req, SubmitRequest sub, Validation v) {
  if (!v.error_code.empty()) return error_reply(req, v.error_code, v.message);
  if (!m_shutdown_mode.empty()) return error_reply(req, err::kShuttingDown, "the server is shutting down");
  auto run = std::make_unique<Run>();
  run->id = fmt::format("r{}", m_next_run);
  run->name = v.name;
  run->dir = fs::path(m_state->runs()) / run->id;
  std::error_code ec;
  int e = fs::create_directory(run->dir, ec) ? 0 : ec ? ec.value() : EEXIST;
  if (!e) e = write_private_file((run->dir / "scenario.json").string(), v.text);
  if (e) {
    fs::remove_all(run->dir, ec);
    return error_reply(req, resource_errno(e) ? err::kServerBusy : err::kInternal,
                       fmt::format("cannot store the run in {}: {}", m_state->runs(), std::strerror(e)));
  }
  ++m_next_run;
  run->trace = sub.trace;
  run->cosim = sub.cosim;
  run->timeout_s = effective_timeout_s(sub.timeout_s, m_options.run_timeout_s);
  run->owner = s ? s->id() : 0;
  run->worker_args = std::move(sub.worker_args);
  if (sub.trace) {
    run->worker_args.insert(run->worker_args.end(), {"--trace", (run->dir / "trace.json").string()});
    if (!sub.trace_pes.empty()) run->worker_args.insert(run->worker_args.end(), {"--trace-pes", sub.trace_pes});
    if (!sub.trace_window.empty())
      run->worker_args.insert(run->worker_args.end(), {"--trace-window", sub.trace_window});
  }
  if (sub.watch && s) run->watchers.insert(s->id());
  Run& r = *run;
  m_order.push_back(r.id);
  m_queue.push_back(r.id);
  m_runs.emplace(r.id, std::move(run));
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
  const std::string state = optional_string(req, "state", "");
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

json Server::op_result(Session& s, const json& req) {
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
  // A result can be large: read and parse it off the event thread.
  json reply = ok_reply(req, {{"run", run->id}, {"outcome", run->outcome}, {"exit_code", run->exit_code}});
  reply_later(s, [reply = std::move(reply), file]() mutable {
    try {
      reply["result"] = json::parse(io::read_regular_file(file.string(), kMaxResultBytes));
      return reply;
    } catch (const std::bad_alloc&) {
      return error_reply(reply, err::kServerBusy, "the server is out of memory; try again later");
    } catch (const std::exception& e) {
      return error_reply(reply, err::kInternal, std::string("cannot read the run's result: ") + e.what());
    }
  });
  return json();  // answered later
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
  const uint64_t offset = optional_unsigned(req, "offset", 0);
  const size_t max_bytes =
      std::clamp<size_t>(optional_unsigned(req, "max_bytes", kTraceChunkDefault), 4, kTraceChunkMax);
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
  const std::string mode = optional_string(req, "mode", "finish");
  if (mode != "drain" && mode != "finish" && mode != "cancel")
    throw BadRequest("\"mode\" must be drain (run what is queued), finish (finish running runs) or cancel");
  json reply = ok_reply(req, {{"mode", mode}, {"queued", m_queue.size()}, {"running", m_running}});
  m_io.post([this, mode] { begin_shutdown(mode); });  // after the reply is queued
  return reply;
}

}  // namespace symsim::service

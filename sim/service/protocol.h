// The service protocol, version 1 (docs/service.md): JSON lines over a Unix socket or loopback
// TCP. Requests carry "op" and an optional "id" echoed in the reply; replies carry "ok" and,
// when false, "error": {"code", "message"}; events carry "event" and usually "run".
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace symsim::service {

constexpr int kProtocolVersion = 1;

// Error codes (stable names).
namespace err {
inline constexpr const char* kBadJson = "bad_json";  // the line is not JSON
inline constexpr const char* kBadRequest =
    "bad_request";  // not an object, a field missing or of the wrong type
inline constexpr const char* kUnknownOp = "unknown_op";
inline constexpr const char* kFrameTooLarge = "frame_too_large";
inline constexpr const char* kUnauthorized = "unauthorized";  // hello with the token first
inline constexpr const char* kInvalidScenario = "invalid_scenario";
inline constexpr const char* kQueueFull = "queue_full";  // only with "block": false
inline constexpr const char* kUnknownRun = "unknown_run";
inline constexpr const char* kNotFinished = "not_finished";
inline constexpr const char* kAlreadyFinished = "already_finished";
inline constexpr const char* kNoResult = "no_result";
inline constexpr const char* kNoTrace = "no_trace";
inline constexpr const char* kShuttingDown = "shutting_down";
inline constexpr const char* kServerBusy =
    "server_busy";  // out of file descriptors or memory, or too many connections: try again later
inline constexpr const char* kInternal = "internal";
}  // namespace err

// A failure reply to `request` (whose "id" and "op" it echoes when present).
nlohmann::json error_reply(const nlohmann::json& request, const std::string& code,
                           const std::string& message);
// A success reply to `request` with `fields` merged in.
nlohmann::json ok_reply(const nlohmann::json& request, nlohmann::json fields = nlohmann::json::object());

// Run outcomes, the final word on a run: pass, fail (an expectation failed), invalid (the
// worker rejected its input), error (internal error), crashed (the worker died or wrote no
// result), cancelled, timeout (its wall-time limit), out_of_memory (its --run-memory limit).
// Maps each to the `symsim run` exit code (0, 1, 2; 124 for timeout; else 3).
int outcome_exit_code(const std::string& outcome);

}  // namespace symsim::service

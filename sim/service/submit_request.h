// The fields of service requests, checked before anything runs: a submit's shape (seed, set,
// trace filter, time limit, where the scenario comes from) and the bounds the server holds
// every request to. Pure functions of the request, so the fuzzer drives them directly.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/scenario/scenario.h"

namespace symsim::service {

// A request field missing, of the wrong type or out of bounds (error code bad_request).
struct BadRequest : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string need_string(const nlohmann::json& req, const char* key);
bool optional_bool(const nlohmann::json& req, const char* key, bool fallback);
uint64_t optional_unsigned(const nlohmann::json& req, const char* key, uint64_t fallback);
std::string optional_string(const nlohmann::json& req, const char* key, const std::string& fallback);

// The longest wall-time limit a run may have (about 31 years): larger values would overflow
// the timer's nanosecond clock (9.2e9 s) and are refused, from requests and from --run-timeout.
constexpr double kMaxRunTimeoutS = 1e9;

struct SubmitRequest {
  bool block = true;
  bool watch = true;
  bool cosim = false;
  double timeout_s = 0;  // as asked; 0: none asked (the server's limit applies)
  LoadOptions load;
  std::vector<std::string> worker_args;  // --seed and --set for the worker
  bool trace = false;
  std::string trace_pes;     // as given ("0,2-3"); checked against the scenario's PEs later
  std::string trace_window;  // "BEGIN:END" in microseconds
  std::optional<nlohmann::json> scenario;  // inline
  std::string scenario_path;               // or a file under the server's --root
  std::string display;                     // the name messages use
};

// Checks a submit request's shape; throws BadRequest.
SubmitRequest parse_submit_request(const nlohmann::json& req);

// Checks a trace PE list ("0,2-3") against a scenario of `pes` PEs without expanding it: every
// PE below `pes`, ranges ascending, at most `pes` PEs named in all. Throws BadRequest.
void check_trace_pes(const std::string& text, int pes);

// The wall-time limit a run gets: the request's, but never more than the server's (0: none).
double effective_timeout_s(double requested_s, double server_limit_s);

}  // namespace symsim::service

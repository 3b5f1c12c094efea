#include "sim/service/submit_request.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace symsim::service {

using nlohmann::json;

namespace {

const json* find(const json& req, const char* key) {
  auto it = req.find(key);
  return it == req.end() || it->is_null() ? nullptr : &*it;
}

// A PE number: decimal digits that fit an int, nothing else.
int parse_pe(std::string_view text, const std::string& whole) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || text.size() > 10 || ec != std::errc() || end != text.data() + text.size() || text[0] == '-')
    throw BadRequest(fmt::format("\"trace\": \"pes\" must be a PE list such as 0,2-3, got '{}'", whole));
  return value;
}

// "BEGIN:END" in microseconds: finite, 0 <= BEGIN < END <= 1e12 (as `run --trace-window`).
void check_trace_window(const std::string& text) {
  const auto colon = text.find(':');
  auto number = [&](const std::string& part) {
    size_t used = 0;
    double v = NAN;
    try {
      v = std::stod(part, &used);
    } catch (const std::logic_error&) {
      used = 0;
    }
    if (used == 0 || used != part.size() || !std::isfinite(v)) v = NAN;
    return v;
  };
  const double begin = colon == std::string::npos ? NAN : number(text.substr(0, colon));
  const double end = colon == std::string::npos ? NAN : number(text.substr(colon + 1));
  if (!(begin >= 0 && end > begin && end <= 1e12))
    throw BadRequest(fmt::format(
        "\"trace\": \"window_us\" must be BEGIN:END in microseconds with 0 <= BEGIN < END <= 1e12, got '{}'",
        text));
}

}  // namespace

std::string need_string(const json& req, const char* key) {
  const json* v = find(req, key);
  if (!v || !v->is_string()) throw BadRequest(fmt::format("\"{}\" must be a string", key));
  return v->get<std::string>();
}

bool optional_bool(const json& req, const char* key, bool fallback) {
  const json* v = find(req, key);
  if (!v) return fallback;
  if (!v->is_boolean()) throw BadRequest(fmt::format("\"{}\" must be true or false", key));
  return v->get<bool>();
}

uint64_t optional_unsigned(const json& req, const char* key, uint64_t fallback) {
  const json* v = find(req, key);
  if (!v) return fallback;
  if (!v->is_number_unsigned()) throw BadRequest(fmt::format("\"{}\" must be a non-negative integer", key));
  return v->get<uint64_t>();
}

std::string optional_string(const json& req, const char* key, const std::string& fallback) {
  const json* v = find(req, key);
  if (!v) return fallback;
  if (!v->is_string()) throw BadRequest(fmt::format("\"{}\" must be a string", key));
  return v->get<std::string>();
}

SubmitRequest parse_submit_request(const json& req) {
  SubmitRequest r;
  r.block = optional_bool(req, "block", true);
  r.watch = optional_bool(req, "watch", true);
  r.cosim = optional_bool(req, "cosim", false);
  if (const json* t = find(req, "timeout_s")) {
    const double v = t->is_number() ? t->get<double>() : NAN;
    if (!(v >= 0 && v <= kMaxRunTimeoutS))
      throw BadRequest(fmt::format("\"timeout_s\" must be a number of seconds from 0 to {:g}", kMaxRunTimeoutS));
    r.timeout_s = v;
  }
  if (const json* seed = find(req, "seed")) {
    if (!seed->is_number_unsigned()) throw BadRequest("\"seed\" must be a non-negative integer");
    r.load.seed = seed->get<uint64_t>();
    r.worker_args.insert(r.worker_args.end(), {"--seed", std::to_string(*r.load.seed)});
  }
  if (const json* sets = find(req, "set")) {
    if (!sets->is_array()) throw BadRequest("\"set\" must be an array of \"PATH=VALUE\" strings");
    for (const json& v : *sets) {
      if (!v.is_string()) throw BadRequest("\"set\" must be an array of \"PATH=VALUE\" strings");
      r.load.sets.push_back(v.get<std::string>());
      r.worker_args.insert(r.worker_args.end(), {"--set", v.get<std::string>()});
    }
  }
  if (const json* trace = find(req, "trace")) {
    if (trace->is_boolean()) {
      r.trace = trace->get<bool>();
    } else if (trace->is_object()) {
      r.trace = true;
      r.trace_pes = optional_string(*trace, "pes", "");
      r.trace_window = optional_string(*trace, "window_us", "");
      if (!r.trace_window.empty()) check_trace_window(r.trace_window);
    } else {
      throw BadRequest("\"trace\" must be true, false or {\"pes\": \"0,2-3\", \"window_us\": \"BEGIN:END\"}");
    }
  }
  if (const json* s = find(req, "scenario")) {
    if (!s->is_object()) throw BadRequest("\"scenario\" must be a scenario object");
    r.scenario = *s;
    r.display = optional_string(req, "name", "<submitted scenario>");
  } else if (find(req, "scenario_path")) {
    r.scenario_path = need_string(req, "scenario_path");
    r.display = r.scenario_path;
  } else {
    throw BadRequest("a submit needs \"scenario\" (an object) or \"scenario_path\"");
  }
  return r;
}

void check_trace_pes(const std::string& text, int pes) {
  uint64_t named = 0;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item(text.data() + start, comma - start);
    const size_t dash = item.find('-');
    const int first = parse_pe(item.substr(0, dash), text);
    const int last = dash == std::string_view::npos ? first : parse_pe(item.substr(dash + 1), text);
    if (last < first)
      throw BadRequest(fmt::format("\"trace\": \"pes\": range {}-{} runs backwards", first, last));
    if (last >= pes)
      throw BadRequest(fmt::format("\"trace\": \"pes\": PE {} does not exist (the scenario has {} PEs)", last, pes));
    named += static_cast<uint64_t>(last - first) + 1;
    if (named > static_cast<uint64_t>(pes))
      throw BadRequest(fmt::format("\"trace\": \"pes\" names more PEs than the scenario's {}", pes));
    start = comma + 1;
  }
}

double effective_timeout_s(double requested_s, double server_limit_s) {
  if (server_limit_s <= 0) return requested_s;
  if (requested_s <= 0) return server_limit_s;
  return std::min(requested_s, server_limit_s);
}

}  // namespace symsim::service

#include "sim/report/report_inputs.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "sim/io/strict_json.h"
#include "sim/scenario/input_error.h"
#include "sim/trace/trace_model.h"

namespace symsim::report {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr size_t kMaxResultBytes = size_t{256} << 20;  // results of EP 256 runs are tens of MB

// Checks that `doc` at `pointer` has `key` of the kind `is` accepts.
template <typename Is>
const json& need(const std::string& file, const json& doc, const std::string& pointer, const char* key, Is is,
                 const char* kind) {
  const auto it = doc.find(key);
  if (it == doc.end() || !is(*it))
    throw InputError(file, pointer + "/" + key, std::string("missing or not ") + kind);
  return *it;
}

bool is_string(const json& j) { return j.is_string(); }
bool is_number(const json& j) { return j.is_number(); }
bool is_object(const json& j) { return j.is_object(); }
bool is_array(const json& j) { return j.is_array(); }
bool is_bool(const json& j) { return j.is_boolean(); }
bool is_integer(const json& j) { return j.is_number_integer(); }

void check_result(const std::string& file, const json& r) {
  if (!r.is_object()) throw InputError(file, "", "not a symsim result: expected an object");
  if (!r.contains("symsim"))
    throw InputError(file, "/symsim", "missing: not a result.json of `symsim run` (give a result.json or a sweep folder)");
  need(file, r, "", "scenario", is_string, "a string");
  need(file, r, "", "status", is_string, "a string");
  need(file, r, "", "sim_time_ns", is_number, "a number");
  const json& stats = need(file, r, "", "stats", is_object, "an object");
  const json& hazards = need(file, r, "", "hazards", is_array, "an array");
  for (size_t i = 0; i < hazards.size(); ++i) {
    const std::string p = "/hazards/" + std::to_string(i);
    if (!hazards[i].is_object()) throw InputError(file, p, "not an object");
    need(file, hazards[i], p, "id", is_string, "a string");
    need(file, hazards[i], p, "time_ns", is_number, "a number");
  }
  for (const char* list : {"expectations", "checks"}) {
    if (!r.contains(list) && std::string(list) == "checks") continue;  // optional
    const json& items = need(file, r, "", list, is_array, "an array");
    for (size_t i = 0; i < items.size(); ++i) {
      const std::string p = std::string("/") + list + "/" + std::to_string(i);
      if (!items[i].is_object()) throw InputError(file, p, "not an object");
      need(file, items[i], p, "what", is_string, "a string");
      need(file, items[i], p, "ok", is_bool, "true or false");
    }
  }
  for (const char* kind : {"links", "nvlink"}) {
    const auto links = stats.find(kind);
    if (links == stats.end()) continue;
    if (!links->is_array()) throw InputError(file, std::string("/stats/") + kind, "not an array");
    for (size_t i = 0; i < links->size(); ++i) {
      const std::string p = std::string("/stats/") + kind + "/" + std::to_string(i);
      need(file, (*links)[i], p, "name", is_string, "a string");
      need(file, (*links)[i], p, "utilization", is_number, "a number");
    }
  }
  if (const auto pes = stats.find("pes"); pes != stats.end()) {
    if (!pes->is_array()) throw InputError(file, "/stats/pes", "not an array");
    for (size_t i = 0; i < pes->size(); ++i) {
      const std::string p = "/stats/pes/" + std::to_string(i);
      need(file, (*pes)[i], p, "pe", is_integer, "an integer");
      if ((*pes)[i].contains("qps")) need(file, (*pes)[i], p, "qps", is_array, "an array");
    }
  }
}

void check_sweep_table(const std::string& file, const json& s) {
  if (!s.is_object() || !s.contains("symsim_sweep"))
    throw InputError(file, "/symsim_sweep", "missing: not the results.json of `symsim sweep`");
  need(file, s, "", "grid_keys", is_array, "an array");
  need(file, s, "", "columns", is_array, "an array");
  const json& points = need(file, s, "", "points", is_array, "an array");
  for (size_t i = 0; i < points.size(); ++i) {
    const std::string p = "/points/" + std::to_string(i);
    if (!points[i].is_object()) throw InputError(file, p, "not an object");
    need(file, points[i], p, "index", is_integer, "an integer");
    need(file, points[i], p, "scenario", is_string, "a string");
    need(file, points[i], p, "status", is_string, "a string");
    need(file, points[i], p, "params", is_object, "an object");
    if (points[i].contains("columns")) need(file, points[i], p, "columns", is_object, "an object");
    if (const auto hazards = points[i].find("hazards"); hazards != points[i].end()) {
      if (!hazards->is_array()) throw InputError(file, p + "/hazards", "not an array");
      for (size_t h = 0; h < hazards->size(); ++h)
        if (!(*hazards)[h].is_string()) throw InputError(file, p + "/hazards/" + std::to_string(h), "not a string");
    }
  }
}

}  // namespace

ReportInputs check_report_inputs(const std::string& input, const std::string& trace) {
  std::error_code ec;
  ReportInputs in;
  if (fs::is_directory(input, ec)) {
    const std::string table = (fs::path(input) / "results.json").string();
    if (!fs::exists(table, ec))
      throw InputError(input, "", "a folder without results.json: not the output folder of `symsim sweep`");
    in.sweep = input;
    check_sweep_table(table, io::read_strict_json_file(table, kMaxResultBytes));
  } else {
    const nlohmann::json doc = io::read_strict_json_file(input, kMaxResultBytes);
    if (doc.is_object() && doc.contains("symsim_sweep")) {  // a sweep's results.json
      check_sweep_table(input, doc);
      in.sweep = fs::path(input).parent_path().string();
      if (in.sweep.empty()) in.sweep = ".";
    } else {
      check_result(input, doc);
      in.result = input;
    }
  }
  if (!in.sweep.empty() && !trace.empty())
    throw InputError("--trace", "", "a sweep report takes no trace (each point's trace belongs to its run)");
  if (in.result.empty()) return in;
  in.trace = trace;
  const fs::path beside = fs::path(in.result).parent_path() / "trace.json";
  if (in.trace.empty() && fs::is_regular_file(beside, ec)) in.trace = beside.string();
  if (!in.trace.empty()) trace::read_trace_shape(in.trace);  // malformed: InputError naming it
  return in;
}

}  // namespace symsim::report

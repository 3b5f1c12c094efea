#include "sim/sweep/results_check.h"

#include <fmt/format.h>

#include <set>

#include "sim/scenario/input_error.h"
#include "sim/sweep/sweep_spec.h"
#include "sim/sweep/sweep_table.h"

using nlohmann::ordered_json;

namespace symsim::sweep {

namespace {

const ordered_json& field(const ordered_json& obj, const char* key, const std::string& file,
                          const std::string& pointer) {
  if (!obj.contains(key)) throw InputError(file, pointer + "/" + key, "missing");
  return obj[key];
}

size_t unsigned_field(const ordered_json& obj, const char* key, const std::string& file,
                      const std::string& pointer, size_t max) {
  const ordered_json& v = field(obj, key, file, pointer);
  if (!v.is_number_unsigned())
    throw InputError(file, pointer + "/" + key, "must be a non-negative integer, got " + v.dump());
  const uint64_t n = v.get<uint64_t>();
  if (n > max) throw InputError(file, pointer + "/" + key, fmt::format("{} is more than {}", n, max));
  return static_cast<size_t>(n);
}

void string_array(const ordered_json& obj, const char* key, const std::string& file) {
  const ordered_json& v = field(obj, key, file, "");
  if (!v.is_array()) throw InputError(file, std::string("/") + key, "must be an array of strings");
  for (size_t i = 0; i < v.size(); ++i)
    if (!v[i].is_string()) throw InputError(file, fmt::format("/{}/{}", key, i), "must be a string");
}

}  // namespace

void check_row(const ordered_json& row, const std::string& file, const std::string& pointer,
               size_t points_total) {
  if (!row.is_object()) throw InputError(file, pointer, "a point row must be an object");
  const size_t index = unsigned_field(row, "index", file, pointer, kMaxSweepPoints);
  if (index >= points_total)
    throw InputError(file, pointer + "/index", fmt::format("point {} of a sweep of {}", index, points_total));
  if (!field(row, "scenario", file, pointer).is_string())
    throw InputError(file, pointer + "/scenario", "must be a string");
  if (!field(row, "params", file, pointer).is_object())
    throw InputError(file, pointer + "/params", "must be an object");
  static const std::set<std::string> statuses = {"pass", "fail", "invalid", "error", "crashed", kTimeoutStatus};
  const ordered_json& status = field(row, "status", file, pointer);
  if (!status.is_string() || !statuses.count(status.get<std::string>()))
    throw InputError(file, pointer + "/status",
                     "must be one of pass, fail, invalid, error, crashed, timeout; got " + status.dump());
  if (!field(row, "exit_code", file, pointer).is_number_integer())
    throw InputError(file, pointer + "/exit_code", "must be an integer");
  for (const char* k : {"sim_time_ns", "wqes", "bytes", "doorbells", "cqes"}) {
    const ordered_json& v = field(row, k, file, pointer);
    if (!v.is_null() && !v.is_number())
      throw InputError(file, pointer + "/" + k, "must be a number or null");
  }
  const ordered_json& hazards = field(row, "hazards", file, pointer);
  if (!hazards.is_array()) throw InputError(file, pointer + "/hazards", "must be an array of hazard ids");
  for (size_t i = 0; i < hazards.size(); ++i)
    if (!hazards[i].is_string()) throw InputError(file, fmt::format("{}/hazards/{}", pointer, i), "must be a string");
  if (!field(row, "columns", file, pointer).is_object())
    throw InputError(file, pointer + "/columns", "must be an object");
  if (row.contains("detail") && !row["detail"].is_string())
    throw InputError(file, pointer + "/detail", "must be a string");
}

void check_results_document(const ordered_json& doc, const std::string& file) {
  if (!doc.is_object()) throw InputError(file, "", "a sweep results file is a JSON object");
  const ordered_json& version = field(doc, "symsim_sweep", file, "");
  if (!version.is_number_unsigned() || version.get<uint64_t>() != 1)
    throw InputError(file, "/symsim_sweep", "not a sweep results file (expected 1, got " + version.dump() + ")");
  if (!field(doc, "name", file, "").is_string()) throw InputError(file, "/name", "must be a string");
  if (!field(doc, "sweep_hash", file, "").is_string()) throw InputError(file, "/sweep_hash", "must be a string");
  const size_t total = unsigned_field(doc, "points_total", file, "", kMaxSweepPoints);
  if (total == 0) throw InputError(file, "/points_total", "a sweep has at least one point");
  const ordered_json& shard = field(doc, "shard", file, "");
  if (!shard.is_object()) throw InputError(file, "/shard", "must be an object {\"index\": I, \"count\": M}");
  const size_t count = unsigned_field(shard, "count", file, "/shard", kMaxSweepPoints);
  const size_t index = unsigned_field(shard, "index", file, "/shard", kMaxSweepPoints);
  if (count == 0) throw InputError(file, "/shard/count", "must be at least 1");
  if (index >= count) throw InputError(file, "/shard/index", fmt::format("shard {} of {}: need index < count", index, count));
  string_array(doc, "grid_keys", file);
  string_array(doc, "columns", file);
  if (doc.contains("partial"))
    throw InputError(file, "/partial",
                     "this table is partial (the sweep was stopped: " + doc["partial"].dump() +
                         "); finish it with `symsim sweep SWEEP.json --resume --out` on its folder");
  const ordered_json& points = field(doc, "points", file, "");
  if (!points.is_array()) throw InputError(file, "/points", "must be an array");
  for (size_t k = 0; k < points.size(); ++k) {
    const std::string pointer = fmt::format("/points/{}", k);
    check_row(points[k], file, pointer, total);
    const size_t i = points[k]["index"].get<size_t>();
    if (i % count != index)
      throw InputError(file, pointer + "/index",
                       fmt::format("point {} does not belong to shard {}/{} (index % {} == {})", i, index, count,
                                   count, i % count));
  }
}

}  // namespace symsim::sweep

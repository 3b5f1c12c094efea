#include "sim/sweep/sweep_table.h"

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "sim/io/output_file.h"
#include "sim/io/strict_json.h"
#include "sim/scenario/input_error.h"
#include "sim/package/version.h"
#include "sim/sweep/results_check.h"

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

namespace symsim::sweep {

namespace {

// Fixed result columns: name and JSON pointer into result.json.
const std::vector<std::pair<const char*, const char*>> kResultColumns = {
    {"sim_time_ns", "/sim_time_ns"},
    {"wqes", "/stats/totals/wqes"},
    {"bytes", "/stats/totals/bytes"},
    {"doorbells", "/stats/totals/doorbells"},
    {"cqes", "/stats/totals/cqes"}};

ordered_json at_pointer(const json& doc, const std::string& pointer) {
  if (doc.is_null()) return nullptr;
  try {
    const json::json_pointer p(pointer);
    return doc.contains(p) ? ordered_json(doc.at(p)) : ordered_json(nullptr);
  } catch (const json::exception&) {
    return nullptr;
  }
}

std::string csv_cell(const ordered_json& v) {
  std::string text = v.is_null() ? "" : v.is_string() ? v.get<std::string>() : v.dump();
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// Largest tables and point results read back: a million rows of a few hundred bytes, and a
// result.json of thousands of PEs' statistics.
constexpr size_t kMaxResultsBytes = size_t{1} << 30;
constexpr size_t kMaxPointResultBytes = size_t{256} << 20;

ordered_json read_json(const fs::path& p, size_t max_bytes) {
  const std::string text = io::read_regular_file(p.string(), max_bytes);
  try {
    return ordered_json::parse(text);
  } catch (const ordered_json::exception& e) {
    throw InputError(p.string(), "", std::string("not JSON: ") + e.what());
  }
}

// A point's result.json as --merge copies it: present when the row says the worker wrote one
// (pass, fail), and JSON whenever present. `row_at` names the row that vouches for it.
void check_point_result(const fs::path& src, const ordered_json& row, const std::string& row_at) {
  const std::string status = row["status"].get<std::string>();
  const bool needed = status == "pass" || status == "fail";
  if (!fs::exists(src)) {
    if (needed)
      throw InputError(src.string(), "",
                       fmt::format("missing, but {} says point {} ran ({})", row_at, row["index"].dump(), status));
    return;
  }
  const ordered_json result = read_json(src, kMaxPointResultBytes);
  if (!result.is_object()) throw InputError(src.string(), "", "a result.json is a JSON object");
}

}  // namespace

ordered_json point_row(const SweepSpec& spec, const Point& point, const PointOutcome& o) {
  ordered_json row;
  row["index"] = point.index;
  row["scenario"] = point.scenario;
  row["params"] = point.params;
  row["status"] = o.status;
  row["exit_code"] = o.exit_code;
  for (const auto& [name, ptr] : kResultColumns) row[name] = at_pointer(o.result, ptr);
  ordered_json hazards = ordered_json::array();
  if (!o.result.is_null() && o.result.contains("hazards")) {
    std::set<std::string> seen;
    for (const json& h : o.result["hazards"])
      if (seen.insert(h.value("id", std::string())).second) hazards.push_back(h.value("id", std::string()));
  }
  row["hazards"] = hazards;
  ordered_json extra = ordered_json::object();
  for (const Column& c : spec.columns) extra[c.name] = at_pointer(o.result, c.pointer);
  row["columns"] = extra;
  if (!o.detail.empty()) row["detail"] = o.detail;
  return row;
}

ordered_json results_document(const SweepSpec& spec, Shard shard, std::vector<ordered_json> rows,
                              const std::string& partial_reason) {
  std::sort(rows.begin(), rows.end(),
            [](const ordered_json& a, const ordered_json& b) { return a["index"] < b["index"]; });
  ordered_json doc;
  doc["symsim_sweep"] = 1;
  doc["tool"] = symsim::tool_json();
  doc["name"] = spec.name;
  doc["sweep_hash"] = spec.hash;
  doc["points_total"] = spec.points.size();
  doc["shard"] = {{"index", shard.index}, {"count", shard.count}};
  doc["grid_keys"] = spec.grid_keys;
  ordered_json cols = ordered_json::array();
  for (const Column& c : spec.columns) cols.push_back(c.name);
  doc["columns"] = cols;
  if (!partial_reason.empty()) {
    size_t in_shard = 0;
    for (const Point& p : spec.points) in_shard += p.index % shard.count == shard.index;
    doc["partial"] = {{"reason", partial_reason}, {"points_missing", in_shard - rows.size()}};
  }
  doc["points"] = std::move(rows);
  return doc;
}

void write_text_file(const fs::path& path, const std::string& text) { io::write_file(path.string(), text); }

void write_results(const fs::path& dir, const ordered_json& doc) {
  io::create_output_dir(dir.string());
  std::ostringstream csv;
  std::vector<std::string> header = {"index", "scenario"};
  for (const auto& k : doc["grid_keys"]) header.push_back(k.get<std::string>());
  header.insert(header.end(), {"status", "exit_code"});
  for (const auto& c : kResultColumns) header.push_back(c.first);
  header.push_back("hazards");
  for (const auto& c : doc["columns"]) header.push_back(c.get<std::string>());
  header.insert(header.end(), {"symsim_version", "symsim_commit"});
  const ordered_json tool = doc.value("tool", ordered_json::object());
  csv << fmt::format("{}\n", fmt::join(header, ","));
  for (const ordered_json& row : doc["points"]) {
    std::vector<std::string> cells = {csv_cell(row["index"]), csv_cell(row["scenario"])};
    for (const auto& k : doc["grid_keys"])
      cells.push_back(csv_cell(row["params"].value(k.get<std::string>(), ordered_json())));
    cells.push_back(csv_cell(row["status"]));
    cells.push_back(csv_cell(row["exit_code"]));
    for (const auto& c : kResultColumns) cells.push_back(csv_cell(row[c.first]));
    std::vector<std::string> ids;
    for (const auto& h : row["hazards"]) ids.push_back(h.get<std::string>());
    cells.push_back(csv_cell(fmt::format("{}", fmt::join(ids, ";"))));
    for (const auto& c : doc["columns"])
      cells.push_back(csv_cell(row["columns"].value(c.get<std::string>(), ordered_json())));
    cells.push_back(csv_cell(tool.value("version", ordered_json())));
    cells.push_back(csv_cell(tool.value("commit", ordered_json())));
    csv << fmt::format("{}\n", fmt::join(cells, ","));
  }
  write_text_file(dir / "results.json", doc.dump(2) + "\n");
  write_text_file(dir / "results.csv", csv.str());
}

ordered_json merge_shards(const std::vector<std::string>& dirs, const fs::path& out) {
  if (dirs.empty()) throw InputError("--merge", "", "give the shard result folders to merge");
  ordered_json merged;
  std::map<size_t, ordered_json> rows;
  std::map<size_t, fs::path> from;
  std::set<size_t> shards_seen;
  for (const std::string& d : dirs) {
    const std::string file = (fs::path(d) / "results.json").string();
    const ordered_json doc = read_json(file, kMaxResultsBytes);
    check_results_document(doc, file);
    const size_t index = doc["shard"]["index"].get<size_t>(), count = doc["shard"]["count"].get<size_t>();
    if (merged.is_null()) {
      merged = doc;
      merged["points"] = ordered_json::array();
    } else {
      if (doc["sweep_hash"] != merged["sweep_hash"] || doc["name"] != merged["name"])
        throw InputError(
            file, "/sweep_hash",
            fmt::format("shard of a different sweep ({} {}, expected {} {})", doc["name"].dump(),
                        doc["sweep_hash"].dump(), merged["name"].dump(), merged["sweep_hash"].dump()));
      if (doc["points_total"] != merged["points_total"])
        throw InputError(file, "/points_total",
                         fmt::format("{} points here, {} in the first folder", doc["points_total"].dump(),
                                     merged["points_total"].dump()));
      if (doc.value("tool", ordered_json()) != merged.value("tool", ordered_json()))
        throw InputError(file, "/tool",
                         fmt::format("shard made by {}, the first folder's by {}: merge shards of one symsim build",
                                     doc.value("tool", ordered_json()).dump(), merged.value("tool", ordered_json()).dump()));
      if (doc["shard"]["count"] != merged["shard"]["count"])
        throw InputError(
            file, "/shard/count",
            fmt::format("{} shards here, {} in the first folder", count, merged["shard"]["count"].dump()));
    }
    if (!shards_seen.insert(index).second)
      throw InputError(file, "/shard/index", fmt::format("shard {}/{} given twice", index, count));
    if (doc["grid_keys"] != merged["grid_keys"] || doc["columns"] != merged["columns"])
      throw InputError(file, "/grid_keys", "grid keys or columns differ from the first folder's");
    for (size_t k = 0; k < doc["points"].size(); ++k) {
      const ordered_json& row = doc["points"][k];
      const size_t i = row["index"].get<size_t>();
      const std::string row_at = fmt::format("{} /points/{}", file, k);
      if (!rows.emplace(i, row).second)
        throw InputError(file, fmt::format("/points/{}", k), fmt::format("point {} appears twice", i));
      check_point_result(fs::path(d) / "points" / std::to_string(i) / "result.json", row, row_at);
      from[i] = fs::path(d);
    }
  }
  const size_t total = merged["points_total"].get<size_t>();
  std::vector<size_t> missing;
  for (size_t i = 0; i < total; ++i)
    if (!rows.count(i)) missing.push_back(i);
  if (!missing.empty()) {
    const size_t count = merged["shard"]["count"].get<size_t>();
    std::set<size_t> shards_missing;
    for (size_t i : missing) shards_missing.insert(i % count);
    throw InputError("--merge", "",
                     fmt::format("{} of {} points missing (shards {} of {} not given or incomplete)",
                                 missing.size(), total, fmt::join(shards_missing, ","), count));
  }
  merged["shard"] = {{"index", 0}, {"count", 1}};
  for (auto& [i, row] : rows) {
    merged["points"].push_back(row);
    const fs::path src = from[i] / "points" / std::to_string(i) / "result.json";
    if (fs::exists(src)) {
      const fs::path dst = out / "points" / std::to_string(i) / "result.json";
      if (fs::exists(dst) && fs::equivalent(src, dst)) continue;  // merging into a shard's own folder
      io::create_output_dir(dst.parent_path().string());
      write_text_file(dst, io::read_regular_file(src.string(), kMaxPointResultBytes));
    }
  }
  write_results(out, merged);
  return merged;
}

}  // namespace symsim::sweep

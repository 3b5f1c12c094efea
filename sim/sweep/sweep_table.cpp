#include "sweep/sweep_table.h"

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "scenario/input_error.h"
#include "package/version.h"

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

ordered_json read_json(const fs::path& p) {
  std::ifstream in(p);
  if (!in) throw InputError(p.string(), "", "cannot open the file");
  try {
    return ordered_json::parse(in);
  } catch (const ordered_json::parse_error& e) {
    throw InputError(p.string(), "", std::string("not JSON: ") + e.what());
  }
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

ordered_json results_document(const SweepSpec& spec, Shard shard, std::vector<ordered_json> rows) {
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
  doc["points"] = std::move(rows);
  return doc;
}

void write_results(const fs::path& dir, const ordered_json& doc) {
  fs::create_directories(dir);
  std::ofstream(dir / "results.json") << doc.dump(2) << "\n";
  std::ofstream csv(dir / "results.csv");
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
}

ordered_json merge_shards(const std::vector<std::string>& dirs, const fs::path& out) {
  if (dirs.empty()) throw InputError("--merge", "", "give the shard result folders to merge");
  ordered_json merged;
  std::map<size_t, ordered_json> rows;
  std::map<size_t, fs::path> from;
  std::set<size_t> shards_seen;
  for (const std::string& d : dirs) {
    const ordered_json doc = read_json(fs::path(d) / "results.json");
    if (doc.value("symsim_sweep", 0) != 1) throw InputError(d, "/symsim_sweep", "not a sweep results file");
    const size_t index = doc["shard"]["index"].get<size_t>(), count = doc["shard"]["count"].get<size_t>();
    if (merged.is_null()) {
      merged = doc;
      merged["points"] = ordered_json::array();
    } else {
      if (doc["sweep_hash"] != merged["sweep_hash"] || doc["name"] != merged["name"])
        throw InputError(
            d, "/sweep_hash",
            fmt::format("shard of a different sweep ({} {}, expected {} {})", doc["name"].dump(),
                        doc["sweep_hash"].dump(), merged["name"].dump(), merged["sweep_hash"].dump()));
      if (doc.value("tool", ordered_json()) != merged.value("tool", ordered_json()))
        throw InputError(d, "/tool",
                         fmt::format("shard made by {}, the first folder's by {}: merge shards of one symsim build",
                                     doc.value("tool", ordered_json()).dump(), merged.value("tool", ordered_json()).dump()));
      if (doc["shard"]["count"] != merged["shard"]["count"])
        throw InputError(
            d, "/shard/count",
            fmt::format("{} shards here, {} in the first folder", count, merged["shard"]["count"].dump()));
    }
    if (!shards_seen.insert(index).second)
      throw InputError(d, "/shard/index", fmt::format("shard {}/{} given twice", index, count));
    for (const ordered_json& row : doc["points"]) {
      const size_t i = row["index"].get<size_t>();
      if (!rows.emplace(i, row).second)
        throw InputError(d, "/points", fmt::format("point {} appears in two shards", i));
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
      fs::create_directories(out / "points" / std::to_string(i));
      fs::copy_file(src, out / "points" / std::to_string(i) / "result.json",
                    fs::copy_options::overwrite_existing);
    }
  }
  write_results(out, merged);
  return merged;
}

}  // namespace symsim::sweep

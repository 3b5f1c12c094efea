#include "hw/runner/hw_scenario.h"

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "kernels/registry/kernel_registry.h"

namespace symsim::hw {

namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& file, const std::string& pointer, const std::string& what) {
  throw InputError(file + ": " + pointer + ": " + what);
}

double number_at(const json& j, const std::string& file, const std::string& pointer) {
  if (!j.is_number()) bad(file, pointer, "must be a number");
  return j.get<double>();
}

void apply_set(json& doc, const std::string& file, const std::string& set, std::vector<std::string>& ignored) {
  const size_t eq = set.find('=');
  if (eq == std::string::npos) bad(file, "--set " + set, "expected PATH=VALUE");
  const std::string path = set.substr(0, eq);
  json value;
  try {
    value = json::parse(set.substr(eq + 1));
  } catch (const json::exception&) {
    value = set.substr(eq + 1);
  }
  if (path.rfind("kernel.args.", 0) == 0) doc["kernel"]["args"][path.substr(12)] = value;
  else if (path == "kernel.blocks") doc["kernel"]["blocks"] = value;
  else if (path == "pes" || path == "seed") doc[path] = value;
  else if (path.rfind("platform.", 0) == 0) ignored.push_back(set);
  else bad(file, "--set " + path, "symsim-hw takes kernel.args.NAME, kernel.blocks, pes, seed (and ignores platform.*)");
}

}  // namespace

HwScenario load_hw_scenario(const std::string& path, const std::vector<std::string>& sets) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open");
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::exception& e) {
    throw InputError(path + ": not JSON: " + e.what());
  }
  std::vector<std::string> ignored;
  for (const std::string& set : sets) apply_set(doc, path, set, ignored);
  static const std::set<std::string> known = {"symsim", "name", "description", "seed",     "platform", "overrides",
                                              "pes",    "kernel", "faults",    "expect", "checkers"};
  for (const auto& [key, value] : doc.items())
    if (!known.count(key)) bad(path, "/" + key, "unknown key");
  if (doc.value("symsim", 0) != 1) bad(path, "/symsim", "must be 1");
  HwScenario s;
  s.file = path;
  s.name = doc.value("name", std::string("unnamed"));
  s.seed = static_cast<uint64_t>(number_at(doc.value("seed", json(1)), path, "/seed"));
  s.platform = doc["platform"].is_string() ? doc["platform"].get<std::string>() : "inline";
  s.pes = static_cast<int>(number_at(doc.value("pes", json(2)), path, "/pes"));
  if (s.pes < 1 || s.pes > 72) bad(path, "/pes", "must be 1..72");
  const json& k = doc["kernel"];
  if (!k.is_object() || !k["name"].is_string()) bad(path, "/kernel/name", "missing");
  s.kernel = k["name"].get<std::string>();
  const KernelInfo* info = KernelRegistry::instance().find(s.kernel);
  if (!info) bad(path, "/kernel/name", "'" + s.kernel + "' is not a kernel symsim-hw was built with (symsim-hw list)");
  s.blocks = static_cast<int>(number_at(k.value("blocks", json(1)), path, "/kernel/blocks"));
  if (s.blocks < 1 || s.blocks > info->max_blocks) bad(path, "/kernel/blocks", "must be 1.." + std::to_string(info->max_blocks));
  const json args = k.value("args", json::object());
  for (const auto& [name, value] : args.items()) {
    bool declared = false;
    for (const KernelArg& a : info->args) declared = declared || a.name == name;
    if (!declared) bad(path, "/kernel/args/" + name, "not an argument of " + s.kernel);
  }
  for (const KernelArg& a : info->args) {
    double v = a.default_value;
    if (args.contains(a.name)) v = number_at(args[a.name], path, "/kernel/args/" + a.name);
    if (v < a.min || v > a.max || (a.integer && std::floor(v) != v)) {
      std::ostringstream msg;
      msg << "must be " << (a.integer ? "an integer " : "") << "in " << a.min << ".." << a.max;
      bad(path, "/kernel/args/" + a.name, msg.str());
    }
    s.args[a.name] = v;
  }
  if (doc.contains("faults") && !doc["faults"].empty())
    bad(path, "/faults", "faults are injected by the simulator's models; a hardware run cannot inject them");
  const json expect = doc.value("expect", json::object());
  if (expect.contains("hazards") && !expect["hazards"].empty())
    s.notes.push_back("expect.hazards not checked: hazard checkers are the simulator's (the host checks still run)");
  for (const char* key : {"max_sim_time_us", "min_sim_time_us"})
    if (expect.contains(key)) s.notes.push_back(std::string("expect.") + key + " not checked: it bounds simulated time");
  if (doc.contains("overrides") || doc.contains("platform"))
    s.notes.push_back("platform '" + s.platform + "' and its overrides describe the simulated machine; this run measures the real one");
  for (const std::string& set : ignored) s.notes.push_back("--set " + set + " ignored: it sets a simulated platform value");
  json effective_args = json::object();
  for (const auto& [name, v] : s.args) effective_args[name] = v;
  s.effective = {{"pes", s.pes}, {"seed", s.seed}, {"platform", s.platform},
                 {"kernel", {{"name", s.kernel}, {"blocks", s.blocks}, {"args", effective_args}}}};
  return s;
}

}  // namespace symsim::hw

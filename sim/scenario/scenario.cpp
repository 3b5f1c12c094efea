#include "sim/scenario/scenario.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "sim/checkers/catalog.h"
#include "kernels/registry/kernel_constraints.h"
#include "kernels/registry/kernel_registry.h"
#include "models/fabric/fabric.h"
#include "models/platform/ascend_params.h"
#include "sim/package/install_layout.h"
#include "sim/scenario/input_error.h"
#include "sim/runner/platform_family.h"
#include "sim/scenario/resource_estimate.h"
#include "sim/scenario/schema_check.h"
#include "sim/scenario/set_override.h"
#include "sim/io/strict_json.h"

#ifndef SYMSIM_SOURCE_DIR
#define SYMSIM_SOURCE_DIR "."
#endif

namespace symsim {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const char* type_name(const json& j) { return j.type_name(); }

// Scenario and preset files: regular files of bounded size, duplicate keys refused (sim/io).
json read_json(const std::string& path) { return io::read_strict_json_file(path); }

// Walks a JSON object checking types and keys, building pointers for messages.
class Checker {
 public:
  explicit Checker(std::string file) : m_file(std::move(file)) {}
  [[noreturn]] void fail(const std::string& ptr, const std::string& what) const { throw InputError(m_file, ptr, what); }

  void only_keys(const json& obj, const std::string& ptr, std::initializer_list<const char*> allowed) const {
    if (!obj.is_object()) fail(ptr.empty() ? "/" : ptr, fmt::format("expected an object, got {}", type_name(obj)));
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      bool ok = false;
      for (const char* a : allowed) ok = ok || it.key() == a;
      if (!ok) {
        std::string list;
        for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        fail(ptr + "/" + it.key(), fmt::format("unknown key '{}' (allowed: {})", it.key(), list));
      }
    }
  }
  const json& require(const json& obj, const std::string& ptr, const char* key) const {
    if (!obj.contains(key)) fail(ptr + "/" + key, "missing required key");
    return obj.at(key);
  }
  std::string string(const json& j, const std::string& ptr) const {
    if (!j.is_string()) fail(ptr, fmt::format("expected a string, got {}", type_name(j)));
    return j.get<std::string>();
  }
  double number(const json& j, const std::string& ptr, double min, double max, bool integer) const {
    if (!j.is_number()) fail(ptr, fmt::format("expected a number, got {}", type_name(j)));
    const double v = j.get<double>();
    if (integer && std::floor(v) != v) fail(ptr, fmt::format("expected an integer, got {}", v));
    if (v < min || v > max) fail(ptr, fmt::format("{} is out of range [{}, {}]", v, min, max));
    return v;
  }

 private:
  std::string m_file;
};

std::string pointer_escape(const std::string& key) { return io::json_pointer_escape(key); }

// Loads a preset file: {"symsim_platform":1,"name","family","description","params":{key:{value,source}}}.
void load_preset(const std::string& name, Scenario& s) {
  // Match against the listed presets, never the raw name as a path: a name may be
  // overlong or hold "../" and must still give exit 2, not a filesystem error.
  const std::vector<std::string> known = platform_names();
  if (std::find(known.begin(), known.end(), name) == known.end()) {
    std::string list;
    for (const auto& n : known) list += (list.empty() ? "" : ", ") + n;
    const std::string shown = name.size() > 64 ? name.substr(0, 64) + "..." : name;
    throw InputError(s.file, "/platform", fmt::format("unknown platform '{}' (known: {})", shown, list));
  }
  const std::string path = platform_dir() + "/" + name + ".json";
  const json j = read_json(path);
  Checker c(path);
  c.only_keys(j, "", {"symsim_platform", "name", "family", "description", "params"});
  s.platform_family = c.string(c.require(j, "", "family"), "/family");
  const PlatformFamily* family = find_family(s.platform_family);
  if (!family) c.fail("/family", fmt::format("unknown platform family '{}' (known: {})", s.platform_family, family_names()));
  const json& params = c.require(j, "", "params");
  const ParamTable table = family->parameters();
  for (const ParamInfo& p : table) {
    const std::string ptr = "/params/" + pointer_escape(p.key);
    if (!params.contains(p.key)) c.fail(ptr, "missing: a preset must set every parameter");
    const json& entry = params.at(p.key);
    c.only_keys(entry, ptr, {"value", "source", "unit"});
    s.params[p.key] = c.number(c.require(entry, ptr, "value"), ptr + "/value", p.min, p.max, p.integer);
    s.param_sources[p.key] = c.string(c.require(entry, ptr, "source"), ptr + "/source");
  }
  for (auto it = params.begin(); it != params.end(); ++it)
    if (!s.params.count(it.key())) c.fail("/params/" + pointer_escape(it.key()), "unknown platform parameter");
}

// A name is shown in summaries and names the default output folder: bounded, printable.
void check_name(const Checker& c, const std::string& name) {
  if (name.empty()) c.fail("/name", "must not be empty");
  if (name.size() > kMaxScenarioNameBytes)
    c.fail("/name", fmt::format("is {} bytes long, more than {}", name.size(), kMaxScenarioNameBytes));
  for (unsigned char ch : name)
    if (ch < 0x20 || ch == 0x7f) c.fail("/name", "must not contain control characters");
}

// What the run will map and what the kernel's heap needs must fit: validate and run agree.
void check_resources(const Checker& c, const Scenario& s) {
  if (const KernelArgsCheck* check = find_kernel_args_check(s.kernel))
    if (const auto problem = (*check)(KernelArgs(s.args, s.blocks), s.pes))
      c.fail(problem->field == "pes" ? "/pes" : "/kernel/args/" + pointer_escape(problem->field),
             fmt::format("kernel '{}': {}", s.kernel, problem->what));
  const ResourceEstimate e = estimate_resources(s);
  const auto pointer_of = [&](const std::string& key) {
    const auto it = s.param_pointers.find(key);
    return it != s.param_pointers.end() ? it->second : "/platform";
  };
  if (e.heap_limit_bytes_per_pe == 0)
    c.fail(pointer_of("hbm.bytes"), fmt::format("hbm.bytes ({}) leaves no room for the symmetric heap after the "
                                                "runtime's own area", format_bytes(static_cast<uint64_t>(s.params.at("hbm.bytes")))));
  if (e.heap_bytes_per_pe && *e.heap_bytes_per_pe > e.heap_limit_bytes_per_pe)
    c.fail("/kernel/args", fmt::format("kernel '{}' needs a symmetric heap of {} per PE with these arguments; "
                                       "hbm.bytes ({}) leaves room for {}",
                                       s.kernel, format_bytes(*e.heap_bytes_per_pe), format_bytes(static_cast<uint64_t>(s.params.at("hbm.bytes"))),
                                       format_bytes(e.heap_limit_bytes_per_pe)));
  const AddressSpaceProbe probe = probe_address_space(e);
  bool blame_pes = probe.first_pe_fits;
  if (!probe.ok && !blame_pes && s.pes > 1) {  // one mapping for all PEs (NVIDIA): would one PE fit?
    Scenario one = s;
    one.pes = 1;
    blame_pes = probe_address_space(estimate_resources(one)).ok;
  }
  if (!probe.ok)
    c.fail(blame_pes ? "/pes" : pointer_of("hbm.bytes"),
           fmt::format("the run needs {} of address space ({}); this machine could reserve only {} of it ({})",
                       format_bytes(e.address_space_bytes), e.address_space_summary(), format_bytes(probe.reserved_bytes),
                       probe.failed_at));
}

void apply_override(const Checker& c, Scenario& s, const std::string& key, const json& value, const std::string& ptr) {
  for (const ParamInfo& p : find_family(s.platform_family)->parameters()) {
    if (p.key == key) {
      s.params[key] = c.number(value, ptr, p.min, p.max, p.integer);
      s.param_sources[key] = "scenario override";
      s.param_pointers[key] = ptr;
      return;
    }
  }
  c.fail(ptr, fmt::format("unknown platform parameter '{}'", key));
}

}  // namespace

std::string platform_dir() {
  if (const char* env = std::getenv("SYMSIM_PLATFORM_DIR")) return env;
  if (const auto share = installed_data_dir()) return *share + "/platforms";  // a (moved) install
  return std::string(SYMSIM_SOURCE_DIR) + "/scenarios/platforms";
}

std::vector<std::string> platform_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(platform_dir(), ec))
    if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

Scenario load_scenario(const std::string& path, const LoadOptions& options) {
  return load_scenario_text(io::read_regular_file(path), path, options);
}

Scenario load_scenario_text(const std::string& text, const std::string& path, const LoadOptions& options) {
  Scenario s;
  s.file = path;
  json doc = io::parse_strict_json(text, path);
  const Checker c(path);
  if (!doc.is_object()) c.fail("/", fmt::format("expected an object, got {}", type_name(doc)));
  for (const std::string& set : options.sets) apply_set(doc, path, parse_set(set, path));
  if (options.seed) doc["seed"] = *options.seed;
  // The structure (keys, types, fixed ranges) is the published schema's; what depends on the
  // preset, the kernel or the fabric is checked below.
  check_against_schema(SchemaKind::kScenario, doc, path);

  if (c.number(c.require(doc, "", "symsim"), "/symsim", 1, 1, true) != 1) c.fail("/symsim", "unsupported version");
  s.name = c.string(c.require(doc, "", "name"), "/name");
  check_name(c, s.name);
  if (doc.contains("description")) s.description = c.string(doc["description"], "/description");
  if (doc.contains("seed")) s.seed = static_cast<uint64_t>(c.number(doc["seed"], "/seed", 0, 9007199254740991.0, true));

  const json& platform = c.require(doc, "", "platform");
  if (platform.is_string()) {
    s.platform_name = platform.get<std::string>();
    load_preset(s.platform_name, s);
  } else if (platform.is_object()) {
    s.platform_name = c.string(c.require(platform, "/platform", "base"), "/platform/base");
    load_preset(s.platform_name, s);
    if (platform.contains("params")) {
      const json& p = platform["params"];
      for (auto it = p.begin(); it != p.end(); ++it)
        apply_override(c, s, it.key(), it.value(), "/platform/params/" + pointer_escape(it.key()));
    }
  } else {
    c.fail("/platform", fmt::format("expected a preset name or an object, got {}", type_name(platform)));
  }
  if (doc.contains("overrides")) {
    const json& o = doc["overrides"];
    for (auto it = o.begin(); it != o.end(); ++it)
      apply_override(c, s, it.key(), it.value(), "/overrides/" + pointer_escape(it.key()));
  }
  for (const char* pow2 : find_family(s.platform_family)->pow2_params()) {
    const auto v = static_cast<uint64_t>(s.params[pow2]);
    if ((v & (v - 1)) != 0) c.fail(std::string("/overrides/") + pow2, fmt::format("{} must be a power of two", v));
  }

  s.pes = static_cast<int>(c.number(c.require(doc, "", "pes"), "/pes", 1, kMaxPes, true));

  const json& k = c.require(doc, "", "kernel");
  s.kernel = c.string(c.require(k, "/kernel", "name"), "/kernel/name");
  const KernelInfo* info = KernelRegistry::instance().find(s.kernel);
  if (!info) {
    std::string known;
    for (const auto& [name, _] : KernelRegistry::instance().all()) known += (known.empty() ? "" : ", ") + name;
    c.fail("/kernel/name", fmt::format("unknown kernel '{}' (known: {}); a kernel built as a library "
                                       "(cmake/SymsimKernelLibrary.cmake) is named after loading it with "
                                       "--kernel-lib FILE.so",
                                       s.kernel, known));
  }
  if (info->platform_family != s.platform_family)
    c.fail("/kernel/name", fmt::format("kernel '{}' runs on {} platforms, '{}' is {}", s.kernel, info->platform_family,
                                       s.platform_name, s.platform_family));
  const int max_blocks =
      std::min(info->max_blocks, static_cast<int>(s.params[find_family(s.platform_family)->blocks_param()]));
  if (k.contains("blocks")) s.blocks = static_cast<int>(c.number(k["blocks"], "/kernel/blocks", 1, max_blocks, true));
  for (const KernelArg& a : info->args) s.args[a.name] = a.default_value;
  if (k.contains("args")) {
    const json& args = k["args"];
    for (auto it = args.begin(); it != args.end(); ++it) {
      const std::string ptr = "/kernel/args/" + pointer_escape(it.key());
      const auto a = std::find_if(info->args.begin(), info->args.end(), [&](const KernelArg& x) { return x.name == it.key(); });
      if (a == info->args.end()) {
        std::string known;
        for (const KernelArg& x : info->args) known += (known.empty() ? "" : ", ") + x.name;
        c.fail(ptr, fmt::format("kernel '{}' has no argument '{}' (arguments: {})", s.kernel, it.key(), known));
      }
      s.args[a->name] = c.number(it.value(), ptr, a->min, a->max, a->integer);
    }
  }

  if (doc.contains("faults") && s.platform_family != "ascend" && !doc["faults"].empty())
    c.fail("/faults", fmt::format("fault injection is not implemented for {} platforms yet", s.platform_family));
  if (doc.contains("faults") && s.platform_family == "ascend") {
    const json& f = doc["faults"];
    FaultLimits limits;
    limits.pes = s.pes;
    limits.cores = static_cast<int>(s.params["aiv.cores"]);
    limits.unit_bytes = static_cast<uint32_t>(s.params["fabric.visibility_bytes"]);
    AscendParams ap;
    for (ParamInfo& info : ap.table()) *info.value = s.params.at(info.key);
    const Fabric fabric(s.pes, ap.fabric());
    for (const auto& l : fabric.links()) limits.links.push_back(l->name());
    s.fault_specs = parse_faults(f, path, limits);
    for (size_t i = 0; i < s.fault_specs.size(); ++i)
      if (!fault_implemented(s.fault_specs[i].kind))
        c.fail(fmt::format("/faults/{}/kind", i), fmt::format("fault kind '{}' is not implemented yet", s.fault_specs[i].kind));
    s.faults = f;
  }

  if (doc.contains("checkers")) {
    const json& k = doc["checkers"];
    for (auto it = k.begin(); it != k.end(); ++it) {
      const std::string ptr = "/checkers/" + pointer_escape(it.key());
      if (!is_hazard_id(it.key())) c.fail(ptr, fmt::format("unknown hazard id '{}' (symsim list hazards)", it.key()));
      s.checkers[it.key()] = it.value().get<bool>();
    }
  }

  if (doc.contains("expect")) {
    const json& e = doc["expect"];
    if (e.contains("trap")) s.expect.trap = e["trap"].get<bool>();
    if (e.contains("checks")) s.expect.checks = e["checks"].get<std::string>();  // "pass", "fail" or "any"
    if (e.contains("hazards")) {
      for (size_t i = 0; i < e["hazards"].size(); ++i) {
        const std::string id = c.string(e["hazards"][i], fmt::format("/expect/hazards/{}", i));
        if (!is_hazard_id(id)) c.fail(fmt::format("/expect/hazards/{}", i), fmt::format("unknown hazard id '{}'", id));
        s.expect.hazards.push_back(id);
      }
    }
    if (e.contains("max_sim_time_us")) s.expect.max_sim_time_us = c.number(e["max_sim_time_us"], "/expect/max_sim_time_us", 0, 1e12, false);
    if (e.contains("min_sim_time_us")) s.expect.min_sim_time_us = c.number(e["min_sim_time_us"], "/expect/min_sim_time_us", 0, 1e12, false);
    if (s.expect.min_sim_time_us && s.expect.max_sim_time_us && *s.expect.min_sim_time_us > *s.expect.max_sim_time_us)
      c.fail("/expect/min_sim_time_us", fmt::format("{} is more than max_sim_time_us ({}): no run can meet both",
                                                    *s.expect.min_sim_time_us, *s.expect.max_sim_time_us));
  }

  // Integer-valued parameters and arguments are written as integers (65536, not 65536.0).
  const auto number_json = [](double v, bool integer) { return integer ? json(static_cast<int64_t>(v)) : json(v); };
  json params = json::object();
  for (const ParamInfo& p : find_family(s.platform_family)->parameters())
    params[p.key] = {{"value", number_json(s.params.at(p.key), p.integer)}, {"source", s.param_sources[p.key]}};
  json args = json::object();
  for (const KernelArg& a : info->args) args[a.name] = number_json(s.args.at(a.name), a.integer);
  s.effective = {{"name", s.name}, {"seed", s.seed}, {"platform", {{"name", s.platform_name}, {"params", params}}},
                 {"pes", s.pes}, {"kernel", {{"name", s.kernel}, {"blocks", s.blocks}, {"args", args}}},
                 {"faults", s.faults}};
  if (!s.checkers.empty()) s.effective["checkers"] = s.checkers;
  check_resources(c, s);
  return s;
}

}  // namespace symsim

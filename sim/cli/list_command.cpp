#include "sim/cli/list_command.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "sim/catalog/checker_registry.h"
#include "sim/catalog/param_unit.h"
#include "sim/catalog/statistic.h"
#include "sim/checkers/catalog.h"
#include "sim/io/strict_json.h"
#include "kernels/registry/kernel_registry.h"
#include "sim/runner/platform_family.h"
#include "sim/scenario/scenario.h"

namespace symsim::cli {

using nlohmann::json;

namespace {

constexpr int kExitPass = 0, kExitInput = 2;

constexpr const char* kListable =
    "  symsim list kernels     the kernels a scenario can name (with --kernel-lib FILE.so: a library's too)\n"
    "  symsim list platforms   the platform presets, and each family's parameters (with units)\n"
    "  symsim list faults      the fault kinds a scenario's \"faults\" can inject\n"
    "  symsim list hazards     the hazard ids, for \"checkers\" and \"expect.hazards\"\n"
    "  symsim list checkers    the hazard checkers, their family and the ids each reports\n"
    "  symsim list stats       the statistics of result.json's \"stats\", with units\n"
    "  (--json: the same as one JSON document on stdout)\n";

json kernels() {
  json out = json::array();
  for (const auto& [name, k] : KernelRegistry::instance().all()) {
    json args = json::array();
    for (const KernelArg& a : k.args)
      args.push_back({{"name", a.name}, {"doc", a.doc}, {"default", a.default_value}, {"min", a.min}, {"max", a.max},
                      {"integer", a.integer}});
    out.push_back({{"name", name}, {"family", k.platform_family}, {"doc", k.doc}, {"max_blocks", k.max_blocks},
                   {"args", std::move(args)}});
  }
  return out;
}

json platforms() {
  json presets = json::array();
  for (const std::string& name : platform_names()) {
    std::string family = "?";
    try {
      family = io::read_strict_json_file(platform_dir() + "/" + name + ".json").value("family", "?");
    } catch (const std::exception&) {
      family = "unreadable: symsim validate names what is wrong";
    }
    presets.push_back({{"name", name}, {"family", family}});
  }
  json families = json::array();
  for (const PlatformFamily* f : platform_families()) {
    json params = json::array();
    for (const ParamInfo& i : f->parameters()) {
      const char* unit = catalog::param_unit(i.key);
      params.push_back({{"key", i.key}, {"unit", unit ? unit : ""}, {"doc", i.doc}, {"min", i.min}, {"max", i.max},
                        {"integer", i.integer}});
    }
    families.push_back({{"name", f->name()}, {"parameters", std::move(params)}});
  }
  return {{"presets", std::move(presets)}, {"families", std::move(families)}};
}

json entries(const std::vector<CatalogEntry>& c) {
  json out = json::array();
  for (const CatalogEntry& e : c) out.push_back({{"id", e.id}, {"family", e.families}, {"doc", e.doc}});
  return out;
}

json checkers() {
  json out = json::array();
  for (const catalog::CheckerInfo& c : catalog::checkers()) {
    json ids = json::array();
    for (const HazardId& id : c.ids) ids.push_back(id.name);
    out.push_back({{"name", c.name}, {"family", c.family}, {"hazards", std::move(ids)}, {"doc", c.doc}});
  }
  return out;
}

json stats() {
  json out = json::array();
  for (const Statistic& s : catalog::statistics())
    out.push_back({{"where", s.where}, {"name", s.name}, {"unit", s.unit}, {"family", s.family}, {"doc", s.doc}});
  return out;
}

void print_text(const std::string& what, const json& j) {
  if (what == "kernels") {
    for (const json& k : j) {
      std::cout << fmt::format("{:<20} [{}] {}\n", k["name"].get<std::string>(), k["family"].get<std::string>(),
                               k["doc"].get<std::string>());
      for (const json& a : k["args"])
        std::cout << fmt::format("    {:<14} {} (default {}, range {}..{})\n", a["name"].get<std::string>(),
                                 a["doc"].get<std::string>(), a["default"].get<double>(), a["min"].get<double>(),
                                 a["max"].get<double>());
    }
  } else if (what == "platforms") {
    for (const json& p : j["presets"])
      std::cout << fmt::format("{:<20} [{}]\n", p["name"].get<std::string>(), p["family"].get<std::string>());
    for (const json& f : j["families"]) {
      const std::string name = f["name"].get<std::string>();
      std::cout << fmt::format("\n{} parameters (each {} preset sets all of them, with its source):\n", name, name);
      for (const json& i : f["parameters"])
        std::cout << fmt::format("    {:<34} {:<9} {}\n", i["key"].get<std::string>(), i["unit"].get<std::string>(),
                                 i["doc"].get<std::string>());
    }
  } else if (what == "faults" || what == "hazards") {
    for (const json& e : j)
      std::cout << fmt::format("{:<28} [{}] {}\n", e["id"].get<std::string>(), e["family"].get<std::string>(),
                               e["doc"].get<std::string>());
  } else if (what == "checkers") {
    for (const json& c : j) {
      std::string ids;
      for (const json& id : c["hazards"]) ids += (ids.empty() ? "" : ", ") + id.get<std::string>();
      std::cout << fmt::format("{:<28} [{}] {}\n    reports: {}\n", c["name"].get<std::string>(),
                               c["family"].get<std::string>(), c["doc"].get<std::string>(), ids);
    }
  } else if (what == "stats") {
    for (const json& s : j)
      std::cout << fmt::format("{:<14} {:<22} {:<9} {}\n", s["where"].get<std::string>(), s["name"].get<std::string>(),
                               s["unit"].get<std::string>(), s["doc"].get<std::string>());
  }
}

}  // namespace

ListCommand::ListCommand(CLI::App& app, std::vector<std::string>& kernel_libs) {
  m_cmd = app.add_subcommand("list", "list kernels, platforms, faults, hazards, checkers or stats");
  m_cmd->add_option("what", m_what, "kernels|platforms|faults|hazards|checkers|stats");
  m_cmd->add_flag("--json", m_json, "print one JSON document instead of text");
  m_cmd->add_option("--kernel-lib", kernel_libs, "load a kernel library first, repeatable");
}

std::optional<int> ListCommand::dispatch() {
  if (!*m_cmd) return std::nullopt;
  json j;
  if (m_what == "kernels") {
    j = kernels();
  } else if (m_what == "platforms") {
    j = platforms();
  } else if (m_what == "faults") {
    j = entries(fault_catalog());
  } else if (m_what == "hazards") {
    j = entries(hazard_catalog());
  } else if (m_what == "checkers") {
    j = checkers();
  } else if (m_what == "stats") {
    j = stats();
  } else if (m_what.empty()) {
    std::cout << "symsim list WHAT, where WHAT is one of:\n" << kListable;
    return kExitPass;
  } else {
    std::cerr << fmt::format("symsim list: cannot list '{}'; it lists:\n{}", m_what, kListable);
    return kExitInput;
  }
  if (m_json) {
    std::cout << j.dump(2) << "\n";
  } else {
    print_text(m_what, j);
  }
  return kExitPass;
}

}  // namespace symsim::cli

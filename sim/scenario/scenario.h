// A scenario file (version 1, docs/scenario-format.md), validated and resolved: the platform
// preset with its overrides applied, the kernel and its arguments, faults and expectations.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/faults/fault_spec.h"

namespace symsim {

constexpr int kMaxPes = 4096;                // "pes" and trace PE lists
constexpr size_t kMaxScenarioNameBytes = 200;  // "name" (it names the default output folder)

struct Expectations {
  std::vector<std::string> hazards;  // hazard ids that must be reported (and no others)
  std::optional<double> max_sim_time_us;
  std::optional<double> min_sim_time_us;
  bool trap = false;              // a kernel must trap (true) or none may (false)
  std::string checks = "pass";    // the host drivers' verifications: "pass", "fail" or "any"
};

struct Scenario {
  std::string file;
  std::string name;
  std::string description;
  uint64_t seed = 1;
  std::string platform_name;
  std::string platform_family;
  std::map<std::string, double> params;  // every platform parameter, overrides applied
  std::map<std::string, std::string> param_sources;
  std::map<std::string, std::string> param_pointers;  // where the scenario set a parameter ("/overrides/hbm.bytes")
  int pes = 2;
  std::string kernel;
  int blocks = 1;
  std::map<std::string, double> args;    // every kernel argument, defaults filled in
  nlohmann::json faults = nlohmann::json::array();
  std::vector<FaultSpec> fault_specs;      // "faults", validated
  std::map<std::string, bool> checkers;    // "checkers": hazard rules switched by id
  Expectations expect;
  nlohmann::json effective;  // the effective configuration, for result.json
};

struct LoadOptions {
  std::vector<std::string> sets;  // --set PATH=VALUE
  std::optional<uint64_t> seed;   // --seed
};

// Reads, overrides and validates; throws InputError on anything wrong.
Scenario load_scenario(const std::string& path, const LoadOptions& options = {});
// The same for a scenario held in memory; `name` stands for the file in messages.
Scenario load_scenario_text(const std::string& text, const std::string& name, const LoadOptions& options = {});

// Where platform presets live (scenarios/platforms), and their names.
std::string platform_dir();
std::vector<std::string> platform_names();

}  // namespace symsim

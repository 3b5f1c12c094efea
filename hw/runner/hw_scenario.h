// A scenario file read by symsim-hw: the same JSON the simulator runs (docs/scenario-format.md),
// of which the hardware runner uses the kernel, its arguments, the PE count and the seed. What
// only a simulator can do (faults, expected hazards) is refused with a clear message.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace symsim::hw {

// Invalid input (exit code 2): the message names the file and the JSON pointer.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct HwScenario {
  std::string file;
  std::string name;
  uint64_t seed = 1;
  std::string platform;       // the simulator's preset name; the hardware is what it is
  int pes = 1;
  std::string kernel;
  int blocks = 1;
  std::map<std::string, double> args;  // every argument, defaults filled in
  std::vector<std::string> notes;      // what the hardware run does not do that the file asks
  nlohmann::json effective;            // for result.json's "config"
};

// `sets` are --set PATH=VALUE for kernel.args.NAME, kernel.blocks, pes and seed.
HwScenario load_hw_scenario(const std::string& path, const std::vector<std::string>& sets);

}  // namespace symsim::hw

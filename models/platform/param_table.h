// A platform's parameters declared once, with unit and meaning, so presets, `--set`,
// `symsim list` and the result's effective configuration all read the same table.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace symsim {

struct ParamInfo {
  std::string key;   // dotted name, e.g. "fabric.port_latency_ns"
  std::string doc;   // one line: what it is
  bool integer;      // integer-valued (counts, sizes)
  double min;
  double max;
  double* value;     // where the loaded value goes
};

using ParamTable = std::vector<ParamInfo>;

}  // namespace symsim

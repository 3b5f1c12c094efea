#include "sim/litmus/litmus_expected.h"

#include <fstream>
#include <stdexcept>

#include "sim/litmus/litmus_text.h"

namespace symsim::litmus {

ExpectedVerdicts ExpectedVerdicts::load(const std::string& csv_path) {
  std::ifstream in(csv_path);
  if (!in) throw std::runtime_error("cannot read expected-verdict file " + csv_path);
  ExpectedVerdicts v;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    line = trim(line);
    if (line.empty()) continue;
    const size_t comma = line.rfind(',');
    auto verdict = comma == std::string::npos ? std::nullopt : parse_int(trim(line.substr(comma + 1)));
    if (!verdict || (*verdict != 0 && *verdict != 1)) {
      throw std::runtime_error(csv_path + ":" + std::to_string(line_no) + ": expected 'path,0|1'");
    }
    std::string key = trim(line.substr(0, comma));
    // Paths are relative to the Dat3M root: keep what follows "PTX/".
    const size_t ptx = key.find("PTX/");
    if (ptx != std::string::npos) key = key.substr(ptx + 4);
    v.by_key_[key] = static_cast<int>(*verdict);
  }
  return v;
}

std::string ExpectedVerdicts::key_for(const std::string& test_path) const {
  // Try the longest suffix first: "a/b/Manual/x.litmus", then "b/Manual/x.litmus", ...
  size_t from = 0;
  while (true) {
    const std::string suffix = test_path.substr(from);
    if (by_key_.count(suffix)) return suffix;
    const size_t slash = test_path.find('/', from);
    if (slash == std::string::npos) return "";
    from = slash + 1;
  }
}

std::optional<int> ExpectedVerdicts::find(const std::string& test_path) const {
  const std::string key = key_for(test_path);
  if (key.empty()) return std::nullopt;
  return by_key_.at(key);
}

}  // namespace symsim::litmus

// Expected verdicts of the formal model, from a CSV of `litmus/PTX/<dir>/<file>.litmus,<0|1>`:
// 1 = the test's condition holds under the model, 0 = it does not.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace symsim::litmus {

class ExpectedVerdicts {
 public:
  // Throws std::runtime_error if the file cannot be read or a line is malformed.
  static ExpectedVerdicts load(const std::string& csv_path);

  // Verdict for a test file, matched on the path suffix after ".../PTX/".
  std::optional<int> find(const std::string& test_path) const;
  // The matched key ("Manual/MP-cta.litmus") or empty.
  std::string key_for(const std::string& test_path) const;
  size_t size() const { return by_key_.size(); }

 private:
  std::map<std::string, int> by_key_;
};

}  // namespace symsim::litmus

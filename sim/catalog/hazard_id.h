// A hazard id the compiler can check: one constexpr object per hazard, declared once beside
// the checker that reports it and used both by that checker's reports and by its registration
// (a misspelt id is a compile error, not a hazard nobody can switch on).
#pragma once
#include <cstring>
#include <string>

namespace symsim {

struct HazardId {
  const char* name;  // the stable id of the product contract: "sq_overrun"
  const char* doc;   // one line: what went wrong

  bool operator==(const std::string& s) const { return s == name; }
  operator std::string() const { return name; }
};

// The families a checker serves, as `symsim list` prints them.
namespace family {
inline constexpr const char* kAscend = "ascend";
inline constexpr const char* kNvidia = "nvidia";
inline constexpr const char* kAll = "ascend, nvidia";
}  // namespace family

}  // namespace symsim

// The unit of a platform parameter, read from its name (docs/style.md: units in parameter
// names), so each family's parameter table (its registration: PlatformFamily::parameters())
// carries its units without a second column to keep in step. A test holds every parameter of
// every family to a known unit.
#pragma once
#include <string>

namespace symsim::catalog {

// "ns", "GB/s", "B", "count", ...; nullptr when the name says no unit this table knows.
const char* param_unit(const std::string& key);

}  // namespace symsim::catalog

// Where an installed symsim keeps its data: <prefix>/share/symsim next to <prefix>/bin/symsim,
// found from the running executable, so an installed tree still works after it is moved.
#pragma once

#include <optional>
#include <string>

namespace symsim {

// <prefix>/share/symsim of the running executable, or nothing when it does not run from an
// installed tree (a build folder).
std::optional<std::string> installed_data_dir();

}  // namespace symsim

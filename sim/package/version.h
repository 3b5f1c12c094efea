// The version of symsim and the git commit it was built from, fixed per build: results from
// one binary stay byte-identical for the same scenario and seed.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace symsim {

std::string version();  // "0.1.0"
std::string commit();   // 12 hex digits, "-dirty" with uncommitted changes, "unknown" outside git
std::string version_line();  // "symsim 0.1.0 (commit 0123456789ab)", what --version prints
nlohmann::json tool_json();  // {"name": "symsim", "version": ..., "commit": ...}

}  // namespace symsim

// A name from outside (a scenario's "name", a run id from a server's reply) made safe to use
// as one folder name under a folder the user chose: one path component, never "." or "..",
// no separators, control characters or leading dots, at most 100 bytes.
#pragma once
#include <string>

namespace symsim::service {

// Keeps [A-Za-z0-9._+-], replaces anything else with '_', drops leading dots, cuts to 100
// bytes; `fallback` when nothing is left.
std::string safe_folder_name(const std::string& name, const std::string& fallback = "run");

}  // namespace symsim::service

// Output folders named after user input (a scenario's "name") must stay where they are put:
// safe_path_component() turns any text into one harmless path component.
#pragma once
#include <string>

namespace symsim::io {

constexpr size_t kMaxPathComponentBytes = 100;

// Keeps [A-Za-z0-9._-], replaces everything else (separators, control characters, spaces,
// non-ASCII bytes) with '_', drops leading dots (no ".", "..", hidden names), bounds the length
// (a cut name gets a hash suffix so different long names stay apart) and never returns "".
// "../../etc" -> "_.._etc", "/abs/x" -> "_abs_x", "" -> "unnamed".
std::string safe_path_component(const std::string& text);

}  // namespace symsim::io

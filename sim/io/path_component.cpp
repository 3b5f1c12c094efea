#include "sim/io/path_component.h"

#include <cstdint>

#include <fmt/format.h>

namespace symsim::io {

std::string safe_path_component(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                      c == '_' || c == '-';
    out += keep ? static_cast<char>(c) : '_';
  }
  const size_t first = out.find_first_not_of('.');
  out = first == std::string::npos ? "" : out.substr(first);
  if (out.size() > kMaxPathComponentBytes) {
    uint64_t hash = 1469598103934665603ull;  // FNV-1a of the whole text
    for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
    out = out.substr(0, kMaxPathComponentBytes - 17) + "-" + fmt::format("{:016x}", hash);
  }
  return out.empty() ? "unnamed" : out;
}

}  // namespace symsim::io

#include "sim/cli/cli_values.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "sim/scenario/input_error.h"

namespace symsim::cli {

namespace {

std::string shown(const std::string& text) { return text.size() > 64 ? text.substr(0, 64) + "..." : text; }

bool parse_double(const std::string& text, double& value, size_t& used) {
  if (text.empty() || text[0] == ' ' || text[0] == '\t') return false;
  errno = 0;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  used = static_cast<size_t>(end - text.c_str());
  return used > 0 && errno == 0 && std::isfinite(value);
}

}  // namespace

uint64_t parse_seed(const std::string& text, const std::string& option) {
  constexpr uint64_t kMax = 9007199254740991ull;  // 2^53 - 1, the scenario's /seed range
  uint64_t value = 0;
  bool ok = !text.empty() && text.size() <= 16;
  for (char c : text) {
    if (c < '0' || c > '9') ok = false;
    if (ok) value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  if (!ok || value > kMax)
    throw InputError(option, "", fmt::format("expected an integer 0..{}, got '{}'", kMax, shown(text)));
  return value;
}

uint64_t parse_bytes(const std::string& text, const std::string& option) {
  double value = 0;
  size_t used = 0;
  const bool number = parse_double(text, value, used);
  const std::string suffix = number ? text.substr(used) : "";
  double scale = 0;
  if (suffix.empty())
    scale = 1;
  else if (suffix == "K" || suffix == "KiB")
    scale = 1024.0;
  else if (suffix == "M" || suffix == "MiB")
    scale = 1024.0 * 1024;
  else if (suffix == "G" || suffix == "GiB")
    scale = 1024.0 * 1024 * 1024;
  else if (suffix == "T" || suffix == "TiB")
    scale = 1024.0 * 1024 * 1024 * 1024;
  const double bytes = value * scale;
  if (!number || scale == 0 || bytes < 1 || bytes > 1.8e19)
    throw InputError(option, "",
                     fmt::format("expected a size such as 8G, 512M or 1073741824, got '{}'", shown(text)));
  return static_cast<uint64_t>(bytes);
}

double parse_seconds(const std::string& text, const std::string& option) {
  double value = 0;
  size_t used = 0;
  if (!parse_double(text, value, used) || used != text.size() || !(value > 0) || value > 1e7)
    throw InputError(option, "", fmt::format("expected seconds in (0, 1e7], got '{}'", shown(text)));
  return value;
}

}  // namespace symsim::cli

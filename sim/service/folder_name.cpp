#include "service/folder_name.h"

namespace symsim::service {

std::string safe_folder_name(const std::string& name, const std::string& fallback) {
  constexpr size_t kMaxBytes = 100;
  std::string out;
  for (const char c : name) {
    if (out.size() == kMaxBytes) break;
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                      c == '_' || c == '+' || c == '-';
    if (out.empty() && c == '.') continue;
    out.push_back(keep ? c : '_');
  }
  return out.empty() ? fallback : out;
}

}  // namespace symsim::service

#include "sim/service/request_line.h"

#include <fmt/format.h>

namespace symsim::service {

size_t json_nesting_depth(std::string_view text) {
  size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

nlohmann::json decode_request_line(std::string_view text) {
  if (const size_t depth = json_nesting_depth(text); depth > kMaxJsonDepth)
    throw BadLine(fmt::format("nested {} levels deep, more than the limit of {}", depth, kMaxJsonDepth));
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw BadLine(e.what());
  }
}

}  // namespace symsim::service

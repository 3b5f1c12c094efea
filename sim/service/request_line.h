// Turns one request line of the service protocol into JSON, bounded: the line's length is
// bounded by the framer (--max-frame-bytes), and its nesting depth here, because a deeply
// nested value ("[[[[...") would be printed recursively when echoed ("id") or stored.
#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>

namespace symsim::service {

// Deepest nesting any request (or scenario) may have; real scenarios use fewer than 10 levels.
constexpr size_t kMaxJsonDepth = 64;

// The deepest nesting of arrays and objects in `text` (a linear scan that skips strings).
size_t json_nesting_depth(std::string_view text);

// A line that is not a request: `code` is the protocol error code (bad_json).
struct BadLine : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses a request line; throws BadLine when it is not JSON or nests too deep.
nlohmann::json decode_request_line(std::string_view text);

}  // namespace symsim::service

// Strict parsing of command-line values: each throws InputError naming the option.
#pragma once
#include <cstdint>
#include <string>

namespace symsim::cli {

// A seed as scenarios take it: decimal digits, 0..2^53-1 (exactly representable in JSON).
uint64_t parse_seed(const std::string& text, const std::string& option);
// Bytes with an optional binary suffix: "1073741824", "512M", "8G", "1.5T" (K, M, G, T = 2^10..2^40).
uint64_t parse_bytes(const std::string& text, const std::string& option);
// Seconds: a finite number in (0, 1e7].
double parse_seconds(const std::string& text, const std::string& option);

}  // namespace symsim::cli

// Test patterns in device memory: fill a buffer with a PE's pattern and compare it back, byte
// for byte. Each driver family keeps its own pattern (a byte as a function of PE, round and
// offset) so that a misrouted block shows as the wrong PE's bytes.
#pragma once
#include <cstdint>
#include <string>

namespace kernel_host {

using PatternByte = uint8_t (*)(int pe, uint64_t round, uint64_t i);

void fill_pattern(PatternByte byte_at, uint8_t* device, uint64_t bytes, int pe, uint64_t round);
// Copies `bytes` back and compares them with the pattern; returns "" or where they differ.
std::string compare_pattern(PatternByte byte_at, const uint8_t* device, uint64_t bytes, int pe, uint64_t round);

}  // namespace kernel_host

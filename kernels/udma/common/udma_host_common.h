// Host-side helpers shared by the UDMA example drivers (the role utils.h plays in CANN's
// examples): SHMEM set-up and tear-down, test patterns, and byte-exact verification.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "shmem.h"
#include "kernels/common/shmem_setup.h"

namespace udma_example {

using kernel_host::setup;
using kernel_host::teardown;

// The byte a PE's buffer holds at `i` in round `round`.
inline uint8_t pattern_byte(int pe, uint64_t round, uint64_t i) {
  return static_cast<uint8_t>(pe * 131 + round * 17 + i * 7 + (i >> 9));
}
void fill_pattern(uint8_t* device, uint64_t bytes, int pe, uint64_t round);
// Copies `bytes` back and compares them with the pattern; returns "" or where they differ.
std::string compare_pattern(const uint8_t* device, uint64_t bytes, int pe, uint64_t round);

}  // namespace udma_example

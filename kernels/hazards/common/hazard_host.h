// What the hazard kernels' host drivers share: SHMEM set-up with the UDMA engine, the device
// tables a direct-drive kernel reads, test patterns, and "the kernel ran" checks.
#pragma once
#include <cstdint>
#include <string>

#include "acl/acl.h"
#include "kernels/registry/kernel_registry.h"
#include "shmem.h"
#include "kernels/common/shmem_setup.h"

namespace hazard_host {

using kernel_host::setup;
using kernel_host::teardown;

// The device address of this PE's UDMA tables (what CANN SHMEM publishes in its meta area
// and upstream kernels read there); direct-drive kernels take it as an argument.
uint8_t* udma_tables();

// Waits for the stream and records whether the kernel ran without trapping.
bool sync(int pe, aclrtStream stream, const std::string& kernel);

inline uint8_t pattern_byte(int pe, uint64_t round, uint64_t i) {
  return static_cast<uint8_t>(pe * 29 + round * 7 + i * 13 + (i >> 8));
}
void fill(uint8_t* device, uint64_t bytes, int pe, uint64_t round);
// "" when `bytes` at `device` hold the pattern, else where they differ.
std::string compare(const uint8_t* device, uint64_t bytes, int pe, uint64_t round);
// Records a check that the pattern of (pe, round) arrived at `device`.
void check_pattern(int me, const uint8_t* device, uint64_t bytes, int pe, uint64_t round, const std::string& what);

}  // namespace hazard_host

namespace hazard_host {

// A core-local kernel: copies `bytes` of `in` to `out` (in holds 4 x bytes, so an over-long
// read stays inside it). Its driver fills `in`, launches, and checks `out`.
using CopyLaunch = void (*)(bool fixed, void* stream, uint8_t* in, uint8_t* out, uint32_t bytes);
void run_copy_kernel(int pe, const symsim::KernelArgs& a, CopyLaunch launch, const char* name);

// A direct-drive kernel on `cores` AIV cores (and as many QPs per peer), each sending
// `wqes` 512 B blocks to the right neighbour. Its driver fills the source, launches once, and
// checks every block arrived.
using RingLaunch = void (*)(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t wqes);
void run_ring_kernel(int pe, const symsim::KernelArgs& a, RingLaunch launch, const char* name, uint32_t cores = 1);

// A single-WQE kernel: each PE puts `bytes` (kernel argument) to its right neighbour, which
// checks them. Its driver fills the source, launches once, and checks what arrived.
using PutLaunch = void (*)(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t bytes);
void run_neighbour_put(int pe, const symsim::KernelArgs& a, PutLaunch launch, const char* name);

}  // namespace hazard_host

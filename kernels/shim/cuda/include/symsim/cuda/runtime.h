// Host-side calls of the CUDA shim beyond the CUDA runtime: which GPU this host program
// drives, a barrier across host programs (the launcher's MPI/torch barrier), the symmetric
// heap (collective allocations at identical offsets on every GPU, as ncclMemAlloc + window
// registration or nvshmem_malloc give), and what the scenario runner needs to run programs.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/core/time.h"

namespace symsim::nv {
class NvidiaSystem;
}

namespace symsim::cuda {

int my_rank();
int n_ranks();
// GPUs per NVLink domain (ranks r and s share one when r / size == s / size).
int nvlink_domain_size();
void host_barrier();
// Collective: every host program allocates the same sizes in the same order.
void* sym_malloc(size_t bytes, size_t align = 256);
// Base of this GPU's symmetric heap, and the distance between consecutive GPUs' heaps.
uint8_t* sym_heap_base();
uint64_t sym_heap_stride();
// Fills device memory with a host pattern (cudaMemcpy host-to-device in one call).
void fill_device(void* dst, const void* src, size_t bytes);
nv::NvidiaSystem& system();

// --- scenario runner entry points ---
struct LaunchError {
  int gpu;
  std::string kernel;
  std::string error;
};
// Spawns one host program per GPU (before sc_start).
void start(nv::NvidiaSystem& sys, std::function<void(int rank)> host_main);
void stop();
bool all_hosts_finished();
// Host programs still running and what they wait on.
std::vector<std::string> host_waits();
const std::vector<LaunchError>& launch_errors();
// When each finished kernel ran on its GPU, in finishing order: from the end of the host's launch
// overhead (the GPU side of the launch, gpu.launch_start_us, included) to its last thread's exit.
struct KernelSpan {
  int gpu;
  std::string kernel;
  Ps start_ps;
  Ps end_ps;
};
const std::vector<KernelSpan>& kernel_spans();

}  // namespace symsim::cuda

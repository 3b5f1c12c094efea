// The world symsim-hw runs host programs in: one host thread per PE, each PE on GPU
// (pe % GPUs), and a symmetric heap laid out as the simulator's (one flat virtual range, PE r's
// heap at base + r * stride) with CUDA's virtual memory management, so the kernels' symmetric
// pointer arithmetic (SymWindow, SymBuffer) works unchanged. On one GPU every PE's heap is a
// slice of that GPU's memory and peer stores are local stores; on several, peers' slices live
// on their own GPUs and are reached over NVLink.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

namespace symsim::hw {

// Reserves and maps the heap (heap_bytes per PE, rounded up to the mapping granularity).
void world_init(int pes, size_t heap_bytes, int gpus_to_use);
void world_finish();
// A new repetition: heap offsets back to zero, launch records dropped.
void world_reset();
int world_pes();
int world_gpus();
int gpu_of(int pe);
// Called first on each PE's host thread.
void enter_pe(int pe);
// A PE's host program failed: PEs waiting in (or later reaching) a host barrier throw instead
// of waiting for it. world_reset() clears this.
void abort_host_barriers();

// How a launch's events are placed against the host's launch call (SYMSIM_HW_HOLD_LAUNCH):
// kNone: start event, launch call, stop event, as issued (the events hold the host's call);
// kWait / kSpin: the stream first waits on a host-written flag (cuStreamWaitValue32 / a one-thread
// spin kernel), then the start event, the launch, the stop event; the host writes the flag once
// the stop event is queued, so the events hold only the GPU's launch and the kernel. Launches of
// the first repetition after world_init are never held (they load the kernels).
enum class LaunchHold { kNone, kWait, kSpin };
void set_launch_hold(LaunchHold hold);
const char* launch_hold_name(LaunchHold hold);

struct LaunchRecord {
  int pe = 0;
  int gpu = 0;
  std::string kernel;
  cudaEvent_t start = nullptr, stop = nullptr;
  cudaError_t launched = cudaSuccess;
  // The host's wall clock (CLOCK_REALTIME, ns): before the start event's record, after it, after
  // the launch call returned, after the stop event's record; beside the kernel's %globaltimer.
  long long host_ns[4] = {0, 0, 0, 0};
  LaunchHold hold = LaunchHold::kNone;
};
// The launches recorded since the last reset, in the order they finished being issued.
std::vector<LaunchRecord> launches();

}  // namespace symsim::hw

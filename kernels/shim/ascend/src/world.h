// Internal state of the Ascend shim (one simulation per process).
#pragma once
#include <systemc>

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/platform/ascend_system.h"
#include "shmem_types.h"
#include "symsim/shim_core.h"
#include "symsim/shim_runtime.h"

namespace symsim::shim {

struct Stream {
  int pe = 0;
  Ps tail_ps = 0;       // when the last queued kernel finishes (known once it has)
  int running = 0;      // kernels launched and not yet finished
  bool trapped = false;
  sc_core::sc_event idle;
};

struct HostState {
  int pe = 0;
  ExecContext ctx;
  bool finished = false;
  std::string waiting_on;
  bool shmem_ready = false;
  aclshmemi_aiv_udma_info_t* udma_info = nullptr;  // in this PE's HBM
  uint32_t qp_num = 1;  // aclshmemx_set_qp_num before init
  std::vector<std::unique_ptr<Stream>> streams;
};

// What a coroutine polls, kept as fields and formatted only when a hang is reported.
struct PollWait {
  const char* what = nullptr;  // null: not polling
  uint32_t index = 0;
  int pe = 0;
  uint32_t qp = 0;
  const void* addr = nullptr;
  CallSite site{};
  void set(const char* w, uint32_t i, int p, uint32_t q, const void* a, CallSite s) {
    what = w; index = i; pe = p; qp = q; addr = a; site = s;
  }
  void clear() { what = nullptr; }
  std::string describe() const;
};

// A block of a launched kernel running on one AIV core.
struct BlockState {
  BlockContext ctx;
  std::string waiting_on;  // barriers
  PollWait waiting;        // CQ polls
  bool finished = false;
};

struct World {
  AscendSystem* sys = nullptr;
  std::vector<HostState> hosts;
  std::vector<std::vector<std::unique_ptr<BlockState>>> blocks;  // [pe][core], current launch
  std::vector<uint32_t> launch_blocks;  // block count of each PE's current launch
  std::vector<TrapRecord> traps;
  Ps last_activity_ps = 0;

  // Host barrier.
  int host_arrived = 0;
  uint64_t host_generation = 0;
  Ps host_release_ps = 0;
  sc_core::sc_event host_event;
  // Vector (device) barrier.
  int vec_arrived = 0;
  uint64_t vec_generation = 0;
  Ps vec_latest_ps = 0;
  Ps vec_release_ps = 0;
  sc_core::sc_event vec_event;
};

World& world();
HostState& host();  // the calling host program's state
Ps now_ps();
// Blocks a host coroutine for `d`.
void host_wait(Ps d);
void host_barrier(const char* what);

}  // namespace symsim::shim

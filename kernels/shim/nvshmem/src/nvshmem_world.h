// What the NVSHMEM shim keeps per simulated GPU between nvshmem_init and the kernels that use
// it: where that GPU's device state lives, and the words its barriers use.
#pragma once
#include <cstdint>
#include <vector>

#include "device_host/nvshmem_types.h"
#include "device_host_transport/nvshmem_common_ibgda.h"

namespace symsim::nv {
class NvidiaSystem;
}

namespace symsim::nvshmem {

// A team as this PE sees it (NVSHMEM_TEAM_WORLD is team 0): members start + i * stride.
struct Team {
  int start = 0, stride = 1, size = 0;
  uint64_t* arrivals = nullptr;  // symmetric [npes]: syncs of this team each member has reached here
  uint64_t* count = nullptr;     // GPU memory: syncs of this team this PE has entered
  bool live = false;
};

struct Pe {
  nvshmemi_device_host_state_t* state = nullptr;  // in the GPU's memory
  nvshmemi_ibgda_device_state_t* ibgda = nullptr;
  std::vector<Team> teams;  // by nvshmem_team_t
  std::vector<uint32_t> chunk_keys;      // this GPU's NIC keys of its heap chunks (host copy)
  bool initialized = false;
};

struct World {
  const nv::NvidiaSystem* sys = nullptr;
  std::vector<Pe> pes;
};

// The current simulation's PEs (reset when a new system is seen).
World& world();
// Collective over every PE: a team's arrival words; returns its handle.
int add_team(Pe& pe, int start, int stride, int size);

// The PE a kernel thread runs on, or the host program's; traps when NVSHMEM is not set up there.
Pe& calling_pe();

}  // namespace symsim::nvshmem

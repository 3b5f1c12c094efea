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

struct Pe {
  nvshmemi_device_host_state_t* state = nullptr;  // in the GPU's memory
  nvshmemi_ibgda_device_state_t* ibgda = nullptr;
  uint64_t* barrier_arrivals = nullptr;  // symmetric [npes]: barriers each peer has reached here
  uint64_t* barrier_count = nullptr;     // GPU memory: barriers this PE has entered
  std::vector<uint32_t> chunk_keys;      // this GPU's NIC keys of its heap chunks (host copy)
  bool initialized = false;
};

struct World {
  const nv::NvidiaSystem* sys = nullptr;
  std::vector<Pe> pes;
};

// The current simulation's PEs (reset when a new system is seen).
World& world();
// The PE a kernel thread runs on, or the host program's; traps when NVSHMEM is not set up there.
Pe& calling_pe();

}  // namespace symsim::nvshmem

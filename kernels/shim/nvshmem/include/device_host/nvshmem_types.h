// NVSHMEM's per-GPU device state for the simulator: nvshmemi_device_host_state_t with NVSHMEM
// 3.x's field names and meanings (device_host/nvshmem_types.h), only the fields device code
// reads. `nvshmemi_device_state_d` names the calling GPU's copy, which lives in that GPU's
// simulated memory and is filled by nvshmem_init (nvshmem_setup.cpp).
#pragma once
#include <cstddef>
#include <cstdint>

typedef struct {
  int version;
  int mype;
  int npes;
  int node_mype;  // rank within the PE's NVLink domain
  int node_npes;
  void* heap_base;  // this PE's symmetric heap
  size_t heap_size;
  void** peer_heap_base_p2p;     // [pe]: the heap of pe as this GPU reaches it over NVLink, or null
  void** peer_heap_base_remote;  // [pe]: pe's heap address for RDMA
  bool ibgda_is_initialized;
  bool nvshmemi_is_nvshmem_initialized;
} nvshmemi_device_host_state_v1;
typedef nvshmemi_device_host_state_v1 nvshmemi_device_host_state_t;

namespace symsim::nvshmem {
// The calling GPU's state (a kernel thread's GPU; on the host, the host program's).
nvshmemi_device_host_state_t* device_state();
}  // namespace symsim::nvshmem
#define nvshmemi_device_state_d (*::symsim::nvshmem::device_state())

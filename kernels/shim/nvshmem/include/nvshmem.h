// The NVSHMEM API subset the simulator provides (host and device calls in one pass, as every
// CUDA program here is compiled once): initialisation, PE queries, the symmetric heap, P2P
// pointers, quiet and barriers, over the CUDA shim's symmetric heap and the NIC model's RC
// QPs driven from GPU threads (IBGDA). Collective calls are made by every host program in the
// same order. Environment read at nvshmem_init, as NVSHMEM does: NVSHMEM_DISABLE_P2P (peers in
// one NVLink domain are then reached over RDMA too), NVSHMEM_IBGDA_NUM_RC_PER_PE (RC QPs per
// peer, default 1), NVSHMEM_QP_DEPTH (SQ depth in WQEBBs, default the preset's nic.sq_depth).
#pragma once
#include <cstddef>
#include <cstdint>

#include "cuda_runtime.h"
#include "device_host/nvshmem_types.h"
#include "device_host_transport/nvshmem_common_ibgda.h"

#define NVSHMEM_MAJOR_VERSION 3
#define NVSHMEM_MINOR_VERSION 3

// Host: collective set-up (returns 0, or non-zero naming the bad setting on stderr).
int nvshmem_init();
void nvshmem_finalize();
// Host and device.
int nvshmem_my_pe();
int nvshmem_n_pes();
// Host, collective: symmetric allocations (the same offset on every PE). Memory is not reused
// after nvshmem_free.
void* nvshmem_malloc(size_t bytes);
void* nvshmem_align(size_t alignment, size_t bytes);
void* nvshmem_calloc(size_t count, size_t bytes);
void nvshmem_free(void* ptr);
// Host and device: pe's copy of the symmetric object `ptr` as this GPU can load and store it
// (over NVLink), or null where pe is reached only over RDMA.
void* nvshmem_ptr(const void* ptr, int pe);
// Device: waits until every RDMA operation this PE's threads made ready has completed (rings
// the doorbell for any not yet rung). On the host: nothing is in flight from the host.
void nvshmem_quiet(::symsim::nv::Site site = SYMSIM_HERE);
// Host: every PE's host reaches it (device work is the caller's to synchronise). Device, one
// thread: quiet, then every PE's calling thread reaches it.
void nvshmem_barrier_all(::symsim::nv::Site site = SYMSIM_HERE);

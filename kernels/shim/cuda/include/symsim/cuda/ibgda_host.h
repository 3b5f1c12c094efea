// Host-side set-up of GPU-driven RDMA (simulator build): collective calls every host program
// makes in the same order. They register this GPU's memory with its NIC (the symmetric heap
// for remote access, all of HBM for local buffers), create RC QPs from this GPU to every other
// GPU with their rings in GPU memory, and write the device-side state (ibgda::State, a
// gin::Handle) into GPU memory for kernels to use. Also the symmetric-pointer views.
#pragma once
#include <cstdint>
#include <vector>

#include "gin_device.cuh"
#include "ibgda_device.cuh"
#include "sym_buffer.cuh"

namespace symsim::cuda {

struct IbgdaOptions {
  int qps_per_peer = 1;
  uint32_t sq_depth = 0;        // WQEBBs; 0: the preset's nic.sq_depth
  uint32_t cq_depth = 0;        // 0: the preset's nic.cq_depth
  bool collapsed_cq = true;     // cc=1 (NVSHMEM, DeepEP)
  bool overrun_ignore = true;   // oi=1
  int ring_every = 1;           // DeepEP V1: 4
  bool wait_for_slots = true;   // DeepEP V1: false
  bool check_cqe_errors = true; // DeepEP V1: false
};

ibgda::State* ibgda_init(const IbgdaOptions& options);
// A Gin handle over its own QPs, with n_ranks + 4 signal words in the symmetric heap.
gin::Handle gin_init(const IbgdaOptions& options);

SymWindow sym_window();
// Every rank's address of the symmetric pointer p (DeepGEMM's rendezvous result).
std::vector<int64_t> sym_addresses(const void* p);

}  // namespace symsim::cuda

// Symmetric-pointer translation in the two styles the source article compares:
//  * layout::SymBuffer (DeepGEMM): per-rank byte offsets from this rank's buffer, map() adds
//    one; assumes every rank is NVLink-reachable.
//  * SymWindow::get_sym_ptr (DeepEP over NCCL's LSA window): peers of this NVLink domain sit
//    at a fixed stride in one flat range; peers outside it give nullptr, and the caller falls
//    back to RDMA with the window offset.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#else
#include "cuda_runtime.h"
#endif

namespace layout {

constexpr uint32_t kNumMaxRanks = 72;

template <uint32_t kNumRanks = kNumMaxRanks>
struct SymBuffer {
  int64_t base = 0;
  int64_t offsets[kNumMaxRanks] = {};
  uint32_t rank_idx = 0;

  SymBuffer() = default;
  // `c[i]` is rank i's address of the buffer (from a rendezvous).
  template <typename Container>
  SymBuffer(const Container& c, uint32_t rank) : rank_idx(rank) {
    const auto size = static_cast<uint32_t>(c.size());
    base = static_cast<int64_t>(c[rank]);
    for (uint32_t i = 0; i < kNumMaxRanks; ++i) offsets[i] = i < size ? static_cast<int64_t>(c[i]) - base : 0;
  }

  // The same buffer with another compile-time rank count (a launch's switch over rank counts).
  template <uint32_t kOtherRanks>
  explicit SymBuffer(const SymBuffer<kOtherRanks>& o) : base(o.base), rank_idx(o.rank_idx) {
    for (uint32_t i = 0; i < kNumMaxRanks; ++i) offsets[i] = o.offsets[i];
  }

  template <typename ptr_t>
  __device__ __forceinline__ ptr_t map(const ptr_t& ptr, uint32_t dst_rank) const {
    if constexpr (kNumRanks == 1) return ptr;
    const int64_t mapped = offsets[dst_rank] + reinterpret_cast<int64_t>(ptr);
    return reinterpret_cast<ptr_t>(mapped);
  }
};

}  // namespace layout

// The LSA-window view of the symmetric heap (DeepEP's handle over ncclGetLsaPointer).
struct SymWindow {
  int rank = 0;
  int n_ranks = 1;
  int lsa_size = 1;            // GPUs in one NVLink domain
  int lsa_team = 0;            // rank / lsa_size: its domain, divided once (the GPU's compiler hoists
                               // it from the kernels' loops; the simulator's x86 code divided per call)
  uint8_t* lsa_base_ptr = nullptr;  // this rank's window base
  uint64_t lsa_stride = 0;     // distance between consecutive domain members' windows

  __device__ __forceinline__ bool is_nvlink_accessible(int dst) const { return dst / lsa_size == lsa_team; }
  __device__ __forceinline__ uint64_t get_sym_offset(const void* p) const {
    return static_cast<uint64_t>(static_cast<const uint8_t*>(p) - lsa_base_ptr);
  }
  // A peer's copy of `p`, or nullptr when that peer is only reachable by RDMA.
  template <typename T>
  __device__ __forceinline__ T* get_sym_ptr(T* p, int dst) const {
    if (!is_nvlink_accessible(dst)) return nullptr;
    if (dst == rank) return p;
    uint8_t* flat = lsa_base_ptr - static_cast<uint64_t>(rank % lsa_size) * lsa_stride;  // ncclGetLsaPointer
    return reinterpret_cast<T*>(flat + static_cast<uint64_t>(dst % lsa_size) * lsa_stride + get_sym_offset(p));
  }
};

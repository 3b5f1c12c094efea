// A device API in the style of NCCL's Gin as DeepEP V2 uses it (handle.cuh), reimplemented
// over the IBGDA QPs: every peer has RC QPs (NVLink peers too: "local or NVLink put will also
// go through NIC"); a warp is a channel and picks its QP. NVLink-reachable peers get the
// NVLink path where DeepEP takes it (put_value, red_add_rel); others get RDMA:
//   put        RDMA WRITE; Aggregate skips the doorbell, a later call rings for it
//   put_value  st.relaxed.sys over NVLink, else a device-scope release and an inline WRITE
//   signal     RDMA ATOMIC fetch-add on the peer's signal word
//   red_add_rel red.release.{gpu,sys} over NVLink, else an RDMA atomic on the window
//   flush      waits for every QP's ready WQEs to complete (the source may be reused;
//              nothing is promised about the remote side)
#pragma once
#include <cstdint>

#include "ibgda_device.cuh"
#include "sym_buffer.cuh"

namespace gin {

enum Flags : int { kNone = 0, kAggregateRequests = 1 };

struct Handle {
  SymWindow window;
  const ibgda::State* ctx = nullptr;
  uint64_t* signals = nullptr;   // symmetric: n_ranks + 4 words
  uint64_t* shadows = nullptr;   // this GPU's expected values of its own signals

  __device__ __forceinline__ bool is_nvlink_accessible(int dst) const { return window.is_nvlink_accessible(dst); }
  template <typename T>
  __device__ __forceinline__ T* get_sym_ptr(T* p, int dst) const {
    return window.get_sym_ptr(p, dst);
  }
  // The channel of the calling warp.
  __device__ __forceinline__ int channel() const {
    return static_cast<int>((blockIdx.x * ((blockDim.x * blockDim.y * blockDim.z + 31) / 32)) +
                            (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / 32);
  }

  __device__ __forceinline__ void put(void* dst_sym_ptr, const void* src_ptr, uint32_t bytes, int dst, int flags = kNone) const {
    ibgda::put_thread(ctx, dst_sym_ptr, src_ptr, bytes, dst, channel(), (flags & kAggregateRequests) == 0);
  }
  __device__ __forceinline__ void put_value(int* sym_ptr, int value, int dst, int flags = kNone) const {
    if (int* p = get_sym_ptr(sym_ptr, dst)) {
      ptx::st_relaxed_sys(p, value);
      return;
    }
    ptx::fence_acq_rel_gpu();  // device-scope release before the inline write
    ibgda::put_inline(ctx, sym_ptr, static_cast<uint32_t>(value), 4, dst, channel(), (flags & kAggregateRequests) == 0);
  }
  // Adds `inc` to signal `index` of rank `dst` (an RDMA atomic on the peer's signal word).
  __device__ __forceinline__ void signal(int dst, int index, int64_t inc, int flags = kNone) const {
    ibgda::amo_add(ctx, signals + index, inc, true, dst, channel(), (flags & kAggregateRequests) == 0);
  }
  __device__ __forceinline__ void red_add_rel(int* sym_ptr, int value, int dst) const {
    if (int* p = get_sym_ptr(sym_ptr, dst)) {
      if (p == sym_ptr) {
        ptx::red_add_rel_gpu(p, value);
      } else {
        ptx::red_add_rel_sys(p, value);
      }
      return;
    }
    ibgda::amo_add(ctx, sym_ptr, value, false, dst, channel(), true);
  }
  // Waits for every QP's ready WQEs, warp-parallel over peers (all lanes of a warp call it).
  __device__ __forceinline__ void flush(uint32_t lane = 0, uint32_t lanes = 1) const {
    const int total = ctx->n_ranks * ctx->qps_per_peer;
    for (int i = static_cast<int>(lane); i < total; i += static_cast<int>(lanes)) {
      if (i / ctx->qps_per_peer == ctx->rank) continue;
      ibgda::quiet(ctx, ctx->qps + i);
    }
  }
  __device__ __forceinline__ uint64_t read_signal(int index) const { return ptx::ld_acquire_sys(signals + index); }
};

}  // namespace gin

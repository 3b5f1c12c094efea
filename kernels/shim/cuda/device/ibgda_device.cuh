// GPU threads driving RC QPs directly (IBGDA), reimplemented from the NVSHMEM IBGDA protocol
// as summarised in shared/reference/nvidia-symmem.md section 2: reserve WQEBBs with an atomic,
// write mlx5 WQEs (16 B segments, big-endian) into the SQ ring in GPU memory, mark them ready
// in order, then ring: doorbell record, then the UAR doorbell. Completions are read from the
// CQ (collapsed by default: entry 0 holds the latest CQE's WQE counter).
// Options select NVSHMEM's behaviour (wait for free SQ slots, check error CQEs, ring every
// message) or DeepEP V1's (skip the slot wait, ring every 4th message and on atomics).
#pragma once
#include <cstdint>

#include "symsim_ptx.cuh"

namespace ibgda {

struct Qp {
  uint32_t qpn = 0;
  uint32_t nwqes = 0;      // SQ depth in WQEBBs (power of two)
  uint32_t ncqes = 0;
  int peer = 0;
  uint8_t* wqe = nullptr;  // SQ ring
  uint32_t* dbrec = nullptr;
  uint64_t* bf = nullptr;  // UAR doorbell (MMIO)
  uint8_t* cqe = nullptr;  // CQ ring
  uint32_t* cq_dbrec = nullptr;
  uint8_t* ibuf = nullptr; // atomic result scratch
  // Mutable state in global memory, in WQEBBs.
  unsigned long long resv_head = 0;
  unsigned long long ready_head = 0;
  unsigned long long prod_idx = 0;
  unsigned long long cons_idx = 0;
  int post_send_lock = 0;
  int collapsed = 1;
};

struct State {
  int rank = 0;
  int n_ranks = 0;
  int qps_per_peer = 1;
  int ring_every = 1;         // ring the doorbell every Nth message (atomics always ring)
  int wait_for_slots = 1;     // NVSHMEM: wait until the SQ has room; DeepEP V1: 0
  int check_cqe_errors = 1;   // NVSHMEM traps on an error CQE; DeepEP's copy does not check
  uint32_t lkey = 0;
  Qp* qps = nullptr;          // [peer * qps_per_peer + i]
  uint32_t* rkeys = nullptr;  // per peer
  uint64_t* peer_heap_base = nullptr;  // per peer: remote VA of its symmetric heap
  uint64_t heap_base = 0;     // this GPU's symmetric heap
};

constexpr uint8_t kOpRdmaWrite = 0x08;
constexpr uint8_t kOpAtomicFa = 0x12;
constexpr uint8_t kOpAtomicMaskedFa = 0x15;
constexpr uint8_t kOpmodAtomic4B = 0x08;
constexpr uint32_t kCqUpdate = 0x08;
constexpr uint32_t kInline = 0x80000000u;

__device__ __forceinline__ uint32_t be32(uint32_t v) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(v, 0, 0x0123);
#else
  return __builtin_bswap32(v);
#endif
}
__device__ __forceinline__ uint16_t be16(uint16_t v) { return static_cast<uint16_t>((v >> 8) | (v << 8)); }

__device__ __forceinline__ Qp* get_qp(const State* s, int peer, int qp_id) {
  return s->qps + peer * s->qps_per_peer + (qp_id % s->qps_per_peer);
}
// The peer's address of a local symmetric-heap pointer.
__device__ __forceinline__ uint64_t remote_addr(const State* s, const void* p, int peer) {
  return s->peer_heap_base[peer] + (reinterpret_cast<uint64_t>(p) - s->heap_base);
}
__device__ __forceinline__ int4* slot(Qp* qp, uint64_t idx) {
  return reinterpret_cast<int4*>(qp->wqe + ((idx & (qp->nwqes - 1)) << 6));
}
__device__ __forceinline__ int4 seg(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  int4 v;
  v.x = static_cast<int>(a);
  v.y = static_cast<int>(b);
  v.z = static_cast<int>(c);
  v.w = static_cast<int>(d);
  return v;
}
__device__ __forceinline__ int4 ctrl_seg(uint8_t opcode, uint8_t opmod, uint64_t idx, uint32_t qpn, uint32_t ds) {
  return seg(be32((static_cast<uint32_t>(opmod) << 24) | ((static_cast<uint32_t>(idx) & 0xffff) << 8) | opcode),
             be32((qpn << 8) | ds), be32(kCqUpdate), 0);
}
__device__ __forceinline__ int4 raddr_seg(uint64_t raddr, uint32_t rkey) {
  return seg(be32(static_cast<uint32_t>(raddr >> 32)), be32(static_cast<uint32_t>(raddr)), be32(rkey), 0);
}
__device__ __forceinline__ int4 data_seg(uint32_t bytes, uint32_t lkey, uint64_t laddr) {
  return seg(be32(bytes), be32(lkey), be32(static_cast<uint32_t>(laddr >> 32)), be32(static_cast<uint32_t>(laddr)));
}

// Completion: waits until the CQE of WQE idx-1 has arrived.
__device__ __forceinline__ void poll_cq(const State* s, Qp* qp, uint64_t idx) {
  if (qp->collapsed) {
    const auto* counter = reinterpret_cast<const uint16_t*>(qp->cqe + 60);
    uint16_t c;
    do {
      c = be16(ptx::ld_volatile(counter));
    } while (static_cast<uint16_t>(static_cast<uint16_t>(idx) - c - 2) < qp->ncqes);
    if (s->check_cqe_errors) {
      const int op_own = ptx::ld_volatile(reinterpret_cast<const int*>(qp->cqe + 60)) >> 24;
      if (((op_own >> 4) & 0xf) == 0xd) __trap();  // MLX5_CQE_REQ_ERR
    }
  } else {
    // One CQE per WQE: consume entries in order (owner bit per pass) and tell the NIC.
    unsigned long long cons = ptx::ld_volatile(reinterpret_cast<const uint64_t*>(&qp->cons_idx));
    while (cons < idx) {
      const uint8_t* e = qp->cqe + ((cons & (qp->ncqes - 1)) << 6);
      const int owner = static_cast<int>((cons / qp->ncqes) & 1);
      int op_own;
      do {
        op_own = ptx::ld_volatile(reinterpret_cast<const int*>(e + 60)) >> 24;
      } while (((op_own >> 4) & 0xf) == 0xf || (op_own & 1) != owner);
      if (s->check_cqe_errors && ((op_own >> 4) & 0xf) == 0xd) __trap();
      ++cons;
      ptx::st_relaxed_sys(reinterpret_cast<int*>(qp->cq_dbrec), static_cast<int>(be32(static_cast<uint32_t>(cons) & 0xffffff)));
    }
  }
  atomicMax(&qp->cons_idx, static_cast<unsigned long long>(idx));
}

// Reserves n WQEBBs; NVSHMEM then waits until the ring has room for them.
__device__ __forceinline__ uint64_t reserve(const State* s, Qp* qp, uint32_t n) {
  const uint64_t base = atomicAdd(&qp->resv_head, static_cast<unsigned long long>(n));
  if (s->wait_for_slots && base + n > qp->nwqes) poll_cq(s, qp, base + n - qp->nwqes);
  return base;
}

// Rings: doorbell record, then the UAR doorbell with the new producer index.
__device__ __forceinline__ void post_send(Qp* qp, uint64_t new_prod) {
  while (atomicCAS(&qp->post_send_lock, 0, 1) == 1) {
  }
  const unsigned long long old = atomicMax(&qp->prod_idx, static_cast<unsigned long long>(new_prod));
  if (new_prod > old) {
    __threadfence();  // the WQE bytes before the doorbell record
    ptx::st_release_gpu(qp->dbrec, be32(static_cast<uint32_t>(new_prod) & 0xffff));
    const uint64_t db = static_cast<uint64_t>(be32((static_cast<uint32_t>(new_prod) & 0xffff) << 8)) |
                        (static_cast<uint64_t>(be32(qp->qpn << 8)) << 32);
    ptx::st_relaxed_sys(qp->bf, db);
  }
  atomicExch(&qp->post_send_lock, 0);
}

// Marks [base, base+n) ready in order, then rings when asked to.
__device__ __forceinline__ void submit(Qp* qp, uint64_t base, uint32_t n, bool ring) {
  __threadfence();
  while (atomicCAS(&qp->ready_head, static_cast<unsigned long long>(base), static_cast<unsigned long long>(base + n)) != base) {
  }
  if (ring) post_send(qp, base + n);
}

__device__ __forceinline__ void write_rdma_write(Qp* qp, uint64_t idx, uint64_t raddr, uint32_t rkey, uint64_t laddr,
                                                 uint32_t lkey, uint32_t bytes) {
  int4* w = slot(qp, idx);
  ptx::st_na(w + 0, ctrl_seg(kOpRdmaWrite, 0, idx, qp->qpn, 3));
  ptx::st_na(w + 1, raddr_seg(raddr, rkey));
  ptx::st_na(w + 2, data_seg(bytes, lkey, laddr));
}

// Warp-collective put (nvshmemi_ibgda_put_nbi_warp): lane 0 reserves, one lane per WQE
// writes it, lane 0 submits; the doorbell rings every ring_every-th message (or always).
__device__ __forceinline__ void put_nbi_warp(const State* s, void* dst_sym_ptr, const void* src_ptr, uint32_t bytes,
                                             int dst_pe, int qp_id, uint32_t lane_id, int message_idx,
                                             bool always_post = false) {
  Qp* qp = get_qp(s, dst_pe, qp_id);
  unsigned long long base = 0;
  if (lane_id == 0) base = reserve(s, qp, 1);
  base = __shfl_sync(0xffffffffu, base, 0);
  if (lane_id == 0)
    write_rdma_write(qp, base, remote_addr(s, dst_sym_ptr, dst_pe), s->rkeys[dst_pe], reinterpret_cast<uint64_t>(src_ptr),
                     s->lkey, bytes);
  __syncwarp();
  if (lane_id == 0) submit(qp, base, 1, always_post || (message_idx + 1) % s->ring_every == 0);
  __syncwarp();
}

// A single thread's RDMA WRITE (Gin put); `ring` false leaves the doorbell to a later call.
__device__ __forceinline__ void put_thread(const State* s, void* dst_sym_ptr, const void* src_ptr, uint32_t bytes, int dst_pe,
                                           int qp_id, bool ring) {
  Qp* qp = get_qp(s, dst_pe, qp_id);
  const uint64_t base = reserve(s, qp, 1);
  write_rdma_write(qp, base, remote_addr(s, dst_sym_ptr, dst_pe), s->rkeys[dst_pe], reinterpret_cast<uint64_t>(src_ptr),
                   s->lkey, bytes);
  submit(qp, base, 1, ring);
}

// An inline RDMA WRITE of 4 or 8 bytes (nvshmemi_ibgda_rma_p, Gin putValue).
__device__ __forceinline__ void put_inline(const State* s, void* dst_sym_ptr, uint64_t value, uint32_t bytes, int dst_pe,
                                           int qp_id, bool ring) {
  Qp* qp = get_qp(s, dst_pe, qp_id);
  const uint64_t base = reserve(s, qp, 1);
  int4* w = slot(qp, base);
  ptx::st_na(w + 0, ctrl_seg(kOpRdmaWrite, 0, base, qp->qpn, 3));
  ptx::st_na(w + 1, raddr_seg(remote_addr(s, dst_sym_ptr, dst_pe), s->rkeys[dst_pe]));
  // Inline segment: byte count with the inline flag, then the data (little-endian, as memory).
  ptx::st_na(w + 2, seg(be32(bytes | kInline), static_cast<uint32_t>(value), static_cast<uint32_t>(value >> 32), 0));
  submit(qp, base, 1, ring);
}

// A remote atomic add (nvshmemi_ibgda_amo_nonfetch_add): 4-byte masked fetch-add, or 8-byte.
__device__ __forceinline__ void amo_add(const State* s, void* dst_sym_ptr, int64_t value, bool eight_bytes, int dst_pe,
                                        int qp_id, bool ring) {
  Qp* qp = get_qp(s, dst_pe, qp_id);
  const uint64_t base = reserve(s, qp, 1);
  int4* w = slot(qp, base);
  const uint64_t v = static_cast<uint64_t>(value);
  ptx::st_na(w + 0, eight_bytes ? ctrl_seg(kOpAtomicFa, 0, base, qp->qpn, 4)
                                : ctrl_seg(kOpAtomicMaskedFa, kOpmodAtomic4B, base, qp->qpn, 4));
  ptx::st_na(w + 1, raddr_seg(remote_addr(s, dst_sym_ptr, dst_pe), s->rkeys[dst_pe]));
  ptx::st_na(w + 2, eight_bytes ? seg(be32(static_cast<uint32_t>(v >> 32)), be32(static_cast<uint32_t>(v)), 0, 0)
                                : seg(be32(static_cast<uint32_t>(v)), 0, 0, 0));
  ptx::st_na(w + 3, data_seg(eight_bytes ? 8 : 4, s->lkey, reinterpret_cast<uint64_t>(qp->ibuf)));
  submit(qp, base, 1, ring);
}

__device__ __forceinline__ void amo_nonfetch_add(const State* s, int* dst_sym_ptr, int value, int dst_pe, int qp_id,
                                                 bool is_local_copy = false) {
  if (is_local_copy) {
    atomicAdd(dst_sym_ptr, value);
    return;
  }
  amo_add(s, dst_sym_ptr, value, false, dst_pe, qp_id, true);  // atomics always ring
}

// Waits until every ready WQE of the QP has completed.
__device__ __forceinline__ void quiet(const State* s, Qp* qp) {
  const uint64_t ready = ptx::ld_volatile(reinterpret_cast<const uint64_t*>(&qp->ready_head));
  const uint64_t prod = ptx::ld_volatile(reinterpret_cast<const uint64_t*>(&qp->prod_idx));
  if (prod < ready) post_send(qp, ready);  // ring for WQEs left unrung (aggregated or batched)
  poll_cq(s, qp, ready);
}

}  // namespace ibgda

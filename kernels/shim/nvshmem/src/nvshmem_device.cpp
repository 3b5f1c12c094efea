// Device side of the NVSHMEM shim: quiet (ring what was made ready but not rung, then poll each
// RC QP's collapsed CQ up to it) and the all-PE barrier, whose signals to PEs outside the NVLink
// domain are RDMA atomics posted on RC QP 0 the way NVSHMEM's IBGDA posts them (reserve a
// WQEBB, write the mlx5 segments, mark it ready in order, doorbell record, UAR doorbell).
// Every step is an operation of the timed models: the NIC sees exactly these bytes.
#include <cstring>
#include <string>

#include "models/nvidia/device_trap.h"
#include "models/nvidia/gpu_scheduler.h"
#include "models/nvidia/mlx5_layout.h"
#include "kernels/shim/nvshmem/src/nvshmem_world.h"
#include "nvshmemx.h"
#include "symsim/cuda/runtime.h"

namespace symsim::nvshmem {

namespace {

using nv::AtomicOp;
using nv::Scope;
using nv::Sem;
using nv::Site;
namespace mlx5 = nv::mlx5;

struct Seg16 {
  uint8_t b[16];
};

uint64_t ld64(const uint64_t* p, Sem sem, Scope scope, Site s) { return cuda::ld<uint64_t>(p, sem, scope, s); }

// Rings the QP up to new_prod unless a later ring already covered it.
void post_send(nvshmemi_ibgda_device_qp_t* qp, uint64_t new_prod, Site s) {
  auto* m = &qp->mvars;
  while (cuda::atom<int>(&m->post_send_lock, AtomicOp::Cas, 1, 0, Sem::Relaxed, Scope::Gpu, true, s) != 0) {
  }
  nv::fence(Sem::AcqRel, Scope::Cta, s);
  const auto old = cuda::atom<unsigned long long>(reinterpret_cast<unsigned long long*>(&m->tx_wq.prod_idx), AtomicOp::Max,
                                                   new_prod, 0, Sem::Relaxed, Scope::Gpu, true, s);
  if (new_prod > old) {
    uint8_t db[8];
    mlx5::put_be32(db, static_cast<uint32_t>(new_prod & 0xffff) << 8);
    mlx5::put_be32(db + 4, qp->qpn << 8);
    uint32_t dbrec;
    mlx5::put_be32(reinterpret_cast<uint8_t*>(&dbrec), static_cast<uint32_t>(new_prod & 0xffff));
    cuda::st<uint32_t>(reinterpret_cast<uint32_t*>(qp->tx_wq.dbrec), dbrec, Sem::Release, Scope::Gpu, s);
    uint64_t v;
    std::memcpy(&v, db, 8);
    cuda::st<uint64_t>(static_cast<uint64_t*>(qp->tx_wq.bf), v, Sem::Release, Scope::Sys, s);
  }
  nv::fence(Sem::AcqRel, Scope::Cta, s);
  cuda::st<int>(&m->post_send_lock, 0, Sem::Relaxed, Scope::Gpu, s);
}

// Waits until the collapsed CQ reports WQE idx-1 done; an error CQE traps, naming its syndrome.
void poll_cq(nvshmemi_ibgda_device_qp_t* qp, uint64_t idx, Site s) {
  nvshmemi_ibgda_device_cq_t* cq = qp->tx_wq.cq;
  if (ld64(cq->cons_idx, Sem::Relaxed, Scope::Gpu, s) >= idx) return;
  const auto* cqe = static_cast<const uint8_t*>(cq->cqe);
  uint32_t tail;
  do {
    tail = cuda::ld<uint32_t>(reinterpret_cast<const uint32_t*>(cqe + mlx5::kCqeWqeCounter), Sem::Relaxed, Scope::Gpu, s);
  } while (static_cast<uint16_t>(static_cast<uint16_t>(idx) - mlx5::bswap16(static_cast<uint16_t>(tail)) - 2) < cq->ncqes);
  const uint8_t op_own = static_cast<uint8_t>(tail >> 24);
  if ((op_own >> 4) == mlx5::kCqeReqErr)
    throw nv::DeviceTrap("NVSHMEM quiet: QP " + std::to_string(qp->qpn) + " completed with an error CQE (syndrome " +
                         std::to_string(cqe[mlx5::kCqeSyndrome]) + ")");
  cuda::atom<unsigned long long>(reinterpret_cast<unsigned long long*>(cq->cons_idx), AtomicOp::Max, idx, 0, Sem::Relaxed,
                                 Scope::Gpu, false, s);
}

void quiet_qp(nvshmemi_ibgda_device_qp_t* qp, Site s) {
  if (!qp->qpn) return;  // this PE's own slot: no QP
  const uint64_t ready = ld64(&qp->mvars.tx_wq.ready_head, Sem::Relaxed, Scope::Gpu, s);
  if (!ready) return;
  if (ld64(&qp->mvars.tx_wq.prod_idx, Sem::Relaxed, Scope::Gpu, s) < ready) post_send(qp, ready, s);
  poll_cq(qp, ready, s);
}

// A 4-byte remote fetch-add of `value` at `raddr` of the QP's peer (the result lands in ibuf).
void amo_add32(nvshmemi_ibgda_device_qp_t* qp, uint64_t raddr, uint32_t rkey_be, int32_t value, Site s) {
  auto* m = &qp->mvars;
  const uint64_t idx = cuda::atom<unsigned long long>(reinterpret_cast<unsigned long long*>(&m->tx_wq.resv_head),
                                                      AtomicOp::Add, 1, 0, Sem::Relaxed, Scope::Gpu, true, s);
  if (idx + 1 > qp->tx_wq.nwqes) poll_cq(qp, idx + 1 - qp->tx_wq.nwqes, s);  // wait for the slot
  uint8_t w[64] = {};
  mlx5::put_be32(w, static_cast<uint32_t>(mlx5::kOpmodAtomic4B) << 24 | static_cast<uint32_t>(idx & 0xffff) << 8 |
                        mlx5::kOpAtomicMaskedFa);
  mlx5::put_be32(w + 4, qp->qpn << 8 | 4);
  w[11] = mlx5::kCeCqUpdate;
  mlx5::put_be64(w + 16, raddr);
  std::memcpy(w + 24, &rkey_be, 4);
  mlx5::put_be32(w + 32, static_cast<uint32_t>(value));
  mlx5::put_be32(w + 48, 4);
  std::memcpy(w + 52, &qp->ibuf.lkey, 4);
  mlx5::put_be64(w + 56, reinterpret_cast<uint64_t>(qp->ibuf.buf));
  auto* slot = static_cast<uint8_t*>(qp->tx_wq.wqe) + ((idx & (qp->tx_wq.nwqes - 1u)) << 6);
  for (int k = 0; k < 4; ++k) {
    Seg16 v;
    std::memcpy(v.b, w + 16 * k, 16);
    cuda::st<Seg16>(reinterpret_cast<Seg16*>(slot + 16 * k), v, Sem::Relaxed, Scope::Gpu, s);
  }
  nv::fence(Sem::Sc, Scope::Gpu, s);
  auto* ready = reinterpret_cast<unsigned long long*>(&m->tx_wq.ready_head);
  while (cuda::atom<unsigned long long>(ready, AtomicOp::Cas, idx + 1, idx, Sem::Relaxed, Scope::Gpu, true, s) != idx) {
  }
  post_send(qp, idx + 1, s);
}

// Key and address of pe's copy of the symmetric word p.
uint32_t rkey_of(const nvshmemi_device_host_state_t& st, const nvshmemi_ibgda_device_state_t& ib, const void* p, int pe,
                 uint64_t& raddr) {
  const uint64_t off = static_cast<uint64_t>(static_cast<const uint8_t*>(p) - static_cast<const uint8_t*>(st.heap_base));
  const size_t idx = ((off >> ib.log2_cumem_granularity) * static_cast<size_t>(st.npes) + static_cast<size_t>(pe)) *
                     static_cast<size_t>(ib.num_devices_initialized);
  raddr = reinterpret_cast<uint64_t>(st.peer_heap_base_remote[pe]) + off;
  return idx < NVSHMEMI_IBGDA_MAX_CONST_RKEYS ? ib.constmem.rkeys[idx].key
                                               : ib.globalmem.rkeys[idx - NVSHMEMI_IBGDA_MAX_CONST_RKEYS].key;
}

void quiet_all(Pe& pe, Site s) {
  const nvshmemi_device_host_state_t& st = *pe.state;
  const nvshmemi_ibgda_device_state_t& ib = *pe.ibgda;
  for (size_t k = 0; k < static_cast<size_t>(st.npes) * ib.num_rc_per_pe; ++k) quiet_qp(&ib.globalmem.rcs[k], s);
}

// One thread of this PE: (quiet,) then tell every member of `team` this PE reached its sync n
// and wait for theirs.
void sync_thread(int team, bool quiet, Site s) {
  Pe& pe = calling_pe();
  const nvshmemi_device_host_state_t& st = *pe.state;
  if (team < 0 || static_cast<size_t>(team) >= pe.teams.size() || !pe.teams[team].live)
    throw nv::DeviceTrap("NVSHMEM sync on team " + std::to_string(team) + ", which GPU " + std::to_string(st.mype) +
                         " does not have");
  const Team& t = pe.teams[team];
  if (quiet) quiet_all(pe, s);
  nv::fence(Sem::Sc, Scope::Sys, s);
  const uint64_t n = ld64(t.count, Sem::Relaxed, Scope::Gpu, s) + 1;
  cuda::st<uint64_t>(t.count, n, Sem::Relaxed, Scope::Gpu, s);
  uint64_t* mine = t.arrivals + st.mype;
  for (int i = 0; i < t.size; ++i) {
    const int p = t.start + i * t.stride;
    if (p == st.mype) continue;
    if (st.peer_heap_base_p2p[p]) {
      auto* there = static_cast<uint64_t*>(nvshmem_ptr(mine, p));
      cuda::atom<unsigned long long>(reinterpret_cast<unsigned long long*>(there), AtomicOp::Add, 1, 0, Sem::Release, Scope::Sys,
                                     false, s);
    } else {
      uint64_t raddr = 0;
      const uint32_t rkey = rkey_of(st, *pe.ibgda, mine, p, raddr);
      amo_add32(&pe.ibgda->globalmem.rcs[p], raddr, rkey, 1, s);  // RC QP 0 to p (rcs[p + npes * 0])
    }
  }
  for (int i = 0; i < t.size; ++i) {
    const int p = t.start + i * t.stride;
    if (p == st.mype) continue;
    // The low 32 bits: an RDMA signal adds to them (a 4-byte atomic), an NVLink one to all 64.
    while (static_cast<uint32_t>(ld64(t.arrivals + p, Sem::Acquire, Scope::Sys, s)) < static_cast<uint32_t>(n)) {
    }
  }
  quiet_all(pe, s);  // the RDMA signals' completions
}

}  // namespace

}  // namespace symsim::nvshmem

void nvshmem_quiet(symsim::nv::Site s) {
  if (!symsim::nv::current_thread()) return;
  symsim::nvshmem::quiet_all(symsim::nvshmem::calling_pe(), s);
}

void nvshmem_barrier_all(symsim::nv::Site s) {
  if (symsim::nv::current_thread()) {
    symsim::nvshmem::sync_thread(NVSHMEM_TEAM_WORLD, true, s);
    return;
  }
  symsim::nvshmem::calling_pe();
  symsim::cuda::host_barrier();
}

void nvshmemx_barrier_all_block(symsim::nv::Site s) {
  __syncthreads(s);
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) symsim::nvshmem::sync_thread(NVSHMEM_TEAM_WORLD, true, s);
  __syncthreads(s);
}

int nvshmem_sync(nvshmem_team_t team, symsim::nv::Site s) {
  symsim::nvshmem::sync_thread(team, false, s);
  return 0;
}

void nvshmem_sync_all(symsim::nv::Site s) { symsim::nvshmem::sync_thread(NVSHMEM_TEAM_WORLD, false, s); }

// The kernel side of CANN SHMEM's UDMA path, reimplemented from its documented behaviour:
// credit check, WQE build (scalar stores or UB + MTE3), doorbell, and CQ polling.
#include <cstring>

#include <fmt/format.h>

#include "models/ascend/ring.h"
#include "models/ascend/wqe_layout.h"
#include "shmem_device_udma.h"
#include "world.h"

namespace symsim::shim {

namespace {

struct QpView {
  aclshmemi_udma_wq_ctx_t* sq;
  aclshmemi_udma_cq_ctx_t* cq;
  aclshmemi_ubmem_info_t* mem;
};

QpView qp_view(int pe, uint32_t qp, const CallSite& site) {
  World& w = world();
  AivCore& c = core();
  const HostState& h = w.hosts[c.pe()];
  const aclshmemi_aiv_udma_info_t* info = h.udma_info;
  if (!info) trap(fmt::format("{}:{}: UDMA used but SHMEM was not initialised with ACLSHMEM_DATA_OP_UDMA", site.file, site.line));
  if (pe < 0 || pe >= w.sys->n_pes()) trap(fmt::format("{}:{}: PE {} is outside 0..{}", site.file, site.line, pe, w.sys->n_pes() - 1));
  if (qp >= info->qp_num) trap(fmt::format("{}:{}: QP {} is outside 0..{}", site.file, site.line, qp, info->qp_num - 1));
  const uint64_t i = uint64_t(pe) * info->qp_num + qp;
  c.scalar_ops(4);  // table lookups
  return {reinterpret_cast<aclshmemi_udma_wq_ctx_t*>(info->table.sq_ptr) + i,
          reinterpret_cast<aclshmemi_udma_cq_ctx_t*>(info->table.scq_ptr) + i,
          reinterpret_cast<aclshmemi_ubmem_info_t*>(info->table.mem_ptr) + i};
}

// Polls the CQ of (pe, qp) until `target` CQEs have been consumed; returns the last entry_idx.
void poll_cq(int pe, uint32_t qp, uint32_t target, const CallSite& site) {
  if (target == 0) return;
  AivCore& c = core();
  const QpView v = qp_view(pe, qp, site);
  World& w = world();
  BlockState& b = *w.blocks[c.pe()][c.core()];
  uint32_t cur = v.cq->tail;
  bool have_entry = false;
  uint16_t last_entry = 0;
  while (cur != target) {
    const uint8_t* cqe = reinterpret_cast<const uint8_t*>(v.cq->buf_addr) +
                         uint64_t{udma::ring_slot(cur, v.cq->depth)} * v.cq->cqe_size;
    uint32_t polls = 0;
    b.waiting.set("CQE", cur, pe, qp, cqe, site);
    for (;;) {
      // Bytes already in memory were visible no later than now, so a ready CQE needs no sync;
      // otherwise the poll observes memory at the core's time (dcci) and tries again.
      if (udma::cqe_ready(udma::cqe_owner(cqe), cur, v.cq->depth)) {
        c.advance(ns_to_ps(system().params().aiv_dcci_ns));
        break;
      }
      cache_clean_invalidate(cqe, udma::kCqeBytes);
      c.scalar_ops(2);
      if (udma::cqe_ready(udma::cqe_owner(cqe), cur, v.cq->depth)) break;
      if (++polls >= MAX_RETRY_TIMES)
        trap(fmt::format("{}:{}: CQ poll timed out on PE {} QP {} waiting for CQE {}", site.file, site.line, pe, qp, cur));
    }
    const udma::Cqe e = udma::decode_cqe(cqe);
    system().hooks().emit(&Observer::on_cqe_reaped, QpRef{c.pe(), pe, static_cast<int>(qp)}, cur, cqe, c.core(),
                          c.local_ps());
    if (!e.ok())
      trap(fmt::format("{}:{}: error CQE on PE {} QP {} (CQE {}): status {:#x} substatus {:#x}", site.file, site.line,
                       pe, qp, cur, e.status, e.substatus));
    last_entry = e.entry_idx;
    have_entry = true;
    ++cur;
  }
  b.waiting.clear();
  v.cq->tail = cur;
  st_dev(cur & 0xFFFFFFu, reinterpret_cast<uint32_t*>(v.cq->db_addr), 0);
  if (have_entry) v.sq->tail = udma::unwrap16(v.sq->tail, last_entry);
}

udma::Wqe build_wqe(const UdmaRequest& r, const QpView& v) {
  udma::Wqe w;
  w.opcode = r.opcode;
  w.flags = r.flags;
  w.token_en = v.mem->token_value_valid;
  w.rmt_jetty_type = static_cast<uint8_t>(v.mem->rmt_jetty_type);
  w.tp_id = v.mem->tpn;
  w.sge_num = 1;
  w.rmt_jetty_or_seg_id = v.mem->tid;
  std::memcpy(w.rmt_eid.data(), reinterpret_cast<const void*>(v.mem->eid_addr), 16);
  w.rmt_token_value = v.mem->rmt_token_value;
  w.remote_va = reinterpret_cast<uint64_t>(symmetric_ptr(r.remote, r.pe));
  w.len = static_cast<uint32_t>(r.bytes);
  w.local_va = reinterpret_cast<uint64_t>(r.local);
  if (r.opcode == udma::kWriteWithNotify) {
    w.notify_token_id = v.mem->tid;
    w.notify_token_value = v.mem->rmt_token_value;
    w.notify_addr = reinterpret_cast<uint64_t>(symmetric_ptr(r.sig_addr, r.pe));
    w.notify_data = r.signal;
  }
  return w;
}

}  // namespace

void* symmetric_ptr(const void* ptr, int pe) {
  AscendSystem& sys = system();
  const int me = my_pe();
  if (pe < 0 || pe >= sys.n_pes() || me < 0) return nullptr;
  const PeMemory& mine = sys.memory(me);
  const auto p = reinterpret_cast<uint64_t>(ptr);
  const auto base = reinterpret_cast<uint64_t>(mine.heap.base());
  if (mine.heap.size() == 0 || p < base || p >= base + mine.heap.size()) return nullptr;
  return sys.memory(pe).heap.base() + (p - base);
}

void udma_post(const UdmaRequest& r) {
  AivCore& c = core();
  const QpView v = qp_view(r.pe, r.qp, r.site);
  if (r.bytes > udma::kMaxRequestBytes)
    trap(fmt::format("{}:{}: request of {} bytes exceeds the 256 MB limit", r.site.file, r.site.line, r.bytes));
  const uint32_t bb = udma::bb_count(r.opcode);
  // Credit: when the ring is short, drain every outstanding CQE (there is no partial poll).
  if (!udma::sq_has_credit(v.sq->head, v.sq->tail, bb, ACLSHMEM_UDMA_AGGREGATE_CREDIT_GUARD, v.sq->depth))
    poll_cq(r.pe, r.qp, v.sq->cqe_cnt, r.site);

  uint8_t wqe[2 * udma::kWqebbBytes];
  udma::encode(build_wqe(r, v), wqe);
  const uint32_t head = v.sq->head;
  auto* ring = reinterpret_cast<uint8_t*>(v.sq->buf_addr);
  const uint32_t first_slot = udma::ring_slot(head, v.sq->depth);
  const uint32_t before_wrap = std::min(bb, v.sq->depth - first_slot);
  uint8_t* first_dst = ring + uint64_t{first_slot} * udma::kWqebbBytes;
  if (r.mte3) {
    if (!r.ub_buf) trap(fmt::format("{}:{}: PIPE_MTE3 WQE path needs a UB buffer", r.site.file, r.site.line));
    std::memcpy(r.ub_buf, wqe, bb * udma::kWqebbBytes);  // scalar stores into UB
    c.scalar_ops(8.0 * bb);
    const int id = static_cast<int>(r.sync_id);
    c.set_flag(AivPipe::kScalar, AivPipe::kMte3, id);
    c.wait_flag(AivPipe::kScalar, AivPipe::kMte3, id);
    c.copy(AivPipe::kMte3, first_dst, r.ub_buf, uint64_t{before_wrap} * udma::kWqebbBytes);
    if (before_wrap < bb) c.copy(AivPipe::kMte3, ring, r.ub_buf + before_wrap * udma::kWqebbBytes, udma::kWqebbBytes);
    c.set_flag(AivPipe::kMte3, AivPipe::kScalar, id);
    c.wait_flag(AivPipe::kMte3, AivPipe::kScalar, id);
  } else {
    std::memcpy(first_dst, wqe, uint64_t{before_wrap} * udma::kWqebbBytes);
    if (before_wrap < bb) std::memcpy(ring, wqe + before_wrap * udma::kWqebbBytes, udma::kWqebbBytes);
    c.scalar_ops(8.0 * bb);
    cache_clean_invalidate(first_dst, uint64_t{before_wrap} * udma::kWqebbBytes);
  }
  system().hooks().emit(&Observer::on_wqe_posted, QpRef{c.pe(), r.pe, static_cast<int>(r.qp)}, head, r.opcode,
                        c.core(), c.local_ps());
  const uint32_t new_head = head + bb;
  st_dev(new_head, reinterpret_cast<uint32_t*>(v.sq->db_addr), 0);
  v.sq->head = new_head;
  if (r.flags & udma::flag::kCqe) ++v.sq->cqe_cnt;
}

void udma_quiet(int pe, uint32_t qp, CallSite site) {
  const QpView v = qp_view(pe, qp, site);
  poll_cq(pe, qp, v.sq->cqe_cnt, site);
}

}  // namespace symsim::shim

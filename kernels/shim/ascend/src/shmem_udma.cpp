// The kernel side of CANN SHMEM's UDMA path, reimplemented from its documented behaviour:
// QP lookup, credit check, WQE build (scalar stores or UB + MTE3), doorbell, CQ polling,
// quiet, and the relay preconditions.
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "models/ascend/ring.h"
#include "models/ascend/wqe_layout.h"
#include "models/memory/address_map.h"
#include "kernel_operator.h"
#include "kernels/shim/ascend/src/udma_queue.h"
#include "kernels/shim/ascend/src/world.h"
#include "kernels/shim/ascend/src/wqe_posts.h"

namespace symsim::shim {

namespace {


// What an error CQE's status says, for the trap message (values the engine and faults write).
std::string cqe_error_meaning(uint8_t status, uint8_t substatus) {
  if (status == udma::cqe_status::kFlushed) return " (flushed: the QP is in the error state after an earlier error)";
  switch (substatus) {
    case udma::cqe_substatus::kTokenMismatch: return " (token mismatch: the WQE's token is not the target memory's)";
    case udma::cqe_substatus::kBadRemoteAddr: return " (remote address outside the target's registered memory)";
    case udma::cqe_substatus::kBadLocalAddr: return " (local address or length invalid)";
    case udma::cqe_substatus::kBadOpcode: return " (unsupported opcode or operands)";
    case udma::cqe_substatus::kUnreachable: return " (the target is unreachable on this path)";
    default: return "";
  }
}

}  // namespace

QpView qp_view(const char* api, int pe, int relay_pe, uint32_t qp, bool relay_build, CallSite site) {
  World& w = world();
  AivCore& c = core();
  const HostState& h = w.hosts[c.pe()];
  const aclshmemi_aiv_udma_info_t* info = h.udma_info;
  if (!info)
    trap(fmt::format("{}: {}: UDMA used but SHMEM was not initialised with ACLSHMEM_DATA_OP_UDMA", where(site), api));
  if (relay_build != h.relay_build)
    trap(fmt::format("{}: {}: the kernel was built {} ACLSHMEM_RELAY_SUPPORT but the host program of PE {} {}",
                     where(site), api, relay_build ? "with" : "without", c.pe(),
                     h.relay_build ? "was built with it" : "was not"));
  const int n = w.sys->n_pes();
  if (pe < 0 || pe >= n) trap(fmt::format("{}: {}: PE {} is outside 0..{}", where(site), api, pe, n - 1));
  if (qp >= info->qp_num)
    trap(fmt::format("{}: {}: QP {} is outside 0..{} (aclshmemx_set_qp_num before init sets the count)", where(site),
                     api, qp, info->qp_num - 1));
  const int slot = relay_build ? pe * n + (relay_pe < 0 ? c.pe() : relay_pe) : pe;
  const uint64_t i = uint64_t(slot) * info->qp_num + qp;
  c.scalar_ops(4);  // table lookups
  QpView v;
  v.sq = reinterpret_cast<aclshmemi_udma_wq_ctx_t*>(info->direct.sq_ptr) + i;
  v.cq = reinterpret_cast<aclshmemi_udma_cq_ctx_t*>(info->direct.scq_ptr) + i;
  v.mem = reinterpret_cast<aclshmemi_ubmem_info_t*>(info->direct.mem_ptr) + i;
  v.pe = pe;
  v.slot = slot;
  v.qp = qp;
  return v;
}

std::string address_name(const void* p) {
  const Region* r = system().addresses().find(p, 1);
  if (!r) return p ? "an address outside every region" : "null";
  return fmt::format("{}+{:#x}", r->name, reinterpret_cast<uintptr_t>(p) - r->begin);
}

bool sq_has_credit(const QpView& v, uint32_t bb) {
  return udma::sq_has_credit(v.sq->head, v.sq->tail, bb, ACLSHMEM_UDMA_AGGREGATE_CREDIT_GUARD, v.sq->depth);
}

void ring_doorbell(uint64_t db_addr, uint32_t value, CallSite site) {
  simt::reject_in_vf_at("st_dev", site);
  device_store_at(reinterpret_cast<void*>(db_addr), value, sizeof(uint32_t), site);
}

void poll_cq(const QpView& v, uint32_t target, CallSite site) {
  if (target == 0) return;
  AivCore& c = core();
  World& w = world();
  BlockState& b = *w.blocks[c.pe()][c.core()];
  uint32_t cur = v.cq->tail;
  bool have_entry = false;
  uint16_t last_entry = 0;
  while (cur != target) {
    const uint8_t* cqe = reinterpret_cast<const uint8_t*>(v.cq->buf_addr) +
                         uint64_t{udma::ring_slot(cur, v.cq->depth)} * v.cq->cqe_size;
    uint32_t polls = 0;
    b.waiting.set("CQE", cur, v.pe, v.qp, cqe, site);
    b.waiting.slot = v.slot;
    b.waiting.owner_bit = static_cast<int>(1 - udma::ring_phase(cur, v.cq->depth));
    for (;;) {
      // Bytes already in memory were visible no later than now, so a ready CQE needs no sync;
      // otherwise the poll observes memory at the core's time (dcci) and tries again. Both
      // cost one poll (dcci + compare): the result must not depend on which one saw it.
      if (udma::cqe_ready(udma::cqe_owner(cqe), cur, v.cq->depth)) {
        c.advance(c.dcci_ps());  // uncounted: the reap below counts
        c.scalar_ops(2);
        break;
      }
      b.spin.budget = MAX_RETRY_TIMES - polls;  // a core asleep on the CQE gives up with the loop
      cache_clean_invalidate_at(cqe, udma::kCqeBytes, site);
      b.spin.budget = UINT64_MAX;
      polls += static_cast<uint32_t>(std::exchange(b.spin.skipped, 0));
      c.scalar_ops(2);
      if (udma::cqe_ready(udma::cqe_owner(cqe), cur, v.cq->depth)) break;
      if (++polls >= MAX_RETRY_TIMES) {
        w.gave_up.push_back(wait_record(c.pe(), c.core(), b, c.local_ps()));
        w.gave_up.back().polls = polls;
      }
      if (polls >= MAX_RETRY_TIMES)
        trap(fmt::format("{}: CQ poll timed out on PE {} QP {} waiting for CQE {}", where(site), v.pe, v.qp, cur));
    }
    // Read as the engine wrote it, before the reap's observers run (no full decode: the poll
    // needs these three fields).
    const uint8_t status = udma::read_cqe_status(cqe), substatus = udma::read_cqe_substatus(cqe);
    const uint16_t entry = udma::read_cqe_entry_idx(cqe);
    system().hooks().emit<&Observer::on_cqe_reaped>(QpRef{c.pe(), v.slot, static_cast<int>(v.qp)}, cur, cqe,
                          c.core(), c.local_ps());
    if (status != 0 || substatus != 0)
      trap(fmt::format("{}: error CQE on PE {} QP {} (CQE {}): status {:#x} substatus {:#x}{}", where(site), v.pe, v.qp,
                       cur, status, substatus, cqe_error_meaning(status, substatus)));
    last_entry = entry;
    have_entry = true;
    ++cur;
  }
  b.waiting.clear();
  v.cq->tail = cur;
  ring_doorbell(v.cq->db_addr, cur & 0xFFFFFFu, site);
  if (have_entry) v.sq->tail = udma::unwrap16(v.sq->tail, last_entry);
}

udma::Wqe base_wqe(const QpView& v, uint8_t opcode, uint8_t flags, uint64_t remote_va, uint64_t local_va,
                   uint64_t bytes) {
  udma::Wqe w;
  w.opcode = opcode;
  w.flags = flags;
  w.token_en = v.mem->token_value_valid;
  w.rmt_jetty_type = static_cast<uint8_t>(v.mem->rmt_jetty_type);
  w.tp_id = v.mem->tpn;
  w.sge_num = 1;
  w.rmt_jetty_or_seg_id = v.mem->tid;
  std::memcpy(w.rmt_eid.data(), reinterpret_cast<const void*>(v.mem->eid_addr), 16);
  w.rmt_token_value = v.mem->rmt_token_value;
  w.remote_va = remote_va;
  w.len = static_cast<uint32_t>(bytes);
  w.local_va = local_va;
  return w;
}

void publish_wqe(const QpView& v, const udma::Wqe& w, bool mte3, uint8_t* ub, uint32_t sync_id, CallSite site) {
  AivCore& c = core();
  const uint32_t bb = udma::bb_count(w.opcode);
  // Credit: when the ring is short, drain every outstanding CQE (there is no partial poll).
  if (!sq_has_credit(v, bb)) poll_cq(v, v.sq->cqe_cnt, site);

  const uint32_t head = v.sq->head;
  auto* ring = reinterpret_cast<uint8_t*>(v.sq->buf_addr);
  const uint32_t first_slot = udma::ring_slot(head, v.sq->depth);
  const uint32_t before_wrap = std::min(bb, v.sq->depth - first_slot);
  uint8_t* first_dst = ring + uint64_t{first_slot} * udma::kWqebbBytes;
  if (mte3) {
    udma::encode(w, ub);  // scalar stores into UB (bb WQEBBs)
    c.scalar_ops(static_cast<int>(8 * bb));  // a whole count: the table, not a multiply
    const int id = static_cast<int>(sync_id);
    c.set_flag(AivPipe::kScalar, AivPipe::kMte3, id);
    c.wait_flag(AivPipe::kScalar, AivPipe::kMte3, id);
    c.copy_to_ring(first_dst, ub, uint64_t{before_wrap} * udma::kWqebbBytes);
    if (before_wrap < bb) c.copy_to_ring(ring, ub + before_wrap * udma::kWqebbBytes, udma::kWqebbBytes);
    c.set_flag(AivPipe::kMte3, AivPipe::kScalar, id);
    c.wait_flag(AivPipe::kMte3, AivPipe::kScalar, id);
  } else {
    uint8_t wqe[2 * udma::kWqebbBytes];
    udma::encode(w, wqe);
    std::memcpy(first_dst, wqe, uint64_t{before_wrap} * udma::kWqebbBytes);
    if (before_wrap < bb) std::memcpy(ring, wqe + before_wrap * udma::kWqebbBytes, udma::kWqebbBytes);
    c.scalar_ops(static_cast<int>(8 * bb));  // a whole count: the table, not a multiply
    cache_clean_invalidate_at(first_dst, uint64_t{before_wrap} * udma::kWqebbBytes, site);
  }
  Hooks& hooks = system().hooks();
  if (hooks.may_be_heard<&Observer::on_wqe_posted>())  // the trace's post records (wqe_posts.h)
    note_wqe_posted(c, QpRef{c.pe(), v.slot, static_cast<int>(v.qp)}, head, bb, w.opcode);
  if (hooks.may_be_heard<&AscendObserver::on_wqe_post>()) {  // built only for an observer that hears it
    PostRecord p;
    p.qp = QpRef{c.pe(), v.slot, static_cast<int>(v.qp)};
    p.wqe_index = head;
    p.bb = bb;
    p.opcode = w.opcode;
    p.flags = w.flags;
    p.core = c.core();
    p.local_va = w.local_va;
    p.remote_va = w.remote_va;
    p.bytes = w.len;
    p.t = c.local_ps();
    p.site = site_ref(site);
    hooks.emit<&AscendObserver::on_wqe_post>(p);
  }
  const uint32_t new_head = head + bb;
  ring_doorbell(v.sq->db_addr, new_head, site);
  v.sq->head = new_head;
  if (w.wants_cqe()) ++v.sq->cqe_cnt;
}

void* symmetric_ptr(const void* ptr, int pe) {
  AscendSystem& sys = system();
  const ExecContext* x = current_exec();  // not my_pe(): one counted call (system()) is enough
  const int me = x ? x->pe : -1;
  if (pe < 0 || pe >= sys.n_pes() || me < 0) return nullptr;
  const PeMemory& mine = sys.memory(me);
  const auto p = reinterpret_cast<uint64_t>(ptr);
  const auto base = reinterpret_cast<uint64_t>(mine.heap.base());
  if (mine.heap.size() == 0 || p < base || p >= base + mine.heap.size()) return nullptr;
  return sys.memory(pe).heap.base() + (p - base);
}

void udma_post(UdmaRequest r) {
  r.site = SYMSIM_CALLER();
  const QpView v = qp_view(r.api, r.pe, r.relay_pe, r.qp, r.relay_build, r.site);
  if (r.bytes > udma::kMaxRequestBytes)
    trap(fmt::format("{}: {}: request of {} bytes exceeds the 256 MB limit", where(r.site), r.api, r.bytes));
  if (r.mte3 && !r.ub_buf)
    trap(fmt::format("{}: {}: the PIPE_MTE3 WQE path needs a UB buffer", where(r.site), r.api));
  udma::Wqe w = base_wqe(v, r.opcode, r.flags, reinterpret_cast<uint64_t>(symmetric_ptr(r.remote, r.pe)),
                         reinterpret_cast<uint64_t>(r.local), r.bytes);
  if (r.opcode == udma::kWriteWithNotify) {
    w.notify_token_id = v.mem->tid;
    w.notify_token_value = v.mem->rmt_token_value;
    w.notify_addr = reinterpret_cast<uint64_t>(symmetric_ptr(r.sig_addr, r.pe));
    w.notify_data = r.signal;
  }
  publish_wqe(v, w, r.mte3, r.ub_buf, r.sync_id, r.site);
}

void udma_quiet(int pe, uint32_t qp, bool relay_build) { udma_quiet_at(pe, qp, relay_build, SYMSIM_CALLER()); }

void udma_quiet_at(int pe, uint32_t qp, bool relay_build, CallSite site) {
  if (!relay_build) {
    const QpView v = qp_view("aclshmemx_udma_qp_quiet", pe, -1, qp, false, site);
    poll_cq(v, v.sq->cqe_cnt, site);
    return;
  }
  // Relay builds: every path toward `pe` (one slot per relay PE, the direct one included).
  for (int relay = 0; relay < n_pes(); ++relay) {
    const QpView v = qp_view("aclshmemx_udma_quiet", pe, relay, 0, true, site);
    poll_cq(v, v.sq->cqe_cnt, site);
  }
}

void udma_check_relay(const char* api, int pe, int relay_pe) {
  const CallSite site = SYMSIM_CALLER();
  const int n = n_pes(), me = my_pe();
  if (pe < 0 || pe >= n || relay_pe < 0 || relay_pe >= n || pe == relay_pe || pe == me || relay_pe == me)
    trap(fmt::format("{}: {}: invalid pe={} relay_pe={} (my pe {}, {} PEs); require 0 <= pe, relay_pe < {}, "
                     "pe != relay_pe, and neither equal to my pe",
                     where(site), api, pe, relay_pe, me, n, n));
}

void udma_qp_api_in_relay_build(const char* api) {
  trap(fmt::format("{}: {}: QP-specific UDMA APIs require ACLSHMEM_RELAY_SUPPORT=OFF", where(SYMSIM_CALLER()), api));
}

}  // namespace symsim::shim

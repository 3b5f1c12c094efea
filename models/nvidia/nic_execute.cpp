// The NIC executing one WQE: the control segment's checks, then one function per opcode
// family (RDMA WRITE, atomics, RDMA READ). Each computes the WQE's times when it is fetched
// and schedules its memory effects at their own simulated times.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "models/nvidia/mem_order.h"
#include "models/nvidia/mlx5_layout.h"
#include "models/nvidia/nic.h"
#include "models/nvidia/nvidia_system.h"

namespace symsim::nv {

struct Nic::Exec {
  NicQp& q;
  uint32_t index;
  const uint8_t* w;  // the WQE's bytes as fetched
  mlx5::Ctrl c;
  Ps start;  // the NIC's pipeline takes it
  const NicQp::Ring& ring;
  WqeRecord rec;
  bool want_cqe;
  uint32_t bbs;      // WQEBBs it takes
  WriterRef writer;  // the NIC, on behalf of the thread that rang
  Ps pcie;           // one PCIe crossing
  // The remote address segment, which RDMA write, read and atomic WQEs all carry after the
  // control segment (bytes 16-27; a WQE is at least one 64 B WQEBB, so always readable).
  uint64_t raddr = 0;
  uint32_t rkey = 0;
};

uint32_t Nic::execute(NicQp& q, uint32_t index, const uint8_t* w, Ps start, const NicQp::Ring& ring) {
  const mlx5::Ctrl c = mlx5::parse_ctrl(w);
  Exec e{q, index, w, c, start, ring, WqeRecord{}, (c.fm_ce_se & mlx5::kCeCqUpdate) != 0, 1,
         WriterRef{WriterKind::Nic, m_gpu, ring.who.cta, ring.who.thread, ring.who.file, ring.who.line},
         ns_to_ps(m_sys.params().pcie_latency_ns)};
  e.raddr = mlx5::be64_at(w + 16);
  e.rkey = mlx5::be32_at(w + 24);
  e.rec.qp = {m_gpu, q.cfg.peer, q.cfg.slot_qp};
  e.rec.wqe_index = index;
  e.rec.opcode = c.opcode;
  e.rec.target_pe = q.cfg.peer;
  e.rec.doorbell_ps = ring.issued_ps;
  e.rec.fetch_ps = start;
  if (!admit(e)) return 1;
  e.bbs = mlx5::wqebbs(c.ds);
  switch (c.opcode) {
    case mlx5::kOpNop:
      complete(q, index, c.opcode, 0, 0, e.want_cqe, start + e.pcie, e.rec);
      break;
    case mlx5::kOpRdmaWrite:
    case mlx5::kOpRdmaWriteImm:
      run_write(e);
      break;
    case mlx5::kOpAtomicFa:
    case mlx5::kOpAtomicCs:
    case mlx5::kOpAtomicMaskedFa:
      run_atomic(e);
      break;
    case mlx5::kOpRdmaRead:
      run_read(e);
      break;
    default:
      emit_malformed({NicMalformedWqe::kUnknownOpcode, view(q), index, 0, 0, 0, 0, c.opcode, start});
      fail(e, mlx5::kSyndLocalQpOpErr, start + e.pcie);
      break;
  }
  return e.bbs;
}

bool Nic::admit(Exec& e) {
  NicQp& q = e.q;
  const mlx5::Ctrl& c = e.c;
  if (q.error) {
    complete(q, e.index, c.opcode, 0, mlx5::kSyndWrFlushErr, true, e.start + e.pcie, e.rec);
    return false;
  }
  const uint32_t slot = e.index & (q.cfg.sq_depth - 1);
  const uintptr_t slot_addr = reinterpret_cast<uintptr_t>(q.sq) + uint64_t{slot} * mlx5::kWqebbBytes;
  const uint32_t expected16 = e.index & 0xffff;
  if (c.wqe_index != expected16) {
    const uint32_t diff = (c.wqe_index - expected16) & 0xffff;
    m_sys.hooks().emit<&NvidiaObserver::on_nic_slot_mismatch>(
                       NicSlotMismatch{view(q), e.index, slot, slot_addr, static_cast<uint16_t>(c.wqe_index), c.opcode,
                                       e.ring.who, e.start});
    // A later WQE of this QP (the ring wrapped): the NIC executes what the slot holds.
    if (!(diff < 0x8000 && diff % q.cfg.sq_depth == 0)) {
      fail(e, mlx5::kSyndLocalQpOpErr, e.start + e.pcie);
      return false;
    }
  }
  if (c.qpn != q.qpn || c.ds == 0) {
    emit_malformed({NicMalformedWqe::kWrongQp, view(q), e.index, slot_addr, c.qpn, c.ds, 0, 0, e.start});
    fail(e, mlx5::kSyndLocalQpOpErr, e.start + e.pcie);
    return false;
  }
  return true;
}

void Nic::fail(Exec& e, uint8_t syndrome, Ps t) {
  e.q.error = true;
  complete(e.q, e.index, e.c.opcode, 0, syndrome, true, t, e.rec);
}

bool Nic::remote_ok(Exec& e, uint64_t len) {
  const uint64_t raddr = e.raddr;
  const uint32_t rkey = e.rkey;
  const MemRegion* r = m_sys.nic(e.q.cfg.peer).region_of(reinterpret_cast<const uint8_t*>(raddr), len, rkey);
  if (r && r->key == rkey) return true;
  emit_access_error({r ? NicAccessError::kRemoteKey : NicAccessError::kRemoteUnregistered, view(e.q), e.index, e.q.cfg.peer,
                     raddr, len, rkey, r ? r->key : 0, e.start});
  fail(e, mlx5::kSyndRemoteAccessErr, e.start + 2 * e.pcie);
  return false;
}

bool Nic::local_ok(Exec& e, uint64_t laddr, uint32_t lkey, uint64_t len) {
  const MemRegion* r = region_of(reinterpret_cast<const uint8_t*>(laddr), len, lkey);
  if (r && r->key == lkey) return true;
  emit_access_error({NicAccessError::kLocalUnregistered, view(e.q), e.index, m_gpu, laddr, len, lkey, 0, e.start});
  fail(e, mlx5::kSyndLocalQpOpErr, e.start + e.pcie);
  return false;
}

// A word a WQE writes: what it publishes, held here until it lands (then the ordering model
// holds it).
struct NicFlag {
  uintptr_t addr = 0;
  WordState state;
  std::shared_ptr<PostedWrites> posted;  // WQEs of other QPs not executed yet (or null)
  // The word lands (`rmw`: an atomic continues what it holds).
  void publish(OrderModel& order, bool rmw) {
    if (posted) state.posted.push_back(posted);
    order.word_written(addr, std::move(state), rmw);
  }
};

namespace {

// Where the WQE whose first WQEBB is `w` writes at the target: false when it writes nothing
// there (RDMA READ, NOP, unknown).
bool remote_range(const uint8_t* w, uintptr_t& begin, uintptr_t& end) {
  const mlx5::Ctrl c = mlx5::parse_ctrl(w);
  begin = mlx5::be64_at(w + 16);
  switch (c.opcode) {
    case mlx5::kOpRdmaWrite:
    case mlx5::kOpRdmaWriteImm:
      end = begin + std::max<uint32_t>(mlx5::be32_at(w + 32) & ~mlx5::kInlineSeg, 1);
      return true;
    case mlx5::kOpAtomicFa:
    case mlx5::kOpAtomicCs:
    case mlx5::kOpAtomicMaskedFa:
      end = begin + ((c.opcode == mlx5::kOpAtomicMaskedFa && c.opmod == mlx5::kOpmodAtomic4B) ? 4 : 8);
      return true;
    default:
      return false;
  }
}

}  // namespace

// What the ringer had not ordered, and this NIC's other QPs' writes to the same GPU not landed
// (other QPs are not ordered with this one): those in flight, and those of WQEs posted there
// when this WQE's doorbell arrived and not executed yet, rung or not (a kernel that rings every
// Nth message leaves its last ones to a later doorbell, which may come after this word has
// landed). The NIC fills in their landing times as it executes them (remote_write), so what
// the word publishes does not hang on the order the NIC takes its QPs in.
std::shared_ptr<NicFlag> Nic::word_state(const Exec& e, Ps t) {
  auto f = std::make_shared<NicFlag>();
  f->addr = e.raddr;
  WordState& s = f->state;
  s.writer = e.writer;
  s.unordered.add_all(e.ring.unordered, t);
  s.unordered_by_rules = e.ring.unfenced;
  for (NicQp& o : m_qps) {
    if (&o == &e.q) continue;
    o.inflight.prune(t);
    for (const InFlightWrite& x : o.inflight.writes())
      if (x.visible_ps > t && m_sys.memory().gpu_of(reinterpret_cast<const void*>(x.begin)) == e.q.cfg.peer)
        s.unordered.add(x);
  }
  for (const NicQp::Ring::Posted& p : e.ring.posted) add_posted(m_qps[static_cast<size_t>(p.qp)], p.end, *f);
  return f;
}

uint32_t Nic::posted_end(NicQp& o) {
  // Posted and not rung: the slots after the rung ones that hold this QP's next WQEs, as the
  // SQ holds them now (a slot from the ring's previous pass has another 16-bit index).
  uint32_t end = o.rung;
  mlx5::Ctrl c;
  for (uint32_t n = 0; n < kPeekWqes && end - o.executed < o.cfg.sq_depth && posted_wqe(o, end, c); ++n)
    end += mlx5::wqebbs(c.ds);
  return end;
}

const uint8_t* Nic::posted_wqe(NicQp& o, uint32_t index, mlx5::Ctrl& c) {
  const uint8_t* w = dma_ptr(o.sq + uint64_t{index & (o.cfg.sq_depth - 1)} * mlx5::kWqebbBytes, mlx5::kWqebbBytes);
  c = mlx5::parse_ctrl(w);
  return c.wqe_index == (index & 0xffff) && c.qpn == o.qpn && c.ds != 0 ? w : nullptr;
}

void Nic::add_posted(NicQp& o, uint32_t end, NicFlag& f) {
  uint32_t index = o.executed;
  mlx5::Ctrl c;
  for (uint32_t n = 0; n < kPeekWqes && static_cast<int32_t>(end - index) > 0; ++n) {
    const uint8_t* w = posted_wqe(o, index, c);
    if (!w) break;
    uintptr_t begin = 0, stop = 0;
    if (remote_range(w, begin, stop)) {
      if (!f.posted) f.posted = std::make_shared<PostedWrites>();
      if (o.waiters.size() >= kMaxWaiters) drop_waiter(o, o.waiters.begin());  // forgets: fewer reports
      o.waiters.push_back({index, f.posted, f.posted->add({begin, stop, kNotSentPs, {WriterKind::Nic, m_gpu, -1, -1, nullptr, 0}})});
    }
    index += mlx5::wqebbs(c.ds);
  }
}

void Nic::remote_write(NicQp& q, uint32_t index, const InFlightWrite& w) {
  q.inflight.add(w);
  for (auto it = q.waiters.begin(); it != q.waiters.end();) {
    if (it->index == index) {
      it->set->sent(it->write, w);
      it = q.waiters.erase(it);
    } else {
      ++it;
    }
  }
}

std::vector<NicQp::Waiter>::iterator Nic::drop_waiter(NicQp& q, std::vector<NicQp::Waiter>::iterator it) {
  it->set->dropped(it->write);  // wrote nothing, or forgotten
  return q.waiters.erase(it);
}

void Nic::executed_up_to(NicQp& q, uint32_t end) {
  q.executed = end;
  if (q.waiters.empty()) return;
  for (auto it = q.waiters.begin(); it != q.waiters.end();)
    it = static_cast<int32_t>(it->index - end) < 0 ? drop_waiter(q, it) : it + 1;
}

void Nic::run_write(Exec& e) {
  NicQp& q = e.q;
  const uint8_t* w = e.w;
  const int peer = q.cfg.peer;
  const Ps start = e.start, pcie = e.pcie;
  const uint64_t raddr = e.raddr;
  const uint32_t bc = mlx5::be32_at(w + 32);
  const bool inl = (bc & mlx5::kInlineSeg) != 0;
  const uint32_t len = bc & ~mlx5::kInlineSeg;
  const uint64_t laddr = inl ? 0 : mlx5::be64_at(w + 40);
  if (inl && 36 + len > e.bbs * mlx5::kWqebbBytes) {
    emit_malformed({NicMalformedWqe::kInlineOverrun, view(q), e.index, raddr, 0, 0, len, 0, start});
    fail(e, mlx5::kSyndLocalQpOpErr, start + pcie);
    return;
  }
  if (!remote_ok(e, len)) return;
  if (!inl && !local_ok(e, laddr, mlx5::be32_at(w + 36), len)) return;
  // Payload: inline in the WQE, or read from GPU memory by DMA when the request gets there.
  const Ps sample = start + pcie;
  const Ps ready = inl ? start
                       : m_sys.pcie_up(m_gpu).reserve(sample, len) + transfer_ps(len, m_sys.params().pcie_gbytes_per_s) + pcie;
  const Delivery d = m_sys.ib().send(m_gpu, peer, std::max<uint32_t>(len, 1), ready);
  Ps first = d.first_unit_ps + pcie, last = d.last_unit_ps + pcie;
  if (first <= q.last_remote_ps) {
    const Ps shift = q.last_remote_ps + 1 - first;
    first += shift;
    last += shift;
  }
  q.last_remote_ps = last;
  const Ps ack = d.last_unit_ps + m_sys.ib().control_latency_ps(peer, m_gpu);
  const uint32_t unit = m_sys.ib().params().visibility_bytes;
  VisibilityQueue* vis = &m_sys.visibility();
  OrderModel* order = &m_sys.order();
  auto flag = len <= 8 ? word_state(e, start) : nullptr;
  // The target NIC writes the payload into its GPU's memory.
  uint8_t* dst = m_sys.nic(peer).dma_ptr(reinterpret_cast<const void*>(raddr), len);
  auto land = [vis, order, first, interval = d.unit_interval_ps, unit, dst, len, flag](const uint8_t* data) {
    VisibilityQueue::DoneFn done;
    if (flag) done = [order, flag](Ps) { flag->publish(*order, false); };
    vis->schedule(first, interval, unit, dst, data, len, std::move(done));
  };
  if (inl) {
    land(w + 36);
  } else {
    const uint8_t* src = dma_ptr(reinterpret_cast<const void*>(laddr), len);
    vis->schedule_action(sample, [land, src](Ps) { land(src); });  // the bytes as they are then
  }
  q.inflight.prune(start);
  remote_write(q, e.index, {raddr, raddr + len, last, e.writer});
  finish(e, raddr, laddr, len, d.wire_start_ps, last, ack, ack + pcie);
}

void Nic::run_atomic(Exec& e) {
  NicQp& q = e.q;
  const uint8_t* w = e.w;
  const int peer = q.cfg.peer;
  const Ps start = e.start, pcie = e.pcie;
  const uint64_t raddr = e.raddr;
  const uint32_t size = (e.c.opcode == mlx5::kOpAtomicMaskedFa && e.c.opmod == mlx5::kOpmodAtomic4B) ? 4 : 8;
  const uint64_t operand = size == 4 ? mlx5::be32_at(w + 32) : mlx5::be64_at(w + 32);
  const uint64_t compare = mlx5::be64_at(w + 40);
  const uint32_t res_len = mlx5::be32_at(w + 48) & ~mlx5::kInlineSeg;
  const uint64_t laddr = mlx5::be64_at(w + 56);
  if (!remote_ok(e, size)) return;
  if (raddr % size != 0) {
    emit_access_error({NicAccessError::kAtomicUnaligned, view(q), e.index, peer, raddr, size, e.rkey, 0, start});
    fail(e, mlx5::kSyndRemoteOpErr, start + 2 * pcie);
    return;
  }
  const bool want_old = res_len > 0 && region_of(reinterpret_cast<const uint8_t*>(laddr), std::min<uint32_t>(res_len, size),
                                                 mlx5::be32_at(w + 52));
  // The request travels; the target NIC performs it (a PCIe atomic) after the QP's
  // earlier writes have landed, and the old value comes back.
  const Delivery d = m_sys.ib().send(m_gpu, peer, 16, start);
  Ps perform = d.last_unit_ps + pcie;
  if (perform <= q.last_remote_ps) perform = q.last_remote_ps + 1;
  q.last_remote_ps = perform;
  const Ps back = perform + pcie + m_sys.ib().control_latency_ps(peer, m_gpu);
  const Ps result_ps = back + pcie;
  VisibilityQueue* vis = &m_sys.visibility();
  OrderModel* order = &m_sys.order();
  auto flag = word_state(e, start);
  const uint8_t opcode = e.c.opcode;
  uint8_t* mem = m_sys.nic(peer).dma_ptr(reinterpret_cast<const void*>(raddr), size);
  uint8_t* result = want_old ? dma_ptr(reinterpret_cast<const void*>(laddr), size) : nullptr;
  vis->schedule_action(perform, [=](Ps) {
    uint64_t old = 0;
    std::memcpy(&old, mem, size);
    uint64_t v = old;
    if (opcode == mlx5::kOpAtomicCs) {
      if (old == compare) v = operand;
    } else {
      v = old + operand;
    }
    std::memcpy(mem, &v, size);
    flag->publish(*order, true);
    if (result) {
      const uint64_t be = size == 4 ? mlx5::bswap32(static_cast<uint32_t>(old)) : mlx5::bswap64(old);
      vis->schedule(result_ps, 0, 0, result, reinterpret_cast<const uint8_t*>(&be), size);
    }
  });
  q.inflight.prune(start);
  remote_write(q, e.index, {raddr, raddr + size, perform, e.writer});
  finish(e, raddr, laddr, size, d.wire_start_ps, perform, back, result_ps);
}

void Nic::run_read(Exec& e) {
  NicQp& q = e.q;
  const uint8_t* w = e.w;
  const int peer = q.cfg.peer;
  const Ps pcie = e.pcie;
  const uint64_t raddr = e.raddr;
  const uint32_t len = mlx5::be32_at(w + 32) & ~mlx5::kInlineSeg;
  const uint64_t laddr = mlx5::be64_at(w + 40);
  if (!remote_ok(e, len)) return;
  if (!local_ok(e, laddr, mlx5::be32_at(w + 36), len)) return;
  Ps sample = e.start + m_sys.ib().control_latency_ps(m_gpu, peer) + pcie;
  if (sample <= q.last_remote_ps) sample = q.last_remote_ps + 1;
  const Delivery d = m_sys.ib().send(peer, m_gpu, std::max<uint32_t>(len, 1), sample + pcie);
  const Ps first = d.first_unit_ps + pcie, last = d.last_unit_ps + pcie;
  const uint32_t unit = m_sys.ib().params().visibility_bytes;
  VisibilityQueue* vis = &m_sys.visibility();
  // The target NIC reads its GPU's memory when the request gets there; the bytes land here.
  const uint8_t* src = m_sys.nic(peer).dma_ptr(reinterpret_cast<const void*>(raddr), len);
  uint8_t* dst = dma_ptr(reinterpret_cast<const void*>(laddr), len);
  vis->schedule_action(sample, [=, interval = d.unit_interval_ps](Ps) { vis->schedule(first, interval, unit, dst, src, len); });
  finish(e, raddr, laddr, len, d.wire_start_ps, last, last, last);
}

void Nic::finish(Exec& e, uint64_t raddr, uint64_t laddr, uint32_t bytes, Ps wire_ps, Ps remote_write_ps,
                 Ps complete_ps, Ps cqe_ps) {
  e.rec.bytes = bytes;
  e.rec.remote_va = raddr;
  e.rec.local_va = laddr;
  e.rec.wire_ps = wire_ps;
  e.rec.remote_write_ps = remote_write_ps;
  e.rec.complete_ps = complete_ps;
  complete(e.q, e.index, e.c.opcode, bytes, 0, e.want_cqe, cqe_ps, e.rec);
}

}  // namespace symsim::nv

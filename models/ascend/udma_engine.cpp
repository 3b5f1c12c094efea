#include "models/ascend/udma_engine.h"
#include "models/core/sim_now.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "models/ascend/ring.h"
#include "models/ascend/udma_atomic_alu.h"

namespace symsim {

using namespace udma;

namespace {
Ps now_ps() { return sim_now_ps(); }
}  // namespace

UdmaEngine::UdmaEngine(sc_core::sc_module_name name, int pe, UdmaEnv env)
    : sc_module(name),
      m_pe(pe),
      m_env(env),
      m_hbm_ps(env.params.ns(env.params.hbm_latency_ns)),
      m_doorbell_ps(env.params.ns(env.params.udma_doorbell_ns)),
      m_wqe_ps(env.params.ns(env.params.udma_wqe_ns)),
      m_unit_bytes(static_cast<uint32_t>(env.params.fabric_visibility_bytes)),
      m_doorbells(uint64_t{64} << 20, false, std::string(this->name()) + ".doorbells") {
  doorbell.bind(*this);
}

uint8_t* UdmaEngine::dmi_pointer(uint8_t* address, uint64_t len) {
  const auto a = reinterpret_cast<uint64_t>(address);
  for (const tlm::tlm_dmi& d : m_dmi)
    if (a >= d.get_start_address() && a + len - 1 <= d.get_end_address())
      return d.get_dmi_ptr() + (a - d.get_start_address());
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_WRITE_COMMAND);
  trans.set_address(a);
  tlm::tlm_dmi d;
  if (!dma->get_direct_mem_ptr(trans, d) || !d.is_read_write_allowed() || a + len - 1 > d.get_end_address())
    throw std::runtime_error(fmt::format("{}: no DMI for [{:#x}, +{}) from the memory on its dma socket", name(), a, len));
  m_dmi.push_back(d);
  return d.get_dmi_ptr() + (a - d.get_start_address());
}

tlm::tlm_sync_enum UdmaEngine::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase&, sc_core::sc_time&) {
  trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  return tlm::TLM_COMPLETED;
}

bool UdmaEngine::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  dmi.allow_none();  // registers: no direct access, for any address
  dmi.set_start_address(0);
  dmi.set_end_address(~sc_dt::uint64{0});
  return false;
}

unsigned int UdmaEngine::transport_dbg(tlm::tlm_generic_payload&) { return 0; }

void UdmaEngine::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const unsigned int len = trans.get_data_length();
  if (!trans.is_write() || (len != 4 && len != 8) || trans.get_byte_enable_ptr()) {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  // Two fixed-size loads (a copy of `len` bytes was a byte loop).
  uint64_t value = 0;
  if (len == 8) {
    std::memcpy(&value, trans.get_data_ptr(), 8);
  } else {
    uint32_t low;
    std::memcpy(&low, trans.get_data_ptr(), 4);
    value = low;
  }
  // A posted write: the store leaves the core at its local time; the engine's own latency is
  // in when it acts (mmio_store), not in the initiator's delay.
  mmio_store(trans.get_address(), value, now_ps() + static_cast<Ps>(delay.value()));
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

int UdmaEngine::create_qp(const QpRef& ref, int target_pe, uint32_t sq_depth_bb, uint32_t cq_depth) {
  // The ring arithmetic (ring.h) masks an index with depth - 1.
  if (!is_pow2(sq_depth_bb) || !is_pow2(cq_depth))
    throw std::invalid_argument("UDMA ring depths must be powers of two (SQ " + std::to_string(sq_depth_bb) +
                                " WQEBBs, CQ " + std::to_string(cq_depth) + " entries)");
  UdmaQp q;
  q.ref = ref;
  q.target_pe = target_pe;
  q.sq_depth_bb = sq_depth_bb;
  q.cq_depth = cq_depth;
  PeMemory& mem = m_env.memory[m_pe];
  q.sq_base = mem.rings.allocate(uint64_t{sq_depth_bb} * kWqebbBytes, 4096);
  q.cq_base = mem.rings.allocate(uint64_t{cq_depth} * kCqeBytes, 4096);
  if (!q.sq_base || !q.cq_base) throw std::runtime_error("HBM ring area exhausted on PE " + std::to_string(m_pe));
  q.sq_base = dmi_pointer(q.sq_base, uint64_t{sq_depth_bb} * kWqebbBytes);
  q.cq_base = dmi_pointer(q.cq_base, uint64_t{cq_depth} * kCqeBytes);
  const auto index = static_cast<int>(m_qps.size());
  q.tp_id = static_cast<uint32_t>(index);
  q.sq_doorbell_addr = reinterpret_cast<uint64_t>(m_doorbells.base()) + index * kDoorbellStride;
  q.cq_doorbell_addr = q.sq_doorbell_addr + 8;
  q.data_lane = m_env.visibility.make_lane();
  q.notify_lane = m_env.visibility.make_lane();
  q.cqe_lane = m_env.visibility.make_lane();
  m_qps.push_back(q);
  return index;
}

inline void UdmaEngine::mmio_store(uint64_t offset_bytes, uint64_t value, Ps t_ps) {
  const auto index = static_cast<int>(offset_bytes / kDoorbellStride);
  if (index >= static_cast<int>(m_qps.size())) return;  // unmapped doorbell: the store is lost
  const bool cq = (offset_bytes % kDoorbellStride) >= 8;
  const Ps now = now_ps();
  // The engine acts on an SQ doorbell when it fetches the WQEs (one HBM read later).
  Ps t = std::max(t_ps, now) + m_doorbell_ps;
  if (!cq) t += m_hbm_ps;
  if (m_env.hooks.faults_active()) {  // a store lost or held up on its way to the engine
    const DoorbellFault f =
        m_env.hooks.faults().doorbell(m_qps[index].ref, cq, static_cast<uint32_t>(value), std::max(t_ps, now));
    if (f.drop) return;
    t += f.delay_ps;
  }
  ++m_queued;
  m_env.doorbells.post({t, m_pe, index, 0, cq, static_cast<uint32_t>(value)});
}

void UdmaEngine::serve(const DoorbellEvent& ev) {
  --m_queued;
  const Ps now = now_ps();
  UdmaQp& q = m_qps[ev.qp];
  if (ev.cq) {
    const uint32_t delta = (ev.value - q.cq_consumed) & 0xFFFFFFu;  // the doorbell carries 24 bits
    q.cq_consumed += delta;
    m_env.hooks.emit<&Observer::on_cq_doorbell>(q.ref, q.cq_consumed, now);
  } else {
    ring_sq(q, ev.value, now);
  }
}

inline void UdmaEngine::ring_sq(UdmaQp& q, uint32_t producer_index, Ps t) {
  q.sq_rung_value = producer_index;
  q.sq_rung_ps = t;
  m_env.hooks.emit<&Observer::on_sq_doorbell>(q.ref, producer_index, t);
  const auto ahead = static_cast<int32_t>(producer_index - q.sq_doorbell);
  if (ahead < 0) {
    m_env.hooks.emit<&Observer::on_doorbell_regression>(q.ref, q.sq_doorbell, producer_index, t);
    return;  // the engine ignores a backwards doorbell
  }
  if (producer_index - q.sq_fetched > q.sq_depth_bb)  // slots rewritten before the engine read them
    m_env.hooks.emit<&AscendObserver::on_sq_overrun>(q.ref, producer_index, q.sq_fetched, q.sq_depth_bb, t);
  q.sq_doorbell = producer_index;
  m_env.visibility.settle(t);  // the WQE bytes as they are in HBM now
  while (q.sq_fetched != q.sq_doorbell) {
    const uint8_t* first = q.sq_base + uint64_t{ring_slot(q.sq_fetched, q.sq_depth_bb)} * kWqebbBytes;
    const uint32_t bb = bb_count(peek_opcode(first));
    const uint8_t* second = q.sq_base + uint64_t{ring_slot(q.sq_fetched + 1, q.sq_depth_bb)} * kWqebbBytes;
    m_env.hooks.emit<&AscendObserver::on_wqe_fetched>(q.ref, q.sq_fetched, first,
                     (bb > 1 && second == first + kWqebbBytes ? bb : 1) * kWqebbBytes, t);
    execute(q, q.sq_fetched, first, bb > 1 ? second : nullptr, t);
    q.sq_fetched += bb;
  }
}

inline uint8_t UdmaEngine::check(const UdmaQp& q, const Wqe& w, const EidRoute& route) const {
  const int target = route.target_pe;
  if (target < 0 || target != q.target_pe) return cqe_substatus::kUnreachable;
  if (w.len > kMaxRequestBytes) return cqe_substatus::kBadLocalAddr;
  const PeMemory& local = m_env.memory[m_pe];
  const PeMemory& remote = m_env.memory[target];
  switch (w.opcode) {
    case kWrite:
    case kWriteWithNotify:
    case kRead:
      if (!local.in_hbm(w.local_va, w.len)) return cqe_substatus::kBadLocalAddr;
      if (!remote.in_heap(w.remote_va, w.len)) return cqe_substatus::kBadRemoteAddr;
      if (w.opcode == kWriteWithNotify && !remote.in_heap(w.notify_addr, 8)) return cqe_substatus::kBadRemoteAddr;
      if (w.opcode == kWrite && (w.flags & flag::kUdf) &&
          (w.reduce_opcode != kReduceOpAdd || w.reduce_data_type != kReduceTypeFp32 || w.len % 4 != 0))
        return cqe_substatus::kBadOpcode;  // the only reduce in the public sources: fp32 add
      break;
    case kFaa:
    case kCas:
      if (w.len != 4 && w.len != 8) return cqe_substatus::kBadLength;
      if (!local.in_hbm(w.local_va, w.len)) return cqe_substatus::kBadLocalAddr;
      if (!remote.in_heap(w.remote_va, w.len) || w.remote_va % w.len != 0) return cqe_substatus::kBadRemoteAddr;
      break;
    default:
      return cqe_substatus::kBadOpcode;
  }
  if (w.token_en && w.rmt_token_value != remote.heap_token) return cqe_substatus::kTokenMismatch;
  return cqe_substatus::kNone;
}

namespace {

// When a message's units become visible in the destination's memory.
struct Landing {
  Ps first_ps;
  Ps interval_ps;
  Ps last_ps;
};

// The delivery plus the HBM write, moved later as a whole when ordering says the first unit
// may not land before `after_ps` (strictly after: same-time writes have no order).
Landing land(const Delivery& d, Ps hbm_ps, Ps after_ps) {
  Landing l{d.first_unit_ps + hbm_ps, d.unit_interval_ps, d.last_unit_ps + hbm_ps};
  if (after_ps != 0 && l.first_ps <= after_ps) {
    const Ps shift = after_ps + 1 - l.first_ps;
    l.first_ps += shift;
    l.last_ps += shift;
  }
  return l;
}

}  // namespace

inline void UdmaEngine::execute(UdmaQp& q, uint32_t wqe_index, const uint8_t* first, const uint8_t* second, Ps t) {
  const Ps hbm_ps = m_hbm_ps;
  const Wqe w = decode(first, second);
  WqeRecord r;
  r.qp = q.ref;
  r.wqe_index = wqe_index;
  r.opcode = w.opcode;
  r.flags = w.flags;
  r.bytes = w.len;
  r.remote_va = w.remote_va;
  r.local_va = w.local_va;
  r.doorbell_ps = t - hbm_ps;
  // The engine pipeline takes one WQE at a time. A QP's WQEs start in order, and a fence holds
  // its WQE (and so its QP, not the engine) until every earlier WQE of the QP has completed.
  const Ps slot = std::max(t, m_free_ps);
  m_free_ps = slot + m_wqe_ps;
  m_busy_ps += m_free_ps - slot;
  m_env.hooks.emit<&Observer::on_engine_busy>(m_pe, slot, m_free_ps);
  r.fetch_ps = slot;
  const EidRoute route = decode_eid(w.rmt_eid, m_env.fabric.n_pes());
  r.target_pe = route.target_pe;
  r.via_pe = route.via_pe;

  const uint8_t sub = q.error ? cqe_substatus::kNone : check(q, w, route);
  m_wqe_fault = {};  // an injected error completion, landing delay or bit flips for this WQE
  if (!q.error && sub == cqe_substatus::kNone && m_env.hooks.faults_active())
    m_wqe_fault = m_env.hooks.faults().wqe(q.ref, wqe_index, w.opcode, route.target_pe, w.remote_va, w.len, slot);
  if (q.error || sub != cqe_substatus::kNone || m_wqe_fault.status != 0) {
    r.status = q.error ? cqe_status::kFlushed
               : m_wqe_fault.status ? m_wqe_fault.status
                                    : (sub == cqe_substatus::kBadLocalAddr || sub == cqe_substatus::kBadOpcode ||
                                               sub == cqe_substatus::kBadLength
                                           ? cqe_status::kLocalError
                                           : cqe_status::kRemoteAccess);
    r.substatus = m_wqe_fault.status && !q.error ? m_wqe_fault.substatus : sub;
    q.error = true;  // like RDMA hardware: the QP stops and flushes what follows
    r.complete_ps = slot;
    write_cqe(q, r, slot + hbm_ps);
    m_env.hooks.emit<&Observer::on_wqe_executed>(r);
    return;
  }

  const Ps start = std::max({slot, q.issue_ps, q.order.start_after(w.flags)});
  q.issue_ps = start;
  switch (w.opcode) {
    case kRead: run_read(q, w, route, r, start); break;
    case kFaa:
    case kCas: run_atomic(q, w, route, r, start); break;
    default: run_write(q, w, route, r, start); break;  // WRITE (plain or reduce), WRITE_WITH_NOTIFY
  }
  q.order.record(w.flags, r.remote_write_ps, r.complete_ps);
  if (w.wants_cqe()) write_cqe(q, r, q.order.completed_all_ps() + hbm_ps);
  m_env.hooks.emit<&Observer::on_wqe_executed>(r);
}

inline void UdmaEngine::run_write(UdmaQp& q, const Wqe& w, const EidRoute& route, WqeRecord& r, Ps start) {
  const Ps hbm_ps = m_hbm_ps;
  Fabric& fabric = m_env.fabric;
  const int target = route.target_pe;
  const Ps read_at = m_env.hbm_ports[m_pe].reserve(start + hbm_ps, w.len);
  const Delivery d = fabric.send(m_pe, target, w.len, read_at, route.via_pe);
  Landing l = land(d, hbm_ps, q.order.place_after(w.flags));
  l.first_ps += m_wqe_fault.delay_ps;  // a reorder fault holds this WQE's data back
  l.last_ps += m_wqe_fault.delay_ps;
  r.wire_ps = d.wire_start_ps;
  r.first_write_ps = l.first_ps;
  r.unit_interval_ps = l.interval_ps;
  auto* dst = reinterpret_cast<uint8_t*>(w.remote_va);
  const auto* src = reinterpret_cast<const uint8_t*>(w.local_va);
  if (w.flags & flag::kUdf) {
    // WRITE with reduce: the target adds the payload into its memory once all of it arrived.
    std::vector<uint8_t> payload(src, src + w.len);
    const uint64_t len = payload.size();
    m_env.visibility.schedule_action(
        l.last_ps, [dst, payload = std::move(payload)](Ps) { reduce_add_fp32(dst, payload.data(), payload.size()); },
        dst, len);
  } else if (!m_env.hooks.faults_active()) {
    m_env.visibility.schedule_stream(l.first_ps, l.interval_ps, m_unit_bytes,
                                     dst, src, w.len, q.data_lane);
  } else {
    l.last_ps = land_with_faults(q, r.wqe_index, target, dst, src, w.len, l.first_ps, l.interval_ps);
  }
  r.remote_write_ps = l.last_ps;
  if (w.opcode == kWriteWithNotify) {
    // The notify word lands after the data it announces.
    m_env.visibility.schedule_value(l.last_ps, reinterpret_cast<uint8_t*>(w.notify_addr), w.notify_data, 8,
                                    q.notify_lane);
  }
  r.complete_ps = l.last_ps + fabric.control_latency_ps(target, m_pe, route.via_pe);
}

void UdmaEngine::run_read(UdmaQp& q, const Wqe& w, const EidRoute& route, WqeRecord& r, Ps start) {
  const AscendParams& p = m_env.params;
  const Ps hbm_ps = m_hbm_ps;
  Fabric& fabric = m_env.fabric;
  const int target = route.target_pe;
  const Ps request_at = start + fabric.control_latency_ps(m_pe, target, route.via_pe);
  const Ps read_at = m_env.hbm_ports[target].reserve(request_at + hbm_ps, w.len);
  const Delivery d = fabric.send(target, m_pe, w.len, read_at, route.via_pe);
  const Landing l = land(d, hbm_ps, q.order.place_after(w.flags));
  r.wire_ps = d.wire_start_ps;
  // The target's memory is read when its HBM port serves the request; the bytes read then
  // land here unit by unit.
  VisibilityQueue& vis = m_env.visibility;
  const auto unit = static_cast<uint32_t>(p.fabric_visibility_bytes);
  auto* dst = reinterpret_cast<uint8_t*>(w.local_va);
  const auto* src = reinterpret_cast<const uint8_t*>(w.remote_va);
  const uint64_t len = w.len;
  const VisibilityQueue::Lane lane = q.data_lane;
  vis.schedule_action(
      read_at,
      [&vis, read_at, l, unit, dst, src, len, lane](Ps) {
        vis.schedule_read(read_at, l.first_ps, l.interval_ps, unit, dst, src, len, lane);
      },
      dst, len);
  r.remote_write_ps = l.last_ps;
  r.complete_ps = l.last_ps;
}

void UdmaEngine::run_atomic(UdmaQp& q, const Wqe& w, const EidRoute& route, WqeRecord& r, Ps start) {
  const Ps hbm_ps = m_hbm_ps;
  Fabric& fabric = m_env.fabric;
  const int target = route.target_pe;
  const uint32_t width = w.len;
  // The request carries its operands; the target performs the read-modify-write when it
  // arrives and sends the old value back to the SGE's local buffer (the QP's AMO buffer).
  const Delivery request = fabric.send(m_pe, target, width, start, route.via_pe);
  Ps op_at = request.last_unit_ps + hbm_ps;
  const Ps after = q.order.place_after(w.flags);
  if (after != 0 && op_at <= after) op_at = after + 1;
  const Delivery response = fabric.send(target, m_pe, width, op_at, route.via_pe);
  // The old values of one QP's atomics return in order, like read responses on a reliable
  // connection: they all land in the QP's one AMO buffer.
  const Ps result_at = std::max(response.last_unit_ps + hbm_ps, q.last_amo_result_ps + 1);
  q.last_amo_result_ps = result_at;
  r.wire_ps = request.wire_start_ps;
  VisibilityQueue& vis = m_env.visibility;
  auto* word = reinterpret_cast<uint8_t*>(w.remote_va);
  auto* result = reinterpret_cast<uint8_t*>(w.local_va);
  const bool add = w.opcode == kFaa;
  const uint64_t operand = w.atomic_operand, compare = w.atomic_compare;
  const VisibilityQueue::Lane lane = q.data_lane;
  vis.schedule_action(
      op_at,
      [&vis, word, result, width, add, operand, compare, result_at, lane](Ps) {
        const uint64_t old = add ? fetch_add(word, operand, width) : compare_swap(word, compare, operand, width);
        vis.schedule_value(result_at, result, old, width, lane);
      },
      word, width);
  r.remote_write_ps = op_at;
  r.complete_ps = result_at;
}

Ps UdmaEngine::land_with_faults(UdmaQp& q, uint32_t wqe_index, int target, uint8_t* dst, const uint8_t* src,
                                 uint64_t len, Ps first_ps, Ps interval_ps) {
  FaultHooks& f = m_env.hooks.faults();
  VisibilityQueue& vis = m_env.visibility;
  std::vector<uint8_t> staged;  // the payload as it travels (bit flips change this copy only)
  if (m_wqe_fault.flip_bits) {
    staged.assign(src, src + len);
    f.corrupt(q.ref, wqe_index, staged.data(), len, m_wqe_fault.flip_bits);
    src = staged.data();
  }
  // The engine streams its source as units land; a corrupted copy is captured now instead.
  const auto put = [&](Ps at, Ps interval, uint32_t unit_bytes, uint64_t off, uint64_t n, VisibilityQueue::Lane lane) {
    if (staged.empty()) {
      vis.schedule_stream(at, interval, unit_bytes, dst + off, src + off, n, lane);
    } else {
      vis.schedule(at, interval, unit_bytes, dst + off, src + off, n, nullptr, lane);
    }
  };
  constexpr VisibilityQueue::Lane own = VisibilityQueue::kNoLane;  // torn parts go back in time
  const auto unit = static_cast<uint32_t>(m_env.params.fabric_visibility_bytes);
  const uint64_t units = (len + unit - 1) / unit;
  Ps last = first_ps + (units > 0 ? (units - 1) * interval_ps : 0);
  uint64_t run = 0;  // first byte of the run of whole units not yet scheduled
  const auto flush = [&](uint64_t end) {
    if (end > run) put(first_ps + run / unit * interval_ps, interval_ps, unit, run, end - run, q.data_lane);
  };
  for (uint64_t off = 0; off < len; off += unit) {
    const auto n = static_cast<uint32_t>(std::min<uint64_t>(unit, len - off));
    const Ps at = first_ps + off / unit * interval_ps;
    TornUnit torn;
    if (!f.tear(q.ref, wqe_index, target, dst + off, n, at, &torn) || torn.late_bytes == 0 ||
        torn.late_offset + torn.late_bytes > n)
      continue;
    // A torn unit: its parts land at different times.
    flush(off);
    const uint64_t late_end = torn.late_offset + torn.late_bytes;
    if (torn.late_offset > 0) put(at, 0, 0, off, torn.late_offset, own);
    if (late_end < n) put(at, 0, 0, off + late_end, n - late_end, own);
    put(at + torn.late_delay_ps, 0, 0, off + torn.late_offset, torn.late_bytes, own);
    last = std::max(last, at + torn.late_delay_ps);
    run = off + n;
  }
  flush(len);
  return last;
}

inline void UdmaEngine::write_cqe(UdmaQp& q, WqeRecord& r, Ps t) {
  const uint32_t index = q.cq_produced;
  const uint32_t capacity = m_env.hooks.faults_active()
                                ? std::min(q.cq_depth, m_env.hooks.faults().cq_capacity(q.ref, q.cq_depth, t))
                                : q.cq_depth;
  if (index - q.cq_consumed >= capacity) {
    // No room: as on RDMA hardware the CQE is lost and the QP enters the error state (an
    // asynchronous error); its later WQEs are flushed.
    m_env.hooks.emit<&Observer::on_cq_overflow>(q.ref, index, q.cq_consumed, t);
    if (!q.error) m_env.hooks.emit<&Observer::on_qp_error>(q.ref, "CQ overflow", t);
    q.error = true;
    return;
  }
  Cqe c;
  c.owner = cqe_owner_for(index, q.cq_depth);
  c.opcode = static_cast<uint8_t>(r.opcode & 0x7);
  c.status = r.status;
  c.substatus = r.substatus;
  c.entry_idx = static_cast<uint16_t>(r.wqe_index + bb_count(r.opcode));
  c.tpn = q.tp_id;
  c.byte_cnt = r.bytes;
  t = std::max(t, q.last_cqe_ps);
  q.last_cqe_ps = t;
  encode(c, m_env.visibility.schedule_in_place(t, q.cq_base + uint64_t{ring_slot(index, q.cq_depth)} * kCqeBytes,
                                               kCqeBytes, q.cqe_lane));
  ++q.cq_produced;
  r.cqe_ps = t;
  r.cqe_index = index;
}

}  // namespace symsim

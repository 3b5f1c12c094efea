#include "models/ascend/udma_engine.h"

#include <algorithm>

#include "models/ascend/ring.h"

namespace symsim {

using namespace udma;

namespace {
Ps now_ps() { return static_cast<Ps>(sc_core::sc_time_stamp().value()); }
}  // namespace

UdmaEngine::UdmaEngine(sc_core::sc_module_name name, int pe, UdmaEnv env)
    : sc_module(name),
      m_pe(pe),
      m_env(env),
      m_doorbells(uint64_t{64} << 20, false, std::string(this->name()) + ".doorbells") {
  SC_METHOD(process);
  sensitive << m_wake;
  dont_initialize();
}

int UdmaEngine::create_qp(const QpRef& ref, int target_pe, uint32_t sq_depth_bb, uint32_t cq_depth) {
  UdmaQp q;
  q.ref = ref;
  q.target_pe = target_pe;
  q.sq_depth_bb = sq_depth_bb;
  q.cq_depth = cq_depth;
  PeMemory& mem = m_env.memory[m_pe];
  q.sq_base = mem.rings.allocate(uint64_t{sq_depth_bb} * kWqebbBytes, 4096);
  q.cq_base = mem.rings.allocate(uint64_t{cq_depth} * kCqeBytes, 4096);
  if (!q.sq_base || !q.cq_base) throw std::runtime_error("HBM ring area exhausted on PE " + std::to_string(m_pe));
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

void UdmaEngine::mmio_store(uint64_t offset_bytes, uint64_t value, Ps t_ps) {
  const auto index = static_cast<int>(offset_bytes / kDoorbellStride);
  if (index >= static_cast<int>(m_qps.size())) return;  // unmapped doorbell: the store is lost
  const bool cq = (offset_bytes % kDoorbellStride) >= 8;
  const Ps now = now_ps();
  // The engine acts on an SQ doorbell when it fetches the WQEs (one HBM read later).
  const AscendParams& p = m_env.params;
  Ps t = std::max(t_ps, now) + p.ns(p.udma_doorbell_ns);
  if (!cq) t += p.ns(p.hbm_latency_ns);
  const bool earliest = m_events.empty() || t < m_events.top().t;
  m_events.push({t, m_seq++, index, cq, static_cast<uint32_t>(value)});
  if (earliest) m_wake.notify(sc_core::sc_time::from_value(t - now));
}

void UdmaEngine::process() {
  const Ps now = now_ps();
  while (!m_events.empty() && m_events.top().t <= now) {
    const DoorbellEvent ev = m_events.top();
    m_events.pop();
    UdmaQp& q = m_qps[ev.qp];
    if (ev.cq) {
      const uint32_t delta = (ev.value - q.cq_consumed) & 0xFFFFFFu;  // the doorbell carries 24 bits
      q.cq_consumed += delta;
      m_env.hooks.emit(&Observer::on_cq_doorbell, q.ref, q.cq_consumed, now);
    } else {
      ring_sq(q, ev.value, now);
    }
  }
  if (!m_events.empty()) m_wake.notify(sc_core::sc_time::from_value(m_events.top().t - now));
}

void UdmaEngine::ring_sq(UdmaQp& q, uint32_t producer_index, Ps t) {
  m_env.hooks.emit(&Observer::on_sq_doorbell, q.ref, producer_index, t);
  const auto ahead = static_cast<int32_t>(producer_index - q.sq_doorbell);
  if (ahead < 0 || producer_index - q.sq_fetched > q.sq_depth_bb) {
    m_env.hooks.emit(&Observer::on_doorbell_regression, q.ref, q.sq_doorbell, producer_index, t);
    if (ahead < 0) return;  // the engine ignores a backwards doorbell
  }
  q.sq_doorbell = producer_index;
  m_env.visibility.settle(t);  // the WQE bytes as they are in HBM now
  while (q.sq_fetched != q.sq_doorbell) {
    const uint8_t* first = q.sq_base + uint64_t{ring_slot(q.sq_fetched, q.sq_depth_bb)} * kWqebbBytes;
    const uint32_t bb = bb_count(peek_opcode(first));
    const uint8_t* second = q.sq_base + uint64_t{ring_slot(q.sq_fetched + 1, q.sq_depth_bb)} * kWqebbBytes;
    execute(q, q.sq_fetched, first, bb > 1 ? second : nullptr, t);
    q.sq_fetched += bb;
  }
}

uint8_t UdmaEngine::check(const UdmaQp& q, const Wqe& w, int target) const {
  if (target < 0 || target != q.target_pe) return cqe_substatus::kUnreachable;
  if (w.len > kMaxRequestBytes) return cqe_substatus::kBadLocalAddr;
  const PeMemory& local = m_env.memory[m_pe];
  const PeMemory& remote = m_env.memory[target];
  if (w.opcode == kWrite || w.opcode == kWriteWithNotify || w.opcode == kRead) {
    if (!local.in_hbm(w.local_va, w.len)) return cqe_substatus::kBadLocalAddr;
    if (!remote.in_heap(w.remote_va, w.len)) return cqe_substatus::kBadRemoteAddr;
    if (w.opcode == kWriteWithNotify && !remote.in_heap(w.notify_addr, 8)) return cqe_substatus::kBadRemoteAddr;
    if (w.token_en && w.rmt_token_value != remote.heap_token) return cqe_substatus::kTokenMismatch;
    return cqe_substatus::kNone;
  }
  return cqe_substatus::kBadOpcode;
}

void UdmaEngine::execute(UdmaQp& q, uint32_t wqe_index, const uint8_t* first, const uint8_t* second, Ps t) {
  const AscendParams& p = m_env.params;
  const Ps hbm_ps = p.ns(p.hbm_latency_ns);
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
  const Ps start = std::max(t, m_free_ps);
  m_free_ps = start + p.ns(p.udma_wqe_ns);
  m_busy_ps += m_free_ps - start;
  m_env.hooks.emit(&Observer::on_engine_busy, m_pe, start, m_free_ps);
  r.fetch_ps = start;
  const int target = pe_of_eid(w.rmt_eid, m_env.fabric.n_pes());
  r.target_pe = target;

  const uint8_t sub = q.error ? cqe_substatus::kNone : check(q, w, target);
  if (q.error || sub != cqe_substatus::kNone) {
    r.status = q.error ? cqe_status::kFlushed
                       : (sub == cqe_substatus::kBadLocalAddr || sub == cqe_substatus::kBadOpcode
                              ? cqe_status::kLocalError
                              : cqe_status::kRemoteAccess);
    r.substatus = sub;
    q.error = true;  // like RDMA hardware: the QP stops and flushes what follows
    r.complete_ps = start;
    write_cqe(q, r, start + hbm_ps);
    m_env.hooks.emit(&Observer::on_wqe_executed, r);
    return;
  }

  const uint32_t unit = static_cast<uint32_t>(p.fabric_visibility_bytes);
  Fabric& fabric = m_env.fabric;
  if (w.opcode == kRead) {
    const Ps request_at = start + fabric.control_latency_ps(m_pe, target);
    const Ps read_at = m_env.hbm_ports[target].reserve(request_at + hbm_ps, w.len);
    const Delivery d = fabric.send(target, m_pe, w.len, read_at);
    r.wire_ps = d.wire_start_ps;
    m_env.visibility.schedule(d.first_unit_ps + hbm_ps, d.unit_interval_ps, unit,
                              reinterpret_cast<uint8_t*>(w.local_va),
                              reinterpret_cast<const uint8_t*>(w.remote_va), w.len, nullptr, q.data_lane);
    r.remote_write_ps = d.last_unit_ps + hbm_ps;
    r.complete_ps = r.remote_write_ps;
  } else {  // WRITE, WRITE_WITH_NOTIFY
    const Ps read_at = m_env.hbm_ports[m_pe].reserve(start + hbm_ps, w.len);
    const Delivery d = fabric.send(m_pe, target, w.len, read_at);
    r.wire_ps = d.wire_start_ps;
    m_env.visibility.schedule(d.first_unit_ps + hbm_ps, d.unit_interval_ps, unit,
                              reinterpret_cast<uint8_t*>(w.remote_va),
                              reinterpret_cast<const uint8_t*>(w.local_va), w.len, nullptr, q.data_lane);
    r.remote_write_ps = d.last_unit_ps + hbm_ps;
    if (w.opcode == kWriteWithNotify) {
      // The notify word lands after the data it announces.
      m_env.visibility.schedule_value(r.remote_write_ps, reinterpret_cast<uint8_t*>(w.notify_addr),
                                      w.notify_data, 8, q.notify_lane);
    }
    r.complete_ps = r.remote_write_ps + fabric.control_latency_ps(target, m_pe);
  }
  if (w.wants_cqe()) write_cqe(q, r, r.complete_ps + hbm_ps);
  m_env.hooks.emit(&Observer::on_wqe_executed, r);
}

void UdmaEngine::write_cqe(UdmaQp& q, WqeRecord& r, Ps t) {
  const uint32_t index = q.cq_produced;
  if (index - q.cq_consumed >= q.cq_depth) {
    m_env.hooks.emit(&Observer::on_cq_overflow, q.ref, index, q.cq_consumed, t);
  }
  Cqe c;
  c.owner = cqe_owner_for(index, q.cq_depth);
  c.opcode = static_cast<uint8_t>(r.opcode & 0x7);
  c.status = r.status;
  c.substatus = r.substatus;
  c.entry_idx = static_cast<uint16_t>(r.wqe_index + bb_count(r.opcode));
  c.tpn = q.tp_id;
  c.byte_cnt = r.bytes;
  uint8_t bytes[kCqeBytes];
  encode(c, bytes);
  t = std::max(t, q.last_cqe_ps);
  q.last_cqe_ps = t;
  m_env.visibility.schedule(t, 0, kCqeBytes, q.cq_base + uint64_t{ring_slot(index, q.cq_depth)} * kCqeBytes,
                            bytes, kCqeBytes, nullptr, q.cqe_lane);
  ++q.cq_produced;
  r.cqe_ps = t;
  r.cqe_index = index;
}

}  // namespace symsim

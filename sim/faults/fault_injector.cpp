#include "sim/faults/fault_injector.h"

#include <fmt/format.h>

#include <algorithm>

#include "sim/checkers/checker_context.h"
#include "sim/faults/fault_kinds.h"
#include "models/platform/ascend_system.h"

namespace symsim {

FaultInjector::FaultInjector(std::vector<FaultSpec> specs, uint64_t seed, AscendSystem& sys, Hooks& hooks)
    : m_sys(sys), m_hooks(hooks) {
  for (FaultSpec& s : specs) {
    Rule r;
    r.rng.seed(seed * 0x9e3779b97f4a7c15ull + 0x5a17f00du + s.index * 0x632be59bd9b4e019ull);
    for (const auto& l : sys.fabric().links()) {
      const std::string& name = l->name();
      const bool named = std::find(s.links.begin(), s.links.end(), name) != s.links.end();
      bool port = false;  // a selected PE's own port links: "peP->..." and "...->peP"
      for (int pe : s.pes) {
        const std::string out = fmt::format("pe{}->", pe), in = fmt::format("->pe{}", pe);
        port = port || name.rfind(out, 0) == 0 ||
               (name.size() >= in.size() && name.compare(name.size() - in.size(), in.size(), in) == 0);
      }
      if (named || (s.links.empty() && port)) r.link_ids.push_back(l->id());
    }
    r.spec = std::move(s);
    m_rules.push_back(std::move(r));
  }
}

bool FaultInjector::selects(const Rule& r, const QpRef& q, int target_pe, Ps t) const {
  const FaultSpec& s = r.spec;
  return t >= s.window_begin_ps && t < s.window_end_ps && in(s.pes, q.pe) && in(s.peers, target_pe) &&
         in(s.qps, q.qp) && r.fired < s.count;
}

bool FaultInjector::in_heap_range(const Rule& r, int target_pe, uint64_t va, uint64_t len) const {
  if (!r.spec.has_heap_range) return true;
  if (target_pe < 0 || target_pe >= m_sys.n_pes()) return false;
  const auto base = reinterpret_cast<uint64_t>(m_sys.memory(target_pe).heap.base());
  if (va < base) return false;
  const uint64_t off = va - base;
  return off < r.spec.heap_end && off + std::max<uint64_t>(len, 1) > r.spec.heap_begin;
}

bool FaultInjector::fire(Rule& r) {
  if (r.fired >= r.spec.count) return false;
  if (r.spec.probability < 1.0) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    if (u(r.rng) >= r.spec.probability) return false;
  }
  ++r.fired;
  return true;
}

void FaultInjector::emit(FaultEvent e) { m_hooks.emit<&Observer::on_fault>(e); }

SYMSIM_REGISTER_FAULT(fault_kind::kDropDoorbell);
SYMSIM_REGISTER_FAULT(fault_kind::kDelayDoorbell);
DoorbellFault FaultInjector::doorbell(const QpRef& q, bool cq, uint32_t value, Ps t) {
  DoorbellFault out;
  for (Rule& r : m_rules) {
    const FaultSpec& s = r.spec;
    const bool stall = s.kind == fault_kind::kCqOverflow && s.stall && cq;
    const bool door = (s.kind == fault_kind::kDropDoorbell || s.kind == fault_kind::kDelayDoorbell) && s.cq_queue == cq;
    if ((!stall && !door) || !selects(r, q, q.slot, t) || !fire(r)) continue;
    FaultEvent e;
    e.kind = s.kind == fault_kind::kCqOverflow ? fault_kind::kCqOverflow.name : s.kind.c_str();
    e.qp = q;
    e.target_pe = q.slot;
    e.t = t;
    if (s.kind == fault_kind::kDelayDoorbell) {
      out.delay_ps += s.delay_ps;
      e.detail = fmt::format("{} doorbell {} delayed by {}", cq ? "CQ" : "SQ", value, us_text(s.delay_ps));
    } else {
      out.drop = true;
      e.detail = stall ? fmt::format("CQ consumer stalled: CQ doorbell {} lost", value)
                       : fmt::format("{} doorbell {} dropped", cq ? "CQ" : "SQ", value);
    }
    emit(std::move(e));
    if (out.drop) break;
  }
  return out;
}

SYMSIM_REGISTER_FAULT(fault_kind::kCqOverflow);
uint32_t FaultInjector::cq_capacity(const QpRef& q, uint32_t depth, Ps t) {
  uint32_t cap = depth;
  for (Rule& r : m_rules) {
    const FaultSpec& s = r.spec;
    if (s.kind != fault_kind::kCqOverflow || s.depth == 0 || !selects(r, q, q.slot, t)) continue;
    cap = std::min(cap, s.depth);
    if (r.announced.insert({q.pe, q.slot, q.qp}).second) {
      FaultEvent e;
      e.kind = fault_kind::kCqOverflow.name;
      e.qp = q;
      e.target_pe = q.slot;
      e.t = t;
      e.detail = fmt::format("CQ shrunk from {} to {} entries", depth, s.depth);
      emit(std::move(e));
    }
  }
  return cap;
}

SYMSIM_REGISTER_FAULT(fault_kind::kCqeError);
SYMSIM_REGISTER_FAULT(fault_kind::kReorder);
SYMSIM_REGISTER_FAULT(fault_kind::kBitFlip);
WqeFault FaultInjector::wqe(const QpRef& q, uint32_t wqe_index, uint8_t opcode, int target_pe, uint64_t remote_va,
                            uint32_t bytes, Ps t) {
  WqeFault out;
  m_flip = nullptr;
  for (Rule& r : m_rules) {
    const FaultSpec& s = r.spec;
    FaultEvent e;
    e.qp = q;
    e.target_pe = target_pe;
    e.wqe = wqe_index;
    e.t = t;
    if (s.kind == fault_kind::kLinkDown) {
      // A path that is down for good fails the WQE (transport retries exhausted); one that comes
      // back up only delays it (the fabric waits).
      if (s.window_end_ps != kForeverPs || t < s.window_begin_ps || target_pe < 0 || out.status) continue;
      bool down = false;
      for (const Link* l : m_sys.fabric().route(q.pe, target_pe))
        down = down || std::find(r.link_ids.begin(), r.link_ids.end(), l->id()) != r.link_ids.end();
      if (!down) continue;
      out.status = fault_cqe::kTransportStatus;
      out.substatus = fault_cqe::kRetryExceededSubstatus;
      e.kind = fault_kind::kLinkDown.name;
      e.detail = fmt::format("path PE {} -> PE {} is down: WQE {} fails with a transport error", q.pe, target_pe,
                             wqe_index);
      emit(std::move(e));
      continue;
    }
    const bool wqe_kind = s.kind == fault_kind::kCqeError || s.kind == fault_kind::kReorder || s.kind == fault_kind::kBitFlip;
    if (!wqe_kind || !selects(r, q, target_pe, t) || !in_heap_range(r, target_pe, remote_va, bytes)) continue;
    if (s.kind == fault_kind::kCqeError && out.status) continue;
    if (!fire(r)) continue;
    e.kind = s.kind.c_str();
    if (s.kind == fault_kind::kCqeError) {
      out.status = s.status;
      out.substatus = s.substatus;
      e.detail = fmt::format("WQE {} completes with an injected error CQE (status {:#x} substatus {:#x})", wqe_index,
                             s.status, s.substatus);
    } else if (s.kind == fault_kind::kReorder) {
      out.delay_ps += s.delay_ps;
      e.detail = fmt::format("WQE {} ({} bytes) lands {} late; later WQEs may overtake it", wqe_index, bytes,
                             us_text(s.delay_ps));
    } else {
      out.flip_bits += s.bits;
      m_flip = &r;
      e.detail = fmt::format("{} bit(s) of WQE {}'s {} bytes flipped on the wire", s.bits, wqe_index, bytes);
    }
    (void)opcode;
    emit(std::move(e));
  }
  return out;
}

SYMSIM_REGISTER_FAULT(fault_kind::kTornBlock);
bool FaultInjector::tear(const QpRef& q, uint32_t wqe_index, int target_pe, const uint8_t* dst, uint32_t bytes, Ps t,
                         TornUnit* out) {
  for (Rule& r : m_rules) {
    const FaultSpec& s = r.spec;
    if (s.kind != fault_kind::kTornBlock || bytes <= 1 || !selects(r, q, target_pe, t) ||
        !in_heap_range(r, target_pe, reinterpret_cast<uint64_t>(dst), bytes) || !fire(r))
      continue;
    const uint32_t split = std::min(s.split_bytes, bytes - 1);
    out->late_offset = s.tail_first ? 0 : split;
    out->late_bytes = s.tail_first ? split : bytes - split;
    out->late_delay_ps = s.delay_ps;
    FaultEvent e;
    e.kind = fault_kind::kTornBlock.name;
    e.qp = q;
    e.wqe = wqe_index;
    e.target_pe = target_pe;
    e.addr = dst;
    e.bytes = bytes;
    e.late_addr = dst + out->late_offset;
    e.late_bytes = out->late_bytes;
    e.t = t;
    e.late_ps = t + s.delay_ps;
    e.detail = fmt::format("{} B unit delivered in parts: bytes {}..{} land {} after the rest", bytes,
                           out->late_offset, out->late_offset + out->late_bytes - 1, us_text(s.delay_ps));
    emit(std::move(e));
    return true;
  }
  return false;
}

void FaultInjector::corrupt(const QpRef&, uint32_t, uint8_t* data, uint64_t len, uint32_t bits) {
  if (!m_flip || len == 0) return;
  std::uniform_int_distribution<uint64_t> pos(0, len * 8 - 1);
  for (uint32_t i = 0; i < bits; ++i) {
    const uint64_t b = pos(m_flip->rng);
    data[b / 8] ^= static_cast<uint8_t>(1u << (b % 8));
  }
  m_flip = nullptr;
}

SYMSIM_REGISTER_FAULT(fault_kind::kLinkDegrade);
SYMSIM_REGISTER_FAULT(fault_kind::kLinkDown);
LinkFault FaultInjector::link(int link_id, Ps t) {
  LinkFault out;
  for (Rule& r : m_rules) {
    const FaultSpec& s = r.spec;
    if ((s.kind != fault_kind::kLinkDegrade && s.kind != fault_kind::kLinkDown) || t >= s.window_end_ps ||
        std::find(r.link_ids.begin(), r.link_ids.end(), link_id) == r.link_ids.end())
      continue;
    if (s.kind == fault_kind::kLinkDown) {
      // A message that would start inside the window waits for its end.
      if (t < s.window_begin_ps) continue;
      out.down_until_ps = std::max(out.down_until_ps, s.window_end_ps);
    } else if (t >= s.window_begin_ps) {
      out.bandwidth_factor = std::min(out.bandwidth_factor, s.bandwidth_factor);
      out.extra_latency_ps += s.extra_latency_ps;
    } else {
      continue;
    }
    if (!r.link_announced) {
      r.link_announced = true;
      FaultEvent e;
      e.kind = s.kind.c_str();
      e.qp = QpRef{-1, -1, -1};
      e.t = std::max(t, s.window_begin_ps);
      e.detail = s.kind == fault_kind::kLinkDown
                     ? fmt::format("link {} down {}", m_sys.fabric().links()[link_id]->name(),
                                   s.window_end_ps == kForeverPs ? std::string("for good")
                                                                 : "until " + us_text(s.window_end_ps))
                     : fmt::format("link {} degraded: bandwidth x{}, +{} latency",
                                   m_sys.fabric().links()[link_id]->name(), s.bandwidth_factor,
                                   us_text(s.extra_latency_ps));
      emit(std::move(e));
    }
  }
  return out;
}

SYMSIM_REGISTER_FAULT(fault_kind::kStraggler);
double FaultInjector::core_slowdown(int pe, int core, Ps t) {
  double f = 1.0;
  for (Rule& r : m_rules) {
    const FaultSpec& s = r.spec;
    if (s.kind != fault_kind::kStraggler || t < s.window_begin_ps || t >= s.window_end_ps || !in(s.pes, pe) || !in(s.cores, core))
      continue;
    f = std::max(f, s.slowdown);
    if (r.announced.insert({pe, core, -1}).second) {
      FaultEvent e;
      e.kind = fault_kind::kStraggler.name;
      e.qp = QpRef{pe, -1, -1};
      e.t = t;
      e.detail = fmt::format("AIV core {} of PE {} runs {}x slower", core, pe, s.slowdown);
      emit(std::move(e));
    }
  }
  return f;
}

}  // namespace symsim

#include "models/nvidia/nic.h"

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <memory>

#include "models/nvidia/device_trap.h"
#include "models/nvidia/mlx5_layout.h"
#include "models/nvidia/nvidia_system.h"

namespace symsim::nv {

namespace {
constexpr uint32_t kFetchWqebbs = 64;  // WQEBBs one fetch reads at most
QpRef ref_of(int gpu, const NicQp& q) { return {gpu, q.cfg.peer, q.cfg.slot_qp}; }
}  // namespace

Nic::Nic(NvidiaSystem& sys, int gpu)
    : m_sys(sys), m_gpu(gpu), m_uar(kDoorbellWindowBytes, false, fmt::format("gpu{}.nic.uar", gpu)) {}

int Nic::create_qp(const NicQpConfig& cfg) {
  DeviceMemory& mem = m_sys.memory();
  NicQp q;
  q.cfg = cfg;
  q.index = static_cast<int>(m_qps.size());
  q.qpn = 0x100 + static_cast<uint32_t>(q.index);
  q.sq = mem.runtime_alloc(m_gpu, uint64_t{cfg.sq_depth} * mlx5::kWqebbBytes, 4096);
  q.dbrec = mem.runtime_alloc(m_gpu, 8, 8);
  q.cq = mem.runtime_alloc(m_gpu, uint64_t{cfg.cq_depth} * mlx5::kCqeBytes, 4096);
  q.cq_dbrec = mem.runtime_alloc(m_gpu, 8, 8);
  // CQEs start invalid (0xff), as the IBGDA set-up pre-fills them; a collapsed CQ only ever
  // uses entry 0, so only that one is touched.
  std::memset(q.cq, 0xff, cfg.collapsed_cq ? mlx5::kCqeBytes : uint64_t{cfg.cq_depth} * mlx5::kCqeBytes);
  m_qps.push_back(std::move(q));
  return m_qps.back().index;
}

uint32_t Nic::register_memory(const uint8_t* base, uint64_t len) {
  // A key per registration, distinct per GPU and never 0.
  const uint32_t key = (static_cast<uint32_t>(m_gpu) << 20 | static_cast<uint32_t>(m_regions.size() + 1) << 4) ^ 0x5a5a5u;
  m_regions.push_back({base, len, key ? key : 1});
  return m_regions.back().key;
}

const Nic::MemRegion* Nic::region_of(const uint8_t* p, uint64_t len, uint32_t key) const {
  const MemRegion* any = nullptr;
  for (const MemRegion& r : m_regions) {
    if (p < r.base || len > r.len || static_cast<uint64_t>(p - r.base) > r.len - len) continue;
    if (r.key == key) return &r;
    if (!any) any = &r;
  }
  return any;
}

NicQpView Nic::view(const NicQp& q) const { return {ref_of(m_gpu, q), q.qpn, q.cfg.sq_depth, q.cfg.cq_depth}; }

void Nic::emit_malformed(const NicMalformedWqe& e) { m_sys.hooks().emit(&NvidiaObserver::on_nic_malformed_wqe, e); }

void Nic::emit_access_error(const NicAccessError& e) { m_sys.hooks().emit(&NvidiaObserver::on_nic_access_error, e); }

void Nic::mmio_store(uint64_t offset_bytes, uint64_t value, Ps t_ps) {
  doorbell(offset_bytes, value, t_ps, {WriterKind::Host, m_gpu, -1, -1, nullptr, 0}, {}, {});
}

void Nic::doorbell(uint64_t, uint64_t value, Ps t_ps, const WriterRef& who, WriteSet unordered, WriteSet unfenced) {
  const uint32_t w0 = mlx5::bswap32(static_cast<uint32_t>(value));
  const uint32_t w1 = mlx5::bswap32(static_cast<uint32_t>(value >> 32));
  const uint32_t qpn = w1 >> 8;
  const uint32_t prod16 = (w0 >> 8) & 0xffff;
  if (qpn < 0x100 || qpn - 0x100 >= m_qps.size())
    throw DeviceTrap(fmt::format("doorbell on GPU {}'s NIC for QP number {:#x}, which it does not have", m_gpu, qpn));
  const int qi = static_cast<int>(qpn - 0x100);
  const Ps arrive = t_ps + ns_to_ps(m_sys.params().pcie_latency_ns);
  auto u = std::make_shared<std::pair<WriteSet, WriteSet>>(std::move(unordered), std::move(unfenced));
  m_sys.visibility().schedule_action(arrive, [this, qi, prod16, who, u, t_ps](Ps t) {
    ring(m_qps[qi], prod16, t, who, std::move(u->first), std::move(u->second), t_ps);
  });
}

void Nic::ring(NicQp& q, uint32_t prod16, Ps t, WriterRef who, WriteSet unordered, WriteSet unfenced, Ps issued_ps) {
  // The 16-bit producer index only grows: a step of half its range or more went backwards.
  // A forward step of more than a ring is not refused here: the NIC fetches the slots as they
  // are now, and finds the WQEs that were overwritten before it read them (sq_overrun).
  const uint32_t delta = (prod16 - (q.rung & 0xffff)) & 0xffff;
  if (delta >= 0x8000) {
    const uint32_t back = 0x10000 - delta;
    m_sys.hooks().emit(&Observer::on_doorbell_regression, ref_of(m_gpu, q), q.rung, q.rung - back, t);
    m_sys.hooks().emit(&NvidiaObserver::on_nic_doorbell_back, NicDoorbellBack{view(q), q.rung, prod16, t});
    return;
  }
  if (delta == 0) return;
  q.rung += delta;
  unordered.prune(t);
  q.rings.push_back({q.rung, who, std::move(unordered), std::move(unfenced), issued_ps});
  m_sys.hooks().emit(&Observer::on_sq_doorbell, ref_of(m_gpu, q), q.rung, t);
  if (!q.fetching) fetch(q.index, t);
}

void Nic::fetch(int qi, Ps t) {
  NicQp& q = m_qps[static_cast<size_t>(qi)];
  if (q.fetched == q.rung) {
    q.fetching = false;
    return;
  }
  q.fetching = true;
  const NvidiaParams& p = m_sys.params();
  const Ps pcie = ns_to_ps(p.pcie_latency_ns);
  const uint32_t n = std::min(q.rung - q.fetched, kFetchWqebbs);
  const Ps sample = t + pcie;
  const Ps back = m_sys.pcie_up(m_gpu).reserve(sample, uint64_t{n} * mlx5::kWqebbBytes) +
                  transfer_ps(uint64_t{n} * mlx5::kWqebbBytes, p.pcie_gbytes_per_s) + pcie;
  m_sys.visibility().schedule_action(sample, [this, qi, n, back](Ps) {
    NicQp& q = m_qps[static_cast<size_t>(qi)];
    // The WQE bytes as GPU memory holds them now.
    std::vector<uint8_t> buf(uint64_t{n} * mlx5::kWqebbBytes);
    for (uint32_t k = 0; k < n; ++k)
      std::memcpy(buf.data() + uint64_t{k} * mlx5::kWqebbBytes,
                  q.sq + uint64_t{(q.fetched + k) & (q.cfg.sq_depth - 1)} * mlx5::kWqebbBytes, mlx5::kWqebbBytes);
    const Ps wqe_ps = ns_to_ps(m_sys.params().nic_wqe_ns);
    uint32_t i = q.fetched;
    const uint32_t end = q.fetched + n;
    while (i < end) {
      while (!q.rings.empty() && q.rings.front().upto <= i) q.rings.pop_front();
      const NicQp::Ring ring = q.rings.empty() ? NicQp::Ring{} : q.rings.front();
      const Ps start = std::max(back, m_free_ps);
      m_free_ps = start + wqe_ps;
      m_sys.hooks().emit(&Observer::on_engine_busy, m_gpu, start, m_free_ps);
      const uint8_t* w = buf.data() + uint64_t{i - q.fetched} * mlx5::kWqebbBytes;
      const mlx5::Ctrl c = mlx5::parse_ctrl(w);
      const uint32_t bbs = std::max<uint32_t>(1, mlx5::wqebbs(c.ds));
      // The rest of a multi-block WQE comes with the next fetch (unless it could never fit one).
      if (i + bbs > end && i + bbs <= q.rung && !q.error && i > q.fetched) break;
      i += execute(q, i, w, start, ring);
      ++m_wqes;
    }
    q.fetched = std::min(i, q.rung);
    while (!q.rings.empty() && q.rings.front().upto <= q.fetched) q.rings.pop_front();
    if (q.fetched < q.rung) {
      m_sys.visibility().schedule_action(back, [this, qi](Ps t2) { fetch(qi, t2); });
    } else {
      q.fetching = false;
    }
  });
}

uint32_t Nic::execute(NicQp& q, uint32_t index, const uint8_t* w, Ps start, const NicQp::Ring& ring) {
  const NvidiaParams& p = m_sys.params();
  const Ps pcie = ns_to_ps(p.pcie_latency_ns);
  const mlx5::Ctrl c = mlx5::parse_ctrl(w);
  const uint32_t expected16 = index & 0xffff;
  WqeRecord rec;
  rec.qp = ref_of(m_gpu, q);
  rec.wqe_index = index;
  rec.opcode = c.opcode;
  rec.target_pe = q.cfg.peer;
  rec.doorbell_ps = ring.issued_ps;
  rec.fetch_ps = start;
  const bool want_cqe = (c.fm_ce_se & mlx5::kCeCqUpdate) != 0;
  if (q.error) {
    complete(q, index, c.opcode, 0, mlx5::kSyndWrFlushErr, true, start + pcie, rec);
    return 1;
  }
  const uint32_t slot = index & (q.cfg.sq_depth - 1);
  if (c.wqe_index != expected16) {
    const uint32_t diff = (c.wqe_index - expected16) & 0xffff;
    m_sys.hooks().emit(&NvidiaObserver::on_nic_slot_mismatch,
                       NicSlotMismatch{view(q), index, slot, reinterpret_cast<uintptr_t>(q.sq) + uint64_t{slot} * mlx5::kWqebbBytes,
                                       static_cast<uint16_t>(c.wqe_index), c.opcode, ring.who, start});
    // A later WQE of this QP (the ring wrapped): the NIC executes what the slot holds.
    if (!(diff < 0x8000 && diff % q.cfg.sq_depth == 0)) {
      q.error = true;
      complete(q, index, c.opcode, 0, mlx5::kSyndLocalQpOpErr, true, start + pcie, rec);
      return 1;
    }
  }
  if (c.qpn != q.qpn || c.ds == 0) {
    emit_malformed({NicMalformedWqe::kWrongQp, view(q), index, reinterpret_cast<uintptr_t>(q.sq) + uint64_t{slot} * mlx5::kWqebbBytes,
                  c.qpn, c.ds, 0, 0, start});
    q.error = true;
    complete(q, index, c.opcode, 0, mlx5::kSyndLocalQpOpErr, true, start + pcie, rec);
    return 1;
  }
  const uint32_t bbs = mlx5::wqebbs(c.ds);
  const int peer = q.cfg.peer;
  Nic& target = m_sys.nic(peer);
  const WriterRef nic_writer{WriterKind::Nic, m_gpu, ring.who.cta, ring.who.thread, ring.who.file, ring.who.line};

  // What a word written at the target publishes: what the ringer had not ordered, and this
  // NIC's other QPs' writes to that GPU still in flight (other QPs are not ordered with this one).
  auto word_state = [this, &q, ring, nic_writer, peer](Ps t) {
    auto s = std::make_shared<WordState>();
    s->writer = nic_writer;
    s->unordered.add_all(ring.unordered, t);
    s->unordered_by_rules = ring.unfenced;
    for (NicQp& o : m_qps) {
      if (&o == &q) continue;
      o.inflight.prune(t);
      for (const InFlightWrite& x : o.inflight.writes())
        if (x.visible_ps > t && m_sys.memory().gpu_of(reinterpret_cast<const void*>(x.begin)) == peer) s->unordered.add(x);
    }
    return s;
  };
  auto check_remote = [&](uint64_t raddr, uint32_t rkey, uint64_t len) -> bool {
    const MemRegion* r = target.region_of(reinterpret_cast<const uint8_t*>(raddr), len, rkey);
    if (r && r->key == rkey) return true;
    emit_access_error({r ? NicAccessError::kRemoteKey : NicAccessError::kRemoteUnregistered, view(q), index, peer, raddr, len,
                     rkey, r ? r->key : 0, start});
    q.error = true;
    complete(q, index, c.opcode, 0, mlx5::kSyndRemoteAccessErr, true, start + 2 * pcie, rec);
    return false;
  };
  auto check_local = [&](uint64_t laddr, uint32_t lkey, uint64_t len) -> bool {
    const MemRegion* r = region_of(reinterpret_cast<const uint8_t*>(laddr), len, lkey);
    if (r && r->key == lkey) return true;
    emit_access_error({NicAccessError::kLocalUnregistered, view(q), index, m_gpu, laddr, len, lkey, 0, start});
    q.error = true;
    complete(q, index, c.opcode, 0, mlx5::kSyndLocalQpOpErr, true, start + pcie, rec);
    return false;
  };

  switch (c.opcode) {
    case mlx5::kOpNop:
      complete(q, index, c.opcode, 0, 0, want_cqe, start + pcie, rec);
      return bbs;
    case mlx5::kOpRdmaWrite:
    case mlx5::kOpRdmaWriteImm: {
      const uint64_t raddr = mlx5::be64_at(w + 16);
      const uint32_t rkey = mlx5::be32_at(w + 24);
      const uint32_t bc = mlx5::be32_at(w + 32);
      const bool inl = (bc & mlx5::kInlineSeg) != 0;
      const uint32_t len = bc & ~mlx5::kInlineSeg;
      const uint64_t laddr = inl ? 0 : mlx5::be64_at(w + 40);
      if (inl && 36 + len > bbs * mlx5::kWqebbBytes) {
        emit_malformed({NicMalformedWqe::kInlineOverrun, view(q), index, raddr, 0, 0, len, 0, start});
        q.error = true;
        complete(q, index, c.opcode, 0, mlx5::kSyndLocalQpOpErr, true, start + pcie, rec);
        return bbs;
      }
      if (!check_remote(raddr, rkey, len)) return bbs;
      if (!inl && !check_local(laddr, mlx5::be32_at(w + 36), len)) return bbs;
      // Payload: inline in the WQE, or read from GPU memory by DMA when the request gets there.
      const Ps sample = start + pcie;
      const Ps ready = inl ? start
                           : m_sys.pcie_up(m_gpu).reserve(sample, len) + transfer_ps(len, p.pcie_gbytes_per_s) + pcie;
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
      auto state = len <= 8 ? word_state(start) : nullptr;
      auto land = [vis, order, first, interval = d.unit_interval_ps, unit, raddr, len, state](const uint8_t* data) {
        VisibilityQueue::DoneFn done;
        if (state) done = [order, raddr, state](Ps) { order->word_written(raddr, std::move(*state), false); };
        vis->schedule(first, interval, unit, reinterpret_cast<uint8_t*>(raddr), data, len, std::move(done));
      };
      if (inl) {
        land(w + 36);
      } else {
        vis->schedule_action(sample, [land, laddr, len](Ps) {
          std::vector<uint8_t> data(reinterpret_cast<const uint8_t*>(laddr), reinterpret_cast<const uint8_t*>(laddr) + len);
          land(data.data());
        });
      }
      q.inflight.prune(start);
      q.inflight.add({raddr, raddr + len, last, nic_writer});
      rec.bytes = len;
      rec.remote_va = raddr;
      rec.local_va = laddr;
      rec.wire_ps = d.wire_start_ps;
      rec.remote_write_ps = last;
      rec.complete_ps = ack;
      complete(q, index, c.opcode, len, 0, want_cqe, ack + pcie, rec);
      return bbs;
    }
    case mlx5::kOpAtomicFa:
    case mlx5::kOpAtomicCs:
    case mlx5::kOpAtomicMaskedFa: {
      const uint64_t raddr = mlx5::be64_at(w + 16);
      const uint32_t rkey = mlx5::be32_at(w + 24);
      const uint32_t size = (c.opcode == mlx5::kOpAtomicMaskedFa && c.opmod == mlx5::kOpmodAtomic4B) ? 4 : 8;
      const uint64_t operand = size == 4 ? mlx5::be32_at(w + 32) : mlx5::be64_at(w + 32);
      const uint64_t compare = mlx5::be64_at(w + 40);
      const uint32_t res_len = mlx5::be32_at(w + 48) & ~mlx5::kInlineSeg;
      const uint64_t laddr = mlx5::be64_at(w + 56);
      if (!check_remote(raddr, rkey, size)) return bbs;
      if (raddr % size != 0) {
        emit_access_error({NicAccessError::kAtomicUnaligned, view(q), index, peer, raddr, size, rkey, 0, start});
        q.error = true;
        complete(q, index, c.opcode, 0, mlx5::kSyndRemoteOpErr, true, start + 2 * pcie, rec);
        return bbs;
      }
      const bool want_old = res_len > 0 && region_of(reinterpret_cast<const uint8_t*>(laddr), std::min<uint32_t>(res_len, size), mlx5::be32_at(w + 52));
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
      auto state = word_state(start);
      const uint8_t opcode = c.opcode;
      vis->schedule_action(perform, [=](Ps) {
        auto* mem = reinterpret_cast<uint8_t*>(raddr);
        uint64_t old = 0;
        std::memcpy(&old, mem, size);
        uint64_t v = old;
        if (opcode == mlx5::kOpAtomicCs) {
          if (old == compare) v = operand;
        } else {
          v = old + operand;
        }
        std::memcpy(mem, &v, size);
        order->word_written(raddr, std::move(*state), true);
        if (want_old) {
          const uint64_t be = size == 4 ? mlx5::bswap32(static_cast<uint32_t>(old)) : mlx5::bswap64(old);
          vis->schedule(result_ps, 0, 0, reinterpret_cast<uint8_t*>(laddr), reinterpret_cast<const uint8_t*>(&be), size);
        }
      });
      q.inflight.prune(start);
      q.inflight.add({raddr, raddr + size, perform, nic_writer});
      rec.bytes = size;
      rec.remote_va = raddr;
      rec.local_va = laddr;
      rec.wire_ps = d.wire_start_ps;
      rec.remote_write_ps = perform;
      rec.complete_ps = back;
      complete(q, index, c.opcode, size, 0, want_cqe, result_ps, rec);
      return bbs;
    }
    case mlx5::kOpRdmaRead: {
      const uint64_t raddr = mlx5::be64_at(w + 16);
      const uint32_t rkey = mlx5::be32_at(w + 24);
      const uint32_t len = mlx5::be32_at(w + 32) & ~mlx5::kInlineSeg;
      const uint64_t laddr = mlx5::be64_at(w + 40);
      if (!check_remote(raddr, rkey, len)) return bbs;
      if (!check_local(laddr, mlx5::be32_at(w + 36), len)) return bbs;
      Ps sample = start + m_sys.ib().control_latency_ps(m_gpu, peer) + pcie;
      if (sample <= q.last_remote_ps) sample = q.last_remote_ps + 1;
      const Delivery d = m_sys.ib().send(peer, m_gpu, std::max<uint32_t>(len, 1), sample + pcie);
      const Ps first = d.first_unit_ps + pcie, last = d.last_unit_ps + pcie;
      const uint32_t unit = m_sys.ib().params().visibility_bytes;
      VisibilityQueue* vis = &m_sys.visibility();
      vis->schedule_action(sample, [=, interval = d.unit_interval_ps](Ps) {
        std::vector<uint8_t> data(reinterpret_cast<const uint8_t*>(raddr), reinterpret_cast<const uint8_t*>(raddr) + len);
        vis->schedule(first, interval, unit, reinterpret_cast<uint8_t*>(laddr), data.data(), len);
      });
      rec.bytes = len;
      rec.remote_va = raddr;
      rec.local_va = laddr;
      rec.wire_ps = d.wire_start_ps;
      rec.remote_write_ps = last;
      rec.complete_ps = last;
      complete(q, index, c.opcode, len, 0, want_cqe, last, rec);
      return bbs;
    }
    default:
      emit_malformed({NicMalformedWqe::kUnknownOpcode, view(q), index, 0, 0, 0, 0, c.opcode, start});
      q.error = true;
      complete(q, index, c.opcode, 0, mlx5::kSyndLocalQpOpErr, true, start + pcie, rec);
      return bbs;
  }
}

void Nic::complete(NicQp& q, uint32_t index, uint8_t opcode, uint32_t bytes, uint8_t syndrome, bool cqe, Ps t,
                   WqeRecord rec) {
  rec.status = syndrome;
  if (!cqe && syndrome == 0) {
    m_sys.hooks().emit(&Observer::on_wqe_executed, rec);
    return;
  }
  t = std::max(t, q.last_cqe_ps + 1);
  q.last_cqe_ps = t;
  const uint32_t depth = q.cfg.cq_depth;
  const uint32_t produced = q.cq_produced++;
  const uint32_t entry = q.cfg.collapsed_cq ? 0 : produced & (depth - 1);
  const uint8_t owner = q.cfg.collapsed_cq ? 0 : static_cast<uint8_t>((produced / depth) & 1);
  auto bytes64 = std::make_shared<std::array<uint8_t, mlx5::kCqeBytes>>();
  bytes64->fill(0);
  uint8_t* e = bytes64->data();
  mlx5::put_be32(e + mlx5::kCqeByteCnt, bytes);
  e[mlx5::kCqeSyndrome] = syndrome;
  mlx5::put_be32(e + mlx5::kCqeQpn, q.qpn & 0xffffff);
  mlx5::put_be16(e + mlx5::kCqeWqeCounter, static_cast<uint16_t>(index));
  e[mlx5::kCqeOpOwn] = static_cast<uint8_t>(((syndrome ? mlx5::kCqeReqErr : mlx5::kCqeReq) << 4) | owner);
  (void)opcode;
  uint8_t* dst = q.cq + uint64_t{entry} * mlx5::kCqeBytes;
  const int qi = q.index;
  m_sys.visibility().schedule_action(t, [this, qi, dst, bytes64, produced, index](Ps at) {
    NicQp& q = m_qps[static_cast<size_t>(qi)];
    if (!q.cfg.collapsed_cq && !q.cfg.overrun_ignore) {
      // The consumer index the GPU last wrote (24 bits); a full CQ drops the CQE.
      const uint32_t ci = mlx5::be32_at(q.cq_dbrec) & 0xffffff;
      if (((produced - ci) & 0xffffff) >= q.cfg.cq_depth) {
        m_sys.hooks().emit(&Observer::on_cq_overflow, ref_of(m_gpu, q), produced + 1, ci, at);
        m_sys.hooks().emit(&NvidiaObserver::on_nic_cqe_lost,
                           NicCqeLost{view(q), index, produced, ci, reinterpret_cast<uintptr_t>(dst), at});
        return;
      }
    }
    std::memcpy(dst, bytes64->data(), mlx5::kCqeBytes);
  });
  rec.cqe_ps = t;
  rec.cqe_index = produced;
  m_sys.hooks().emit(&Observer::on_wqe_executed, rec);
}

}  // namespace symsim::nv

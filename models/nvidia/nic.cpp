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

Nic::Nic(sc_core::sc_module_name name, NvidiaSystem& sys, int gpu)
    : sc_module(name),
      doorbell_in("doorbell_in"),
      dma("dma"),
      m_sys(sys),
      m_gpu(gpu),
      m_uar(kDoorbellWindowBytes, false, fmt::format("gpu{}.nic.uar", gpu)) {
  doorbell_in.register_b_transport(this, &Nic::b_transport);
  dma.register_invalidate_direct_mem_ptr(this, &Nic::invalidate_dmi);
}

void Nic::acquire_dmi(uint64_t addr, uint64_t len) {
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(addr);
  tlm::tlm_dmi dmi;
  if (!dma->get_direct_mem_ptr(gp, dmi) || !dmi.is_read_write_allowed() || addr < dmi.get_start_address() ||
      addr - dmi.get_start_address() + len > dmi.get_end_address() - dmi.get_start_address() + 1)
    throw DeviceTrap(fmt::format("GPU {}'s NIC has no DMA path to {} ({} bytes)", m_gpu, addr_text(addr), len));
  m_dmi_ptr = dmi.get_dmi_ptr();
  m_dmi_begin = dmi.get_start_address();
  m_dmi_bytes = dmi.get_end_address() - dmi.get_start_address() + 1;
}

void Nic::invalidate_dmi(sc_dt::uint64, sc_dt::uint64) {
  m_dmi_ptr = nullptr;
  m_dmi_begin = m_dmi_bytes = 0;
}

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

void Nic::emit_malformed(const NicMalformedWqe& e) { m_sys.hooks().emit<&NvidiaObserver::on_nic_malformed_wqe>(e); }

void Nic::emit_access_error(const NicAccessError& e) { m_sys.hooks().emit<&NvidiaObserver::on_nic_access_error>(e); }

void Nic::mmio_store(uint64_t, uint64_t value, Ps t_ps) {
  doorbell(value, t_ps, {WriterKind::Host, m_gpu, -1, -1, nullptr, 0}, {}, {});
}

void Nic::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const uint64_t len = gp.get_data_length();
  if (!gp.is_write() || gp.get_byte_enable_ptr() || len == 0 || len > 8) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  if (gp.get_address() >= kDoorbellWindowBytes) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  uint64_t value = 0;
  std::memcpy(&value, gp.get_data_ptr(), len);
  const Ps t_ps = static_cast<Ps>((sc_core::sc_time_stamp() + delay).value());
  if (auto* o = gp.get_extension<DoorbellOrigin>()) {
    doorbell(value, t_ps, o->who, std::move(o->unordered), std::move(o->unfenced));
  } else {
    doorbell(value, t_ps, {WriterKind::Host, m_gpu, -1, -1, nullptr, 0}, {}, {});
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void Nic::doorbell(uint64_t value, Ps t_ps, const WriterRef& who, WriteSet unordered, WriteSet unfenced) {
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
    m_sys.hooks().emit<&Observer::on_doorbell_regression>(ref_of(m_gpu, q), q.rung, q.rung - back, t);
    m_sys.hooks().emit<&NvidiaObserver::on_nic_doorbell_back>(NicDoorbellBack{view(q), q.rung, prod16, t});
    return;
  }
  if (delta == 0) return;
  q.rung += delta;
  unordered.prune(t);
  q.rings.push_back({q.rung, who, std::move(unordered), std::move(unfenced), issued_ps, {}});
  for (NicQp& o : m_qps) {
    if (&o == &q || o.cfg.peer != q.cfg.peer) continue;
    const uint32_t end = posted_end(o);
    if (end != o.executed) q.rings.back().posted.push_back({o.index, end});
  }
  m_sys.hooks().emit<&Observer::on_sq_doorbell>(ref_of(m_gpu, q), q.rung, t);
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
                  dma_ptr(q.sq + uint64_t{(q.fetched + k) & (q.cfg.sq_depth - 1)} * mlx5::kWqebbBytes, mlx5::kWqebbBytes),
                  mlx5::kWqebbBytes);
    const Ps wqe_ps = ns_to_ps(m_sys.params().nic_wqe_ns);
    uint32_t i = q.fetched;
    const uint32_t end = q.fetched + n;
    while (i < end) {
      while (!q.rings.empty() && q.rings.front().upto <= i) q.rings.pop_front();
      const NicQp::Ring ring = q.rings.empty() ? NicQp::Ring{} : q.rings.front();
      const Ps start = std::max(back, m_free_ps);
      m_free_ps = start + wqe_ps;
      m_busy_ps += wqe_ps;
      m_sys.hooks().emit<&Observer::on_engine_busy>(m_gpu, start, m_free_ps);
      const uint8_t* w = buf.data() + uint64_t{i - q.fetched} * mlx5::kWqebbBytes;
      const mlx5::Ctrl c = mlx5::parse_ctrl(w);
      const uint32_t bbs = std::max<uint32_t>(1, mlx5::wqebbs(c.ds));
      // The rest of a multi-block WQE comes with the next fetch (unless it could never fit one).
      if (i + bbs > end && i + bbs <= q.rung && !q.error && i > q.fetched) break;
      i += execute(q, i, w, start, ring);
      executed_up_to(q, i);
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

void Nic::complete(NicQp& q, uint32_t index, uint8_t opcode, uint32_t bytes, uint8_t syndrome, bool cqe, Ps t,
                   WqeRecord rec) {
  rec.status = syndrome;
  if (!cqe && syndrome == 0) {
    m_sys.hooks().emit<&Observer::on_wqe_executed>(rec);
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
  uint8_t* dst = dma_ptr(q.cq + uint64_t{entry} * mlx5::kCqeBytes, mlx5::kCqeBytes);
  const int qi = q.index;
  m_sys.visibility().schedule_action(t, [this, qi, dst, bytes64, produced, index](Ps at) {
    NicQp& q = m_qps[static_cast<size_t>(qi)];
    if (!q.cfg.collapsed_cq && !q.cfg.overrun_ignore) {
      // The consumer index the GPU last wrote (24 bits); a full CQ drops the CQE.
      const uint32_t ci = mlx5::be32_at(dma_ptr(q.cq_dbrec, 4)) & 0xffffff;
      if (((produced - ci) & 0xffffff) >= q.cfg.cq_depth) {
        m_sys.hooks().emit<&Observer::on_cq_overflow>(ref_of(m_gpu, q), produced + 1, ci, at);
        m_sys.hooks().emit<&NvidiaObserver::on_nic_cqe_lost>(
                           NicCqeLost{view(q), index, produced, ci, reinterpret_cast<uintptr_t>(dst), at});
        return;
      }
    }
    std::memcpy(dst, bytes64->data(), mlx5::kCqeBytes);
  });
  rec.cqe_ps = t;
  rec.cqe_index = produced;
  m_sys.hooks().emit<&Observer::on_wqe_executed>(rec);
}

}  // namespace symsim::nv

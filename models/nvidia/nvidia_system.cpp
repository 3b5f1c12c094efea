#include "models/nvidia/nvidia_system.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/nvidia/gpu.h"

namespace symsim::nv {

namespace {
NvlinkParams nvlink_params(const NvidiaParams& p) {
  NvlinkParams n;
  n.gpus_per_domain = static_cast<int>(p.nvlink_gpus_per_domain);
  n.gbytes_per_s = p.nvlink_gbytes_per_s;
  n.port_latency_ps = ns_to_ps(p.nvlink_port_latency_ns);
  n.switch_ps = ns_to_ps(p.nvlink_switch_ns);
  n.packet_bytes = static_cast<uint32_t>(p.nvlink_packet_bytes);
  n.header_bytes = static_cast<uint32_t>(p.nvlink_header_bytes);
  n.visibility_bytes = static_cast<uint32_t>(p.nvlink_visibility_bytes);
  return n;
}
constexpr int kNvlinkFirstLinkId = 100000;  // after the IB fabric's link ids
}  // namespace

NvidiaSystem::NvidiaSystem(const NvidiaParams& params, int n_gpus, uint64_t seed, sc_core::sc_module_name name)
    : sc_module(name),
      m_params(params),
      m_n_gpus(n_gpus),
      m_memory(n_gpus, static_cast<uint64_t>(params.hbm_bytes)),
      m_nvlink("nvlink", n_gpus, nvlink_params(params), kNvlinkFirstLinkId),
      m_ib(n_gpus, params.ib_fabric()),
      m_order(m_hooks),
      m_stacks(static_cast<size_t>(params.sim_fiber_stack_bytes)),
      m_rng(seed ^ 0x9e3779b97f4a7c15ull),
      m_hbm_ports(n_gpus, BandwidthResource(params.hbm_gbytes_per_s)),
      m_pcie_up(n_gpus, BandwidthResource(params.pcie_gbytes_per_s)),
      m_pcie_down(n_gpus, BandwidthResource(params.pcie_gbytes_per_s)),
      m_l2(n_gpus, L2Residency(static_cast<uint64_t>(params.l2_effective_bytes))) {
  m_nvlink.attach(&m_hooks);
  m_ib.attach(&m_hooks, seed);
  m_order.set_gpu_of([](const void* p, void* ctx) { return static_cast<DeviceMemory*>(ctx)->gpu_of(p); }, &m_memory);
  for (int g = 0; g < n_gpus; ++g) {
    const auto base = reinterpret_cast<uintptr_t>(m_memory.base(g));
    m_addresses.add({base, base + m_memory.hbm_bytes(), g, -1, RegionKind::kHbm, nullptr, fmt::format("gpu{}.hbm", g)});
  }
  for (int g = 0; g < n_gpus; ++g) m_schedulers.push_back(std::make_unique<GpuScheduler>(*this, g));
  for (int g = 0; g < n_gpus; ++g) {
    m_gpus.push_back(std::make_unique<Gpu>(fmt::format("gpu{}", g).c_str(), *this, g));
    Nic& n = m_gpus.back()->nic();
    const auto db = reinterpret_cast<uintptr_t>(n.doorbell_window());
    m_addresses.add({db, db + Nic::kDoorbellWindowBytes, g, -1, RegionKind::kMmio, &n, fmt::format("gpu{}.nic.uar", g)});
  }
  for (auto& s : m_schedulers) s->spawn();
}

// SystemC registers a module when its construction ends (children before their parent) and
// removes one by a search from the front, moving the last module into the hole. Destroying the
// GPUs first to last searched past every GPU's modules still registered (quadratic: 19.5 M
// compares at EP 32, bench/systemc_registry_model_nv.py 32). Destroying GPU 0 first moves
// the last GPU's modules into its place near the front; destroying the GPUs from the last down
// to GPU 1 then finds each GPU's modules there, behind only the NVLink and IB fabrics' (2.4 M).
NvidiaSystem::~NvidiaSystem() {
  if (m_gpus.empty()) return;
  m_gpus.front().reset();
  while (!m_gpus.empty()) m_gpus.pop_back();
}

Nic& NvidiaSystem::nic(int gpu) { return m_gpus[gpu]->nic(); }

Ps NvidiaSystem::one_way_ps(int from, int owner) const {
  const Ps l2 = ns_to_ps(m_params.l2_latency_ns);
  return from == owner ? l2 : l2 + m_nvlink.one_way_ps();
}

bool NvidiaSystem::l2_access(const void* p, uint64_t bytes, bool write) {
  if (!m_memory.in_hbm(p, bytes)) return false;
  return m_l2[m_memory.gpu_of(p)].access(reinterpret_cast<uintptr_t>(p), bytes, write);
}

Ps NvidiaSystem::dirty_victims_wait_ps(int gpu) const {
  const double rate = m_params.l2_dirty_victim_gbytes_per_s;
  const uint64_t victims = rate > 0 ? m_l2[gpu].last_dirty_victims() : 0;
  if (victims == 0) return 0;
  const Ps wait = transfer_ps(victims * L2Residency::kLineBytes, rate);
  return m_params.l2_dirty_victim_max_ns > 0 ? std::min(wait, ns_to_ps(m_params.l2_dirty_victim_max_ns)) : wait;
}

void NvidiaSystem::l2_displace(const void* p, uint64_t bytes) {
  if (m_memory.in_hbm(p, bytes)) m_l2[m_memory.gpu_of(p)].displace(bytes);
}

Landing NvidiaSystem::store_landing(int from, int owner, uint64_t bytes, Ps t_ps) {
  const Ps l2 = ns_to_ps(m_params.l2_latency_ns);
  const uint32_t unit = static_cast<uint32_t>(m_params.nvlink_visibility_bytes);
  Landing l;
  l.unit_bytes = unit;
  if (from == owner) {
    if (bytes <= unit) {
      // Small writes take HBM bandwidth too (written back from L2), without waiting for it.
      // Booked from the present, not from the writer's issue: a thread runs up to
      // sim.quantum_ns ahead of the others, and its write-back booked there would push the
      // port's busy-until time past loads issued meanwhile, which then waited for nothing
      // (rows shim.reduce_row.l2.7k.k8.*: docs/hw-accuracy.md, twentieth pass (s21-load)).
      const Ps now = static_cast<Ps>(sc_core::sc_time_stamp().value());
      m_hbm_ports[owner].reserve(std::min(t_ps, now) + l2, bytes);
      l.first_ps = l.last_ps = t_ps + l2;
      return l;
    }
    const Ps start = m_hbm_ports[owner].reserve(t_ps + l2, bytes);
    const uint64_t units = (bytes + unit - 1) / unit;
    l.first_ps = start + transfer_ps(unit, m_params.hbm_gbytes_per_s);
    l.last_ps = start + transfer_ps(bytes, m_params.hbm_gbytes_per_s);
    l.interval_ps = units > 1 ? (l.last_ps - l.first_ps) / (units - 1) : 0;
    l.last_ps = l.first_ps + (units - 1) * l.interval_ps;
    return l;
  }
  const NvlinkDelivery d = m_nvlink.send(from, owner, bytes, t_ps + l2);
  l.first_ps = d.first_unit_ps;
  l.interval_ps = d.unit_interval_ps;
  l.unit_bytes = d.unit_bytes;
  l.last_ps = d.last_unit_ps;
  return l;
}

Ps NvidiaSystem::read_return_ps(int owner, int to, uint64_t bytes, Ps sample_ps) {
  const Ps l2 = ns_to_ps(m_params.l2_latency_ns);
  if (owner == to) {
    if (bytes <= 256) return sample_ps + l2;
    // Larger reads are bulk reads of data the kernels read once: served by HBM.
    const Ps start = m_hbm_ports[owner].reserve(sample_ps, bytes);
    return start + transfer_ps(bytes, m_params.hbm_gbytes_per_s) + ns_to_ps(m_params.hbm_latency_ns) + l2;
  }
  return m_nvlink.send(owner, to, bytes, sample_ps).last_unit_ps + l2;
}

Ps NvidiaSystem::reorder_jitter_ps(bool remote) {
  const Ps w = ns_to_ps(remote ? m_params.nvlink_reorder_window_ns : m_params.mem_reorder_window_ns);
  return w == 0 ? 0 : static_cast<Ps>(m_rng.below(static_cast<size_t>(w) + 1));
}

std::string addr_text(uintptr_t a) {
  NvidiaSystem* sys = current_system();
  if (!sys) return "an address";
  const void* p = reinterpret_cast<const void*>(a);
  std::string n = sys->memory().name(p);
  if (!n.empty()) return n;
  if (const CudaThread* t = current_thread()) {
    const auto s = reinterpret_cast<uintptr_t>(t->cta->smem.data());
    if (a >= s && a < s + t->cta->smem.size()) return fmt::format("smem+{:#x}", a - s);
  }
  if (const Region* r = sys->addresses().find(p)) return r->name;
  return "a host or static shared-memory address";
}

void NvidiaSystem::check_deadlock() {
  if (m_deadlocked || m_live == 0 || m_idle < m_live || m_hosts_busy > 0 || !m_visibility.empty()) return;
  for (auto& s : m_schedulers)
    if (s->idle_poller_sees_change()) return;
  m_deadlocked = true;
  for (auto& s : m_schedulers) s->abort("deadlock");
}

void NvidiaSystem::record_hang(int gpu, const std::string& kind, std::vector<std::string> waits) {
  m_hangs.push_back({gpu, kind, std::move(waits), static_cast<Ps>(sc_core::sc_time_stamp().value())});
}

void NvidiaSystem::abort_all(const std::string& why) {
  for (auto& s : m_schedulers) s->abort(why);
}

}  // namespace symsim::nv

#include "models/platform/ascend_system.h"

#include <fmt/format.h>

#include <random>
#include <stdexcept>

namespace symsim {

namespace {
constexpr uint64_t kMetaBytes = uint64_t{256} << 20;
}

AscendSystem::AscendSystem(const AscendParams& params, int n_pes, uint64_t seed, sc_core::sc_module_name name)
    : sc_module(name), m_params(params), m_n_pes(n_pes), m_fabric(n_pes, params.fabric()), m_memory(n_pes),
      m_hbm_ports(n_pes, BandwidthResource(params.hbm_gbytes_per_s)),
      m_roce(n_pes, params, m_visibility, m_hbm_ports) {
  if (params.sim_idle_poll_sleep != 0) m_visibility.set_watch(&m_watch);
  // The cores' quantum (AivCore), also for TLM initiators a platform of one's own adds.
  tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_core::sc_time::from_value(ns_to_ps(params.sim_quantum_ns)));
  std::mt19937_64 rng(seed ^ 0x5eed70c3u);
  const auto hbm_bytes = static_cast<uint64_t>(params.hbm_bytes);
  for (int pe = 0; pe < n_pes; ++pe) {
    PeMemory& m = m_memory[pe];
    m.pe = pe;
    m.hbm = SparseRegion(hbm_bytes, true, fmt::format("pe{}.hbm", pe));
    m.hbm_alloc = BumpAllocator(m.hbm.base(), m.hbm.size());
    m.hbm_alloc.allocate(kMetaBytes, 4096);  // reserved for metadata, carved by the shim
    m.eid = eid_of_pe(pe);
    m.heap_token = static_cast<uint32_t>(rng() | 1u);  // non-zero: a token is always required
    m_addresses.add({reinterpret_cast<uintptr_t>(m.hbm.base()),
                     reinterpret_cast<uintptr_t>(m.hbm.base()) + m.hbm.size(), pe, -1,
                     RegionKind::kHbm, nullptr, m.hbm.name()});
  }
  m_fabric.attach(&m_hooks, seed);
  UdmaEnv env{m_params, m_fabric, m_visibility, m_hooks, m_memory, m_hbm_ports, m_doorbells};
  for (int pe = 0; pe < n_pes; ++pe) {
    m_pes.push_back(std::make_unique<AscendPe>(fmt::format("pe{}", pe).c_str(), pe, env));
    UdmaEngine& e = m_pes.back()->udma;
    m_doorbells.attach(&e);
    const auto base = reinterpret_cast<uintptr_t>(e.doorbell_window());
    m_addresses.add({base, base + (uint64_t{64} << 20), pe, -1, RegionKind::kMmio, &m_pes.back()->mmio,
                     fmt::format("pe{}.doorbells", pe)});
    m_sdma.push_back(std::make_unique<SdmaEngine>(pe, m_params, m_fabric, m_visibility, m_hbm_ports));
  }
}

// SystemC registers a module when its construction ends (children before their parent) and
// removes one by a search from the front, moving the last module into the hole. Destroying the
// PEs first to last searched past every module still registered (quadratic: 11 M compares at
// EP 64, 178 M at EP 256). Destroying PE 0 first moves the last PE's modules into PE 0's place
// near the front; destroying the PEs from the last down to PE 1 then finds each PE's modules
// there, behind only the fabric's, and moves the next PE's in: each search passes about the
// fabric's modules and one PE's (1.2 M compares at EP 64, 16 M at EP 256).
AscendSystem::~AscendSystem() {
  if (m_pes.empty()) return;
  m_pes.front().reset();
  while (!m_pes.empty()) m_pes.pop_back();
}

void AscendSystem::reserve_queues(int pe, uint64_t qp_count) {
  PeMemory& m = m_memory[pe];
  if (m.queue_region.base()) return;
  const uint64_t per_qp = static_cast<uint64_t>(m_params.udma_sq_depth_bb) * 64 +
                          static_cast<uint64_t>(m_params.udma_cq_depth) * 64;
  m.queue_region = SparseRegion(std::max<uint64_t>(qp_count, 1) * per_qp, true, fmt::format("pe{}.queues", pe));
  m.queue_region.watch_cold_pages();  // each ring's few WQEs or CQEs sit at the start of its own page
  m.rings = BumpAllocator(m.queue_region.base(), m.queue_region.size());
  m_addresses.add({reinterpret_cast<uintptr_t>(m.queue_region.base()),
                   reinterpret_cast<uintptr_t>(m.queue_region.base()) + m.queue_region.size(), pe, -1,
                   RegionKind::kHbm, nullptr, m.queue_region.name()});
}

bool AscendSystem::has_core(int pe, int core) const {
  const auto& aiv = m_pes[pe]->aiv;
  return core < static_cast<int>(aiv.size()) && aiv[core]->core() != nullptr;
}

AivCore& AscendSystem::core(int pe, int core) {
  auto& aiv = m_pes[pe]->aiv;
  if (core >= static_cast<int>(aiv.size()))
    throw std::out_of_range(fmt::format("AIV core {} of PE {}: the platform has {} cores", core, pe, m_params.aiv_cores));
  AivCoreModule& slot = *aiv[core];
  if (!slot.core()) {
    const auto ub_bytes = static_cast<uint64_t>(m_params.aiv_ub_bytes);
    if (m_ub_regions.empty()) m_ub_regions.resize(static_cast<size_t>(m_n_pes));
    SparseRegion& ubs = m_ub_regions[pe];
    if (!ubs.base())
      ubs = SparseRegion(static_cast<uint64_t>(m_params.aiv_cores) * ub_bytes, true, fmt::format("pe{}.ub", pe));
    slot.ub.place(ubs.base() + static_cast<uint64_t>(core) * ub_bytes, ub_bytes);
    slot.set_core(std::make_unique<AivCore>(pe, core, m_params, m_visibility, m_hooks));
    const auto base = reinterpret_cast<uintptr_t>(slot.ub.base());
    m_addresses.add({base, base + ub_bytes, pe, core, RegionKind::kUnifiedBuffer, nullptr,
                     fmt::format("pe{}.aiv{}.ub", pe, core)});
  }
  return *slot.core();
}

uint8_t* AscendSystem::unified_buffer(int pe, int core) {
  this->core(pe, core);
  return m_pes[pe]->aiv[core]->ub.base();
}

}  // namespace symsim

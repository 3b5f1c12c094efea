// An Ascend UDMA platform of n PEs: per PE its HBM, UDMA engine and AIV cores (their state made
// on first use), the fabric between PEs, and the shared visibility queue. Built before
// sc_start, as the SystemC module `platform` (docs/systemc.md): platform.peN (ascend_pe.h),
// platform.fabric, platform.udma_doorbells.
#pragma once
#include <systemc>

#include <cstdint>
#include <memory>
#include <vector>

#include "models/ascend/aiv_core.h"
#include "models/ascend/pe_memory.h"
#include "models/ascend/roce_engine.h"
#include "models/ascend/sdma_engine.h"
#include "models/ascend/udma_engine.h"
#include "models/core/bandwidth.h"
#include "models/ascend/ascend_observer.h"
#include "models/fabric/fabric.h"
#include "models/memory/address_map.h"
#include "models/memory/visibility_queue.h"
#include "models/platform/ascend_params.h"
#include "models/platform/ascend_pe.h"

namespace symsim {

class AscendSystem : public sc_core::sc_module {
 public:
  AscendSystem(const AscendParams& params, int n_pes, uint64_t seed, sc_core::sc_module_name name = "platform");
  ~AscendSystem();

  int n_pes() const { return m_n_pes; }
  const AscendParams& params() const { return m_params; }
  Fabric& fabric() { return m_fabric; }
  VisibilityQueue& visibility() { return m_visibility; }
  // Cores asleep on memory (sim.idle_poll_sleep); null when polls spin.
  MemoryWatch* watch() { return m_params.sim_idle_poll_sleep != 0 ? &m_watch : nullptr; }
  Hooks& hooks() { return m_hooks; }
  AddressMap& addresses() { return m_addresses; }
  PeMemory& memory(int pe) { return m_memory[pe]; }
  UdmaEngine& engine(int pe) { return m_pes[pe]->udma; }
  AscendPe& pe_module(int index) { return *m_pes[index]; }
  SdmaEngine& sdma(int pe) { return *m_sdma[pe]; }
  RoceEngine& roce(int pe) { return m_roce.nic(pe); }
  // The AIV core `core` of `pe`, made (with its Unified Buffer) on first use.
  AivCore& core(int pe, int core);
  uint8_t* unified_buffer(int pe, int core);
  bool has_core(int pe, int core) const;
  // Reserves the queue-ring area of `pe` for `qp_count` QPs.
  void reserve_queues(int pe, uint64_t qp_count);

 private:
  const AscendParams& m_params;
  int m_n_pes;
  Fabric m_fabric;
  MemoryWatch m_watch;
  VisibilityQueue m_visibility;
  Hooks m_hooks;
  AddressMap m_addresses;
  std::vector<PeMemory> m_memory;
  std::vector<BandwidthResource> m_hbm_ports;
  DoorbellScheduler m_doorbells{"udma_doorbells"};
  std::vector<std::unique_ptr<AscendPe>> m_pes;
  std::vector<std::unique_ptr<SdmaEngine>> m_sdma;
  RocePlane m_roce;
  // The Unified Buffers of each PE's cores, one sparse mapping per PE: pages a kernel never
  // touches cost nothing.
  std::vector<SparseRegion> m_ub_regions;
};

}  // namespace symsim

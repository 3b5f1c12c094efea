// An Ascend UDMA platform of n PEs: per PE its HBM, UDMA engine and AIV cores (made on first
// use), the fabric between PEs, and the shared visibility queue. Built before sc_start.
#pragma once
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

namespace symsim {

class AscendSystem {
 public:
  AscendSystem(const AscendParams& params, int n_pes, uint64_t seed);
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
  UdmaEngine& engine(int pe) { return *m_engines[pe]; }
  SdmaEngine& sdma(int pe) { return *m_sdma[pe]; }
  RoceEngine& roce(int pe) { return m_roce.nic(pe); }
  // The AIV core `core` of `pe`, made (with its Unified Buffer) on first use.
  AivCore& core(int pe, int core);
  uint8_t* unified_buffer(int pe, int core);
  bool has_core(int pe, int core) const;
  // Reserves the queue-ring area of `pe` for `qp_count` QPs.
  void reserve_queues(int pe, uint64_t qp_count);

 private:
  struct CoreSlot {
    std::unique_ptr<AivCore> core;
    uint8_t* ub = nullptr;  // in the PE's m_ub_regions entry
  };

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
  std::vector<std::unique_ptr<UdmaEngine>> m_engines;
  std::vector<std::unique_ptr<SdmaEngine>> m_sdma;
  RocePlane m_roce;
  std::vector<std::vector<CoreSlot>> m_cores;
  // The Unified Buffers of each PE's cores, one sparse mapping per PE: pages a kernel never
  // touches cost nothing.
  std::vector<SparseRegion> m_ub_regions;
};

}  // namespace symsim

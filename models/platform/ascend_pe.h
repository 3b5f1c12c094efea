// One PE of the Ascend platform as a module (platform.peN): its HBM with the queue rings
// (hbm), its UDMA engine (udma), the MMIO port its AIV cores' doorbell stores leave through
// (mmio), and its AIV cores with their Unified Buffers (aiv0..). Bindings: mmio -> udma.doorbell
// (TLM), udma.dma -> hbm.socket (TLM, DMI). The SDMA engine and the RoCE NIC stay plain classes
// of the platform (AscendSystem).
#pragma once
#include <systemc>

#include <memory>
#include <vector>

#include "models/ascend/aiv_core_module.h"
#include "models/ascend/mmio_port.h"
#include "models/ascend/udma_engine.h"
#include "models/memory/hbm.h"

namespace symsim {

class AscendPe : public sc_core::sc_module {
 public:
  Hbm hbm;
  UdmaEngine udma;
  MmioPort mmio;
  std::vector<std::unique_ptr<AivCoreModule>> aiv;

  AscendPe(sc_core::sc_module_name name, int pe, const UdmaEnv& env);
};

}  // namespace symsim

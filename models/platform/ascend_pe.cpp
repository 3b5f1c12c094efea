#include "models/platform/ascend_pe.h"

#include <fmt/format.h>

namespace symsim {

AscendPe::AscendPe(sc_core::sc_module_name name, int pe, const UdmaEnv& env)
    : sc_module(name), hbm("hbm", env.params.ns(env.params.hbm_latency_ns)), udma("udma", pe, env), mmio("mmio", udma) {
  const PeMemory& m = env.memory[pe];
  hbm.add_region(&m.hbm);
  hbm.add_region(&m.queue_region);  // mapped once the QP count is known
  hbm.set_visibility(&env.visibility);
  mmio.socket.bind(udma.doorbell);
  udma.dma.bind(hbm.socket);
  for (int c = 0; c < env.params.aiv_cores; ++c)
    aiv.push_back(std::make_unique<AivCoreModule>(fmt::format("aiv{}", c).c_str()));
}

}  // namespace symsim

// The Ascend platform as SystemC modules (docs/systemc.md): the names a virtual-platform
// engineer finds under sc_get_top_level_objects(), the TLM sockets and their binding, and the
// quantum rule the cores' keeper keeps.
#include <gtest/gtest.h>

#include <systemc>

#include <string>

#include "models/platform/ascend_system.h"
#include "models/tlm/core_quantum_keeper.h"

using namespace symsim;

namespace {

AscendParams params() {
  AscendParams p;
  p.aiv_cores = 4;
  p.aiv_ub_bytes = 65536;
  p.hbm_bytes = double(uint64_t{1} << 30);
  p.hbm_latency_ns = 120;
  p.hbm_gbytes_per_s = 1600;
  p.udma_doorbell_ns = 100;
  p.udma_wqe_ns = 10;
  p.fabric_pes_per_node = 16;
  p.fabric_port_gbytes_per_s = 196;
  p.fabric_uplink_gbytes_per_s = 3136;
  p.fabric_payload_efficiency = 0.7;
  p.fabric_visibility_bytes = 512;
  p.sdma_channels = 1;
  p.sdma_channel_gbytes_per_s = 50;
  p.roce_gbytes_per_s = 25;
  p.sim_quantum_ns = 100;
  return p;
}

std::string kind_of(const char* name) {
  sc_core::sc_object* o = sc_core::sc_find_object(name);
  return o ? o->kind() : "(none)";
}

TEST(SystemcStructure, PlatformIsOneNamedHierarchy) {
  const AscendParams p = params();
  AscendSystem sys(p, 20, 1);  // two nodes of 16 and 4 PEs: both switch levels
  const auto& top = sc_core::sc_get_top_level_objects();
  ASSERT_EQ(top.size(), 1u);
  EXPECT_STREQ(top[0]->name(), "platform");
  for (const char* m : {"platform.pe0", "platform.pe0.hbm", "platform.pe0.udma", "platform.pe0.mmio",
                        "platform.pe0.aiv0", "platform.pe0.aiv3", "platform.pe0.aiv3.ub", "platform.pe19.udma",
                        "platform.fabric", "platform.fabric.switch0", "platform.fabric.switch1",
                        "platform.fabric.spine", "platform.fabric.link_pe0_up", "platform.fabric.link_pe19_down",
                        "platform.fabric.link_switch1_up", "platform.udma_doorbells"})
    EXPECT_EQ(kind_of(m), "sc_module") << m;
  EXPECT_EQ(sc_core::sc_find_object("platform.pe0.aiv4"), nullptr);  // aiv.cores = 4
  EXPECT_EQ(sc_core::sc_find_object("platform.fabric.switch2"), nullptr);
  // Trace labels stay as they were; the module name is the SystemC one.
  EXPECT_EQ(sys.fabric().links()[0]->name(), "pe0->l1.0");
  EXPECT_STREQ(sys.fabric().links()[0]->sc_object::name(), "platform.fabric.link_pe0_up");
  EXPECT_EQ(&sys.pe_module(3).udma, &sys.engine(3));
  EXPECT_EQ(sys.fabric().switches().back()->level(), 2);
  EXPECT_EQ(sys.fabric().switches()[1]->inputs().size(), 5u);  // 4 PE ports + the spine's down link
}

TEST(SystemcStructure, SocketsAreBoundPeByPe) {
  const AscendParams p = params();
  AscendSystem sys(p, 2, 1);
  for (const char* s : {"platform.pe1.udma.doorbell", "platform.pe1.udma.dma", "platform.pe1.hbm.socket",
                        "platform.pe1.mmio.socket"})
    EXPECT_NE(sc_core::sc_find_object(s), nullptr) << s;
  // The AIV cores' MMIO port is what the doorbell window is mapped to.
  const auto* window = sys.engine(1).doorbell_window();
  const Region* r = sys.addresses().find(window);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->mmio, &sys.pe_module(1).mmio);
  EXPECT_EQ(&sys.pe_module(1).mmio.engine(), &sys.engine(1));
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaboration: every socket bound
  EXPECT_EQ(tlm::tlm_global_quantum::instance().get(), sc_core::sc_time(100, sc_core::SC_NS));
}

TEST(SystemcStructure, CoreKeeperSyncsOnlyPastOneQuantum) {
  const sc_core::sc_time q(100, sc_core::SC_NS);
  CoreQuantumKeeper k(q);
  k.set(q);
  EXPECT_FALSE(k.need_sync());  // exactly one quantum ahead: runs on
  k.set(q + sc_core::sc_time::from_value(1));
  EXPECT_TRUE(k.need_sync());
}

}  // namespace

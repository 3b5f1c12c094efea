// The NVIDIA platform as SystemC modules: a two-GPU run (rdma_write_then_atomic on h800, 132
// SMs) shows "platform" among sc_get_top_level_objects() with its GPUs (SMs, TMA units, HBM,
// NIC and their sockets) and NVLink links under it; the NIC's doorbell socket (reached through
// the GPU's pcie socket) takes only writes inside its window, and the HBM target grants the
// NIC's DMA socket DMI over its GPU's whole memory.
#include <systemc>
#include <tlm>

#include <algorithm>
#include <map>
#include <string>

#include "models/nvidia/device_memory.h"
#include "models/nvidia/gpu.h"
#include "models/nvidia/nvidia_system.h"
#include "tests/nvidia/nvidia_test_util.h"

using namespace nvtest;

namespace {

void collect(const sc_core::sc_object* o, std::map<std::string, std::string>& out) {
  out[o->name()] = o->kind();
  for (const sc_core::sc_object* c : o->get_child_objects()) collect(c, out);
}

// Looks at the platform once, while it runs (after elaboration, inside the simulation).
struct Snapshot : symsim::Observer {
  std::map<std::string, std::string> objects;  // hierarchical name -> kind
  std::vector<std::string> top;
  tlm::tlm_response_status read_status = tlm::TLM_INCOMPLETE_RESPONSE;
  tlm::tlm_response_status outside_status = tlm::TLM_INCOMPLETE_RESPONSE;
  bool dmi = false;
  uint8_t* dmi_ptr = nullptr;
  uint64_t dmi_begin = 0, dmi_end = 0;
  uint8_t* hbm_base = nullptr;
  uint64_t hbm_bytes = 0;

  void on_sq_doorbell(const symsim::QpRef&, uint32_t, symsim::Ps) override {
    if (!top.empty()) return;
    for (const sc_core::sc_object* o : sc_core::sc_get_top_level_objects()) {
      top.push_back(o->name());
      collect(o, objects);
    }
    symsim::nv::NvidiaSystem& sys = *symsim::nv::current_system();
    symsim::nv::Gpu& gpu = sys.gpu(1);
    uint64_t word = 0;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    tlm::tlm_generic_payload gp;
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(&word));
    gp.set_data_length(8);
    gp.set_streaming_width(8);
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(0);
    gpu.pcie->b_transport(gp, delay);
    read_status = gp.get_response_status();
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(symsim::nv::Nic::kDoorbellWindowBytes);
    gpu.pcie->b_transport(gp, delay);
    outside_status = gp.get_response_status();
    tlm::tlm_dmi d;
    gp.set_address(reinterpret_cast<uint64_t>(sys.memory().base(1)) + 4096);
    dmi = gpu.nic().dma->get_direct_mem_ptr(gp, d);
    dmi_ptr = d.get_dmi_ptr();
    dmi_begin = d.get_start_address();
    dmi_end = d.get_end_address();
    hbm_base = sys.memory().base(1);
    hbm_bytes = sys.memory().hbm_bytes();
  }
};

}  // namespace

TEST(PlatformModules, TheHierarchyNamesEveryGpuUnitAndLink) {
  Snapshot s;
  const auto out = run("rdma_write_then_atomic", {}, {&s});
  expect_pass(out);
  ASSERT_FALSE(s.objects.empty()) << "no doorbell rang";
  EXPECT_NE(std::find(s.top.begin(), s.top.end(), "platform"), s.top.end());
  const std::map<std::string, std::string> expected = {
      {"platform", "symsim::nv::NvidiaSystem"},
      {"platform.gpu0", "symsim::nv::Gpu"},
      {"platform.gpu1", "symsim::nv::Gpu"},
      {"platform.gpu0.sm0", "symsim::nv::Sm"},
      {"platform.gpu0.sm3", "symsim::nv::Sm"},
      {"platform.gpu1.sm131", "symsim::nv::Sm"},
      {"platform.gpu0.tma3", "symsim::nv::Tma"},
      {"platform.gpu1.tma131", "symsim::nv::Tma"},
      {"platform.gpu0.hbm", "symsim::nv::HbmTarget"},
      {"platform.gpu0.nic", "symsim::nv::Nic"},
      {"platform.gpu1.nic", "symsim::nv::Nic"},
      {"platform.nvlink", "symsim::nv::NvlinkNetwork"},
      {"platform.nvlink.gpu0_up", "symsim::nv::NvlinkLink"},
      {"platform.nvlink.gpu1_down", "symsim::nv::NvlinkLink"},
  };
  for (const auto& [name, kind] : expected) {
    const auto it = s.objects.find(name);
    ASSERT_NE(it, s.objects.end()) << name;
    EXPECT_EQ(it->second, kind) << name;
  }
  for (const char* socket : {"platform.gpu0.pcie", "platform.gpu0.nic.doorbell_in", "platform.gpu0.nic.dma",
                             "platform.gpu0.hbm.socket"})
    EXPECT_EQ(s.objects.count(socket), 1u) << socket;
  int sms = 0, tmas = 0;
  for (const auto& [name, kind] : s.objects) {
    sms += kind == "symsim::nv::Sm";
    tmas += kind == "symsim::nv::Tma";
  }
  EXPECT_EQ(sms, 2 * 132);
  EXPECT_EQ(tmas, 2 * 132);
  EXPECT_EQ(s.objects.count("platform.gpu0.sm132"), 0u);
  EXPECT_EQ(s.objects.count("platform.gpu2"), 0u);
}

TEST(PlatformModules, DoorbellSocketTakesOnlyWritesInItsWindow) {
  Snapshot s;
  run("rdma_write_then_atomic", {}, {&s});
  EXPECT_EQ(s.read_status, tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(s.outside_status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

TEST(PlatformModules, HbmGrantsDmiOverItsGpuMemoryAtTheSimulatedAddresses) {
  Snapshot s;
  run("rdma_write_then_atomic", {}, {&s});
  ASSERT_TRUE(s.dmi);
  EXPECT_EQ(s.dmi_ptr, s.hbm_base);
  EXPECT_EQ(s.dmi_begin, reinterpret_cast<uint64_t>(s.hbm_base));
  EXPECT_EQ(s.dmi_end, reinterpret_cast<uint64_t>(s.hbm_base) + s.hbm_bytes - 1);
}

// ~NvidiaSystem destroys GPU 0 first, then the last down to GPU 1 (SystemC's registry searches
// from the front): every GPU and its units still go, and nothing of the platform stays named.
TEST(PlatformModules, TeardownInRegistryOrderReleasesEveryGpu) {
  expect_pass(run("pull_dispatch_8gpu", {"pes=4", "kernel.args.tokens=16"}));
  for (const sc_core::sc_object* o : sc_core::sc_get_top_level_objects()) EXPECT_STRNE(o->name(), "platform");
  for (const char* name : {"platform", "platform.nvlink", "platform.fabric", "platform.gpu0", "platform.gpu0.nic",
                           "platform.gpu1.sm0", "platform.gpu2.tma131", "platform.gpu3", "platform.gpu3.hbm"})
    EXPECT_EQ(sc_core::sc_find_object(name), nullptr) << name;
}

// One GPU of an NVIDIA platform as a SystemC module ("platform.gpu0"): its SMs and their TMA
// units ("sm3", "tma3"), its HBM as a TLM target ("hbm"), its NIC ("nic"), and the PCIe
// initiator socket through which its threads' doorbell stores reach the NIC's UAR window.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "models/nvidia/hbm_target.h"
#include "models/nvidia/nic.h"
#include "models/nvidia/sm.h"

namespace symsim::nv {

class NvidiaSystem;

class Gpu : public sc_core::sc_module {
 public:
  Gpu(sc_core::sc_module_name name, NvidiaSystem& sys, int gpu);
  ~Gpu() override;
  const char* kind() const override { return "symsim::nv::Gpu"; }

  int index() const { return m_gpu; }
  int sm_count() const { return static_cast<int>(m_sms.size()); }
  Sm& sm(int i) { return *m_sms[static_cast<size_t>(i)]; }
  Tma& tma(int i) { return *m_tmas[static_cast<size_t>(i)]; }
  HbmTarget& hbm() { return m_hbm; }
  Nic& nic() { return m_nic; }

  // A thread's 8-byte store at `t_ps` to `offset` in the NIC's UAR window: one posted TLM
  // write over `pcie`, annotated with the thread's lead over SystemC time and carrying who
  // rang and what it had not ordered (DoorbellOrigin).
  void doorbell_store(uint64_t offset, uint64_t value, Ps t_ps, const WriterRef& who, WriteSet unordered,
                      WriteSet unfenced);

  tlm_utils::simple_initiator_socket<Gpu> pcie;

 private:
  int m_gpu;
  std::vector<std::unique_ptr<Sm>> m_sms;
  std::vector<std::unique_ptr<Tma>> m_tmas;
  HbmTarget m_hbm;
  Nic m_nic;
  tlm::tlm_generic_payload m_doorbell_gp;
};

}  // namespace symsim::nv

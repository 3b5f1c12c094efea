#include "models/nvidia/gpu.h"

#include <fmt/format.h>

#include <cstring>

#include "models/nvidia/device_trap.h"
#include "models/nvidia/nvidia_system.h"

namespace symsim::nv {

Gpu::Gpu(sc_core::sc_module_name name, NvidiaSystem& sys, int gpu)
    : sc_module(name),
      pcie("pcie"),
      m_gpu(gpu),
      m_hbm("hbm", sys.memory().base(gpu), sys.memory().hbm_bytes(), ns_to_ps(sys.params().hbm_latency_ns)),
      m_nic("nic", sys, gpu) {
  const int sms = static_cast<int>(sys.params().sm_count);
  for (int i = 0; i < sms; ++i) m_sms.push_back(std::make_unique<Sm>(fmt::format("sm{}", i).c_str(), i));
  for (int i = 0; i < sms; ++i) m_tmas.push_back(std::make_unique<Tma>(fmt::format("tma{}", i).c_str(), *m_sms[i]));
  pcie.bind(m_nic.doorbell_in);
  m_nic.dma.bind(m_hbm.socket);
}

Gpu::~Gpu() = default;

void Gpu::doorbell_store(uint64_t offset, uint64_t value, Ps t_ps, const WriterRef& who, WriteSet unordered,
                         WriteSet unfenced) {
  DoorbellOrigin origin;
  origin.who = who;
  origin.unordered = std::move(unordered);
  origin.unfenced = std::move(unfenced);
  uint8_t data[8];
  std::memcpy(data, &value, sizeof data);
  tlm::tlm_generic_payload& gp = m_doorbell_gp;  // one reused payload: no allocation per doorbell
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(offset);
  gp.set_data_ptr(data);
  gp.set_data_length(sizeof data);
  gp.set_streaming_width(sizeof data);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  gp.set_extension(&origin);
  // The payload frees the extensions it still holds when it goes; `origin` is on the stack.
  struct Detach {
    tlm::tlm_generic_payload& gp;
    DoorbellOrigin* origin;
    ~Detach() { gp.clear_extension(origin); }
  } detach{gp, &origin};
  // A running thread's local time is at or past SystemC time (the scheduler resumes it there).
  const auto now = static_cast<Ps>(sc_core::sc_time_stamp().value());
  sc_core::sc_time delay = sc_core::sc_time::from_value(t_ps > now ? t_ps - now : 0);
  pcie->b_transport(gp, delay);
  if (gp.get_response_status() != tlm::TLM_OK_RESPONSE)
    throw DeviceTrap(fmt::format("store to GPU {}'s NIC doorbell window at offset {:#x}: {}", m_gpu, offset,
                                 gp.get_response_string()));
}

}  // namespace symsim::nv

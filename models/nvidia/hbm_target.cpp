#include "models/nvidia/hbm_target.h"

#include <cstring>

namespace symsim::nv {

HbmTarget::HbmTarget(sc_core::sc_module_name name, uint8_t* base, uint64_t bytes, Ps latency_ps)
    : sc_module(name), socket("socket"), m_base(base), m_bytes(bytes),
      m_latency(sc_core::sc_time::from_value(latency_ps)) {
  socket.register_b_transport(this, &HbmTarget::b_transport);
  socket.register_get_direct_mem_ptr(this, &HbmTarget::get_direct_mem_ptr);
  socket.register_transport_dbg(this, &HbmTarget::transport_dbg);
}

bool HbmTarget::copy(tlm::tlm_generic_payload& gp) {
  const uint64_t begin = reinterpret_cast<uint64_t>(m_base);
  const uint64_t a = gp.get_address();
  const uint64_t len = gp.get_data_length();
  if (a < begin || len > m_bytes || a - begin > m_bytes - len) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (gp.get_byte_enable_ptr()) {
    gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  if (gp.get_streaming_width() < len) {
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  uint8_t* mem = m_base + (a - begin);
  if (gp.is_read()) {
    std::memcpy(gp.get_data_ptr(), mem, len);
  } else if (gp.is_write()) {
    std::memcpy(mem, gp.get_data_ptr(), len);
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void HbmTarget::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  if (!copy(gp)) return;
  delay += m_latency;
  gp.set_dmi_allowed(true);
}

unsigned int HbmTarget::transport_dbg(tlm::tlm_generic_payload& gp) {
  return copy(gp) ? gp.get_data_length() : 0;
}

bool HbmTarget::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  const uint64_t begin = reinterpret_cast<uint64_t>(m_base);
  dmi.set_dmi_ptr(m_base);
  dmi.set_start_address(begin);
  dmi.set_end_address(begin + m_bytes - 1);
  dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_READ_WRITE);
  dmi.set_read_latency(m_latency);
  dmi.set_write_latency(m_latency);
  return true;
}

}  // namespace symsim::nv

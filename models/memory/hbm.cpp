#include "models/memory/hbm.h"

#include <cstring>

namespace symsim {

Hbm::Hbm(sc_core::sc_module_name name, Ps latency_ps) : sc_module(name), m_latency_ps(latency_ps) {
  socket.register_b_transport(this, &Hbm::b_transport);
  socket.register_get_direct_mem_ptr(this, &Hbm::get_direct_mem_ptr);
  socket.register_transport_dbg(this, &Hbm::transport_dbg);
}

const SparseRegion* Hbm::find(uint64_t address, uint64_t len) const {
  for (const SparseRegion* r : m_regions)
    if (r->base() && r->contains(reinterpret_cast<const void*>(address), len)) return r;
  return nullptr;
}

bool Hbm::access(tlm::tlm_generic_payload& trans) {
  const unsigned int len = trans.get_data_length();
  if (trans.get_byte_enable_ptr() || trans.get_streaming_width() < len) {
    trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);  // whole, contiguous accesses only
    return false;
  }
  if (!find(trans.get_address(), len)) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  auto* mem = reinterpret_cast<uint8_t*>(trans.get_address());
  if (trans.is_read()) {
    std::memcpy(trans.get_data_ptr(), mem, len);
  } else if (trans.is_write()) {
    std::memcpy(mem, trans.get_data_ptr(), len);
  } else {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return false;
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void Hbm::b_transport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  if (m_visibility) {  // as a core observing or storing (AivCore::sync, before_store)
    const auto now = static_cast<Ps>(sc_core::sc_time_stamp().value());
    m_visibility->settle(now);
    if (trans.is_write() && find(trans.get_address(), trans.get_data_length()))
      m_visibility->before_write(reinterpret_cast<const uint8_t*>(trans.get_address()), trans.get_data_length(),
                                 now + static_cast<Ps>(delay.value()));
  }
  if (!access(trans)) return;
  delay += sc_core::sc_time::from_value(m_latency_ps);
  trans.set_dmi_allowed(true);
}

unsigned int Hbm::transport_dbg(int, tlm::tlm_generic_payload& trans) {
  return access(trans) ? trans.get_data_length() : 0;
}

bool Hbm::get_direct_mem_ptr(int, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  const SparseRegion* r = find(trans.get_address(), 1);
  if (!r) return false;
  const auto begin = reinterpret_cast<uint64_t>(r->base());
  dmi.set_dmi_ptr(r->base());
  dmi.set_start_address(begin);
  dmi.set_end_address(begin + r->size() - 1);
  dmi.allow_read_write();
  dmi.set_read_latency(sc_core::sc_time::from_value(m_latency_ps));
  dmi.set_write_latency(sc_core::sc_time::from_value(m_latency_ps));
  return true;
}

}  // namespace symsim

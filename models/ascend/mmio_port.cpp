#include "models/ascend/mmio_port.h"
#include "models/core/sim_now.h"

#include <fmt/format.h>

#include <stdexcept>

namespace symsim {

MmioPort::MmioPort(sc_core::sc_module_name name, UdmaEngine& engine) : sc_module(name), m_engine(engine) {
  m_trans.set_command(tlm::TLM_WRITE_COMMAND);
  m_trans.set_data_ptr(reinterpret_cast<unsigned char*>(&m_data));
  m_trans.set_data_length(sizeof m_data);
  m_trans.set_streaming_width(sizeof m_data);
}

void MmioPort::mmio_store(uint64_t offset_bytes, uint64_t value, Ps t_ps) {
  const auto now = sim_now_ps();
  sc_core::sc_time delay = sc_core::sc_time::from_value(t_ps > now ? t_ps - now : 0);
  m_data = value;
  m_trans.set_address(offset_bytes);
  m_trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  socket->b_transport(m_trans, delay);
  if (m_trans.is_response_error())
    throw std::logic_error(fmt::format("{}: store to offset {:#x} refused: {}", name(), offset_bytes,
                                       m_trans.get_response_string()));
}

}  // namespace symsim

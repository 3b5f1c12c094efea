// The way out of a PE's AIV cores to device registers (platform.peN.mmio): a store the shim
// decodes as MMIO (st_dev to a doorbell window) becomes a TLM write on this initiator socket,
// at the core's local time as the annotated delay. One port per PE, bound to its UDMA engine's
// doorbell socket: what a core stores where is the address, not which socket it uses.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/memory/address_map.h"

namespace symsim {

class UdmaEngine;

class MmioPort : public sc_core::sc_module, public MmioTarget {
 public:
  tlm_utils::simple_initiator_socket<MmioPort> socket{"socket"};

  // `engine`: the device behind the window (the shim names it in its doorbell events).
  MmioPort(sc_core::sc_module_name name, UdmaEngine& engine);
  UdmaEngine& engine() const { return m_engine; }

  // An 8-byte store of `value` at `offset_bytes` into the window, made at `t_ps` (a core's
  // local time, not before SystemC time).
  void mmio_store(uint64_t offset_bytes, uint64_t value, Ps t_ps) override;

 private:
  UdmaEngine& m_engine;
  tlm::tlm_generic_payload m_trans;  // reused: a doorbell per WQE allocates nothing
  uint64_t m_data = 0;
};

}  // namespace symsim

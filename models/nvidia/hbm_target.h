// The HBM of one GPU as a TLM-2.0 target ("platform.gpu0.hbm"). DMA initiators (the NIC) are
// granted a direct-memory pointer to all of it, so their hot path reads and writes the model's
// memory in place (zero-copy); b_transport and debug transport serve everything else. A
// simulated address is the host address inside DeviceMemory's reservation, so TLM addresses
// are those addresses and the DMI pointer of an address is the address itself.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>

#include "models/core/time.h"

namespace symsim::nv {

class HbmTarget : public sc_core::sc_module {
 public:
  // [base, base + bytes): this GPU's HBM; `latency_ps`: access latency announced to initiators.
  HbmTarget(sc_core::sc_module_name name, uint8_t* base, uint64_t bytes, Ps latency_ps);
  const char* kind() const override { return "symsim::nv::HbmTarget"; }

  tlm_utils::simple_target_socket<HbmTarget> socket;

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi);
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp);
  // Copies a transaction's data; false (and the response status set) when it cannot.
  bool copy(tlm::tlm_generic_payload& gp);

  uint8_t* m_base;
  uint64_t m_bytes;
  sc_core::sc_time m_latency;
};

}  // namespace symsim::nv

// One PE's HBM as a TLM-2.0 target (platform.peN.hbm): the sparse regions that back it (device
// memory, the SQ/CQ queue rings) answer b_transport reads and writes with the HBM latency as
// timing annotation, and grant DMI over a whole region, so an engine that asked once reads
// and writes the bytes in place. Addresses are the host addresses of the regions: symsim's
// device pointers are real pointers (sparse_region.h), the same in a WQE and on the socket.
// Any number of initiators may bind (an engine's DMA, a test bench, a CPU model).
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <vector>

#include "models/core/time.h"
#include "models/memory/sparse_region.h"
#include "models/memory/visibility_queue.h"

namespace symsim {

class Hbm : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Hbm> socket{"socket"};

  Hbm(sc_core::sc_module_name name, Ps latency_ps);
  // A region this HBM answers for; it may be mapped later (a queue area reserved once the QP
  // count is known), so it is looked at on each request, not copied.
  void add_region(const SparseRegion* region) { m_regions.push_back(region); }
  // Writes still in flight (data landing, CQEs) wait in `visibility` until someone observes
  // them: a transported access first lets everything due by SystemC time land, as a core's
  // does once synced (initiators sync before they poll).
  void set_visibility(VisibilityQueue* visibility) { m_visibility = visibility; }

 private:
  void b_transport(int initiator, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(int initiator, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  unsigned int transport_dbg(int initiator, tlm::tlm_generic_payload& trans);
  // Copies the bytes; false (with the status set) when the request is not one this HBM serves.
  bool access(tlm::tlm_generic_payload& trans);
  // The region holding [address, address + len), or null.
  const SparseRegion* find(uint64_t address, uint64_t len) const;

  Ps m_latency_ps;
  std::vector<const SparseRegion*> m_regions;
  VisibilityQueue* m_visibility = nullptr;
};

}  // namespace symsim

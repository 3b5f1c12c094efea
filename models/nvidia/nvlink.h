// NVLink between the GPUs of one domain: each GPU has one port (all its links together, an up
// and a down direction) to the NVSwitch. A transfer holds each direction from its head's start
// until its tail has passed (cut-through, FIFO per direction, per transfer); payload travels in
// packets of at most `packet_bytes`, each with `header_bytes` of overhead, so small stores use
// the link less efficiently than bulk copies. The network is the module "platform.nvlink";
// each direction of a GPU's port is a module under it ("gpu0_up" to the switch, "gpu0_down").
#pragma once
#include <systemc>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/core/observer.h"
#include "models/core/time.h"
#include "models/fabric/link.h"

namespace symsim::nv {

struct NvlinkParams {
  int gpus_per_domain = 8;
  double gbytes_per_s = 200.0;   // per GPU and direction
  Ps port_latency_ps = 0;
  Ps switch_ps = 0;
  uint32_t packet_bytes = 128;
  uint32_t header_bytes = 32;
  uint32_t visibility_bytes = 256;
};

// When a transfer's data lands at the destination: unit k (of unit_bytes) at
// first_unit_ps + k * unit_interval_ps; the last at last_unit_ps.
struct NvlinkDelivery {
  Ps first_unit_ps = 0;
  Ps unit_interval_ps = 0;
  Ps last_unit_ps = 0;
  uint32_t unit_bytes = 0;
};

// One direction of a GPU's NVLink port.
class NvlinkLink : public sc_core::sc_module {
 public:
  NvlinkLink(sc_core::sc_module_name name, Link link) : sc_module(name), link(std::move(link)) {}
  const char* kind() const override { return "symsim::nv::NvlinkLink"; }
  Link link;
};

class NvlinkNetwork : public sc_core::sc_module {
 public:
  // Link ids start at `first_link_id` (so they do not collide with another network's in traces).
  NvlinkNetwork(sc_core::sc_module_name name, int n_gpus, const NvlinkParams& p, int first_link_id);
  const char* kind() const override { return "symsim::nv::NvlinkNetwork"; }

  void attach(Hooks* hooks) { m_hooks = hooks; }
  // True when a and b are different GPUs of one NVLink domain.
  bool connected(int a, int b) const { return a != b && domain_of(a) == domain_of(b); }
  int domain_of(int gpu) const { return gpu / m_params.gpus_per_domain; }
  // Payload bytes plus packet headers.
  uint64_t wire_bytes(uint64_t payload_bytes) const;
  // Moves `payload_bytes` from src to dst, head ready at `ready_ps`.
  NvlinkDelivery send(int src, int dst, uint64_t payload_bytes, Ps ready_ps);
  // One-way latency of a request or acknowledgement with no queuing.
  Ps one_way_ps() const { return 2 * m_params.port_latency_ps + m_params.switch_ps; }
  const std::vector<Link*>& links() const { return m_links; }
  const NvlinkParams& params() const { return m_params; }

 private:
  NvlinkParams m_params;
  std::vector<std::unique_ptr<NvlinkLink>> m_ports;
  std::vector<Link*> m_links;  // per GPU: up (to the switch), down (from it)
  Hooks* m_hooks = nullptr;
};

}  // namespace symsim::nv

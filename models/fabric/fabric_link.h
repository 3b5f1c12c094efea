// A link of the UB fabric as a module of the platform (platform.fabric.link_pe0_up): the
// timing is Link's (link.h, shared with NVLink), the fabric calls transmit directly (a socket
// per message would cost more than the model). name() is the link's label, the one traces,
// statistics and fault specs use ("pe0->l1.0"); sc_object::name() is its SystemC name.
#pragma once
#include <systemc>

#include <string>

#include "models/fabric/link.h"

namespace symsim {

class FabricLink : public sc_core::sc_module, public Link {
 public:
  FabricLink(sc_core::sc_module_name module_name, int id, std::string label, double gbytes_per_s, Ps latency_ps)
      : sc_module(module_name), Link(id, std::move(label), gbytes_per_s, latency_ps) {}
  using Link::name;
};

}  // namespace symsim

// The UB fabric between PEs: each PE has a port (an up and a down link) to its node's level-1
// switch; level-1 switches connect to one level-2 switch. Routes are fixed (up, across, down);
// a relayed message takes the route to the relay PE's port and from there to its target (the
// relay's links carry it, its engine does not). Each message picks up a seeded extra delay of
// at most `path_skew_ps` from the switch plane it crosses, so two messages may arrive in the
// other order than they were sent unless their sender orders them.
// `send` returns when the message's 512 B visibility units land at the destination port.
// In the SystemC hierarchy: platform.fabric with its switches (switchN per node, spine) and
// links (link_peN_up/down, link_switchN_up/down); engines call send directly.
#pragma once
#include <systemc>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "models/core/observer.h"
#include "models/core/time.h"
#include "models/fabric/fabric_link.h"
#include "models/fabric/fabric_switch.h"

namespace symsim {

struct FabricParams {
  int pes_per_node = 16;
  double port_gbytes_per_s = 196.0;     // PE <-> L1 switch, per direction
  double uplink_gbytes_per_s = 3136.0;  // L1 <-> L2 switch, per node and direction
  double payload_efficiency = 0.70;     // payload share of wire bandwidth
  Ps port_latency_ps = 0;               // PE <-> L1 link, per traversal
  Ps uplink_latency_ps = 0;             // L1 <-> L2 link, per traversal
  Ps l1_switch_ps = 0;
  Ps l2_switch_ps = 0;
  uint32_t visibility_bytes = 512;      // atomic visibility granule at the destination
  Ps path_skew_ps = 0;                  // largest extra delay a message's path may add
};

struct Delivery {
  Ps first_unit_ps;     // first visibility unit fully arrived at the destination port
  Ps unit_interval_ps;  // spacing of the following units
  Ps last_unit_ps;      // the whole message has arrived
  Ps wire_start_ps;     // the head entered the first link
};

class Fabric : public sc_core::sc_module {
 public:
  Fabric(int n_pes, const FabricParams& p, sc_core::sc_module_name name = "fabric");

  // Link activity goes to `hooks` (may be null); path skews are drawn from `seed`.
  void attach(Hooks* hooks, uint64_t seed);

  // Moves `payload_bytes` from `src_pe` to `dst_pe` (through the port of `via_pe` when it is a
  // third PE), head ready at `ready_ps`.
  Delivery send(int src_pe, int dst_pe, uint64_t payload_bytes, Ps ready_ps, int via_pe = -1);
  // One-way latency of a small control message (request, ACK) with no queuing. Inline: every
  // put's completion asks it once, nearly always for a direct route.
  Ps control_latency_ps(int src_pe, int dst_pe, int via_pe = -1) const {
    if (via_pe < 0 || via_pe == src_pe || via_pe == dst_pe) return latency_sum_ps(direct(src_pe, dst_pe));
    return latency_sum_ps(direct(src_pe, via_pe)) + latency_sum_ps(direct(via_pe, dst_pe));
  }
  // The links a message from src to dst (through via) crosses, in order.
  std::vector<Link*> route(int src_pe, int dst_pe, int via_pe = -1) const;

  int node_of(int pe) const { return pe / m_params.pes_per_node; }
  int n_pes() const { return m_n_pes; }
  const FabricParams& params() const { return m_params; }
  const std::vector<std::unique_ptr<FabricLink>>& links() const { return m_links; }
  const std::vector<std::unique_ptr<FabricSwitch>>& switches() const { return m_switches; }

 private:
  // A route held in place (at most two legs of four links): sends look one up per message,
  // and a vector would allocate each time.
  struct Path {
    std::array<Link*, 8> links;
    size_t n = 0;
    void add(Link* l) { links[n++] = l; }
    Link* const* begin() const { return links.data(); }
    Link* const* end() const { return links.data() + n; }
  };
  // A direct route (up, across, down: at most four links), computed on a pair's first message:
  // every send and control latency looks one or two up.
  struct Direct {
    std::array<Link*, 4> links{};
    uint8_t n = 0;
    bool known = false;
  };
  Link* add_link(const std::string& module_name, std::string name, double gbytes_per_s, Ps latency_ps);
  // Inline: every send and control latency looks one or two up; a row is made on first use.
  const Direct& direct(int src_pe, int dst_pe) const {
    std::vector<Direct>& row = m_direct[static_cast<size_t>(src_pe)];
    if (!row.empty()) {
      const Direct& d = row[static_cast<size_t>(dst_pe)];
      if (d.known) return d;
    }
    return fill_direct(src_pe, dst_pe);
  }
  const Direct& fill_direct(int src_pe, int dst_pe) const;
  // Summed per call: a link's latency may be set after the route was first used.
  static Ps latency_sum_ps(const Direct& d) {
    Ps t = 0;
    for (uint8_t i = 0; i < d.n; ++i) t += d.links[i]->latency_ps();
    return t;
  }
  // The first unit's time, the units' spacing and the plane's skew, from the last link's head and tail.
  Delivery deliver(uint64_t units, uint64_t wire_bytes, Ps head, Ps tail, Ps wire_start, double slowest);
  // A message's bytes on the wire and visibility units, kept for the last payload size sent (a
  // put's messages are all one size: a division and a conversion a message, not each time).
  struct Shape {
    uint64_t payload_bytes = UINT64_MAX;
    uint64_t wire_bytes = 0;
    uint64_t units = 0;
  };
  const Shape& shape(uint64_t payload_bytes) {
    if (payload_bytes != m_shape.payload_bytes) {
      const uint64_t unit = m_params.visibility_bytes;
      m_shape.wire_bytes =
          static_cast<uint64_t>(static_cast<double>(payload_bytes) / m_params.payload_efficiency + 0.5);
      m_shape.units = std::max<uint64_t>(1, (payload_bytes + unit - 1) / unit);
      m_shape.payload_bytes = payload_bytes;
    }
    return m_shape;
  }
  // send() over one direct route with no faults injected: the general loop's arithmetic with a
  // fault's defaults (bandwidth factor 1, no extra latency, never down) left out.
  Delivery send_direct(const Direct& route, const Shape& message, Ps ready_ps);
  Direct compute_direct(int src_pe, int dst_pe) const;
  Path path(int src_pe, int dst_pe, int via_pe) const;
  Ps draw_skew_ps() { return m_params.path_skew_ps == 0 ? 0 : m_rng() % (m_params.path_skew_ps + 1); }

  int m_n_pes;
  FabricParams m_params;
  uint64_t m_unit_wire_bytes;  // wire bytes of one visibility unit
  std::vector<std::unique_ptr<FabricSwitch>> m_switches;  // level 1 per node, then the spine
  std::vector<std::unique_ptr<FabricLink>> m_links;
  std::vector<Link*> m_pe_up, m_pe_down, m_node_up, m_node_down;
  Hooks* m_hooks = nullptr;
  std::mt19937_64 m_rng{0};
  Shape m_shape;
  TransferTime m_first_unit;  // the first unit's streaming time behind the head
  // Direct routes by source PE, then destination; a source's row is made on its first send.
  mutable std::vector<std::vector<Direct>> m_direct;
};

}  // namespace symsim

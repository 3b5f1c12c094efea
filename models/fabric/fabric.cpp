#include "models/fabric/fabric.h"

#include <fmt/format.h>

#include <algorithm>

namespace symsim {

Fabric::Fabric(int n_pes, const FabricParams& p, sc_core::sc_module_name name)
    : sc_module(name),
      m_n_pes(n_pes),
      m_params(p),
      m_unit_wire_bytes(static_cast<uint64_t>(static_cast<double>(p.visibility_bytes) / p.payload_efficiency)),
      m_direct(static_cast<size_t>(n_pes)) {
  const int nodes = (n_pes + p.pes_per_node - 1) / p.pes_per_node;
  for (int n = 0; n < nodes; ++n) m_switches.push_back(std::make_unique<FabricSwitch>(fmt::format("switch{}", n).c_str(), 1));
  for (int pe = 0; pe < n_pes; ++pe) {
    m_pe_up.push_back(add_link(fmt::format("link_pe{}_up", pe), fmt::format("pe{}->l1.{}", pe, node_of(pe)),
                               p.port_gbytes_per_s, p.port_latency_ps + p.l1_switch_ps));
    m_pe_down.push_back(add_link(fmt::format("link_pe{}_down", pe), fmt::format("l1.{}->pe{}", node_of(pe), pe),
                                 p.port_gbytes_per_s, p.port_latency_ps));
    m_switches[node_of(pe)]->connect(m_pe_up.back(), m_pe_down.back());
  }
  if (nodes > 1) {
    m_switches.push_back(std::make_unique<FabricSwitch>("spine", 2));
    for (int n = 0; n < nodes; ++n) {
      m_node_up.push_back(add_link(fmt::format("link_switch{}_up", n), fmt::format("l1.{}->l2", n),
                                   p.uplink_gbytes_per_s, p.uplink_latency_ps + p.l2_switch_ps));
      m_node_down.push_back(add_link(fmt::format("link_switch{}_down", n), fmt::format("l2->l1.{}", n),
                                     p.uplink_gbytes_per_s, p.uplink_latency_ps + p.l1_switch_ps));
      m_switches[n]->connect(m_node_down.back(), m_node_up.back());
      m_switches.back()->connect(m_node_up.back(), m_node_down.back());
    }
  }
}

void Fabric::attach(Hooks* hooks, uint64_t seed) {
  m_hooks = hooks;
  m_rng.seed(seed ^ 0xfab41c5eedull);
}

Link* Fabric::add_link(const std::string& module_name, std::string name, double gbytes_per_s, Ps latency_ps) {
  m_links.push_back(std::make_unique<FabricLink>(module_name.c_str(), static_cast<int>(m_links.size()), std::move(name),
                                                 gbytes_per_s, latency_ps));
  return m_links.back().get();
}

Fabric::Direct Fabric::compute_direct(int src_pe, int dst_pe) const {
  Direct d;
  d.known = true;
  if (src_pe == dst_pe) return d;
  d.links[d.n++] = m_pe_up[src_pe];
  if (node_of(src_pe) != node_of(dst_pe)) {
    d.links[d.n++] = m_node_up[node_of(src_pe)];
    d.links[d.n++] = m_node_down[node_of(dst_pe)];
  }
  d.links[d.n++] = m_pe_down[dst_pe];
  return d;
}

const Fabric::Direct& Fabric::fill_direct(int src_pe, int dst_pe) const {
  std::vector<Direct>& row = m_direct[static_cast<size_t>(src_pe)];
  if (row.empty()) row.resize(static_cast<size_t>(m_n_pes));
  Direct& d = row[static_cast<size_t>(dst_pe)];
  if (!d.known) d = compute_direct(src_pe, dst_pe);
  return d;
}

Fabric::Path Fabric::path(int src_pe, int dst_pe, int via_pe) const {
  Path p;
  const auto add = [&p](const Direct& d) {
    for (uint8_t i = 0; i < d.n; ++i) p.add(d.links[i]);
  };
  if (via_pe < 0 || via_pe == src_pe || via_pe == dst_pe) {
    add(direct(src_pe, dst_pe));
  } else {
    add(direct(src_pe, via_pe));
    add(direct(via_pe, dst_pe));
  }
  return p;
}

std::vector<Link*> Fabric::route(int src_pe, int dst_pe, int via_pe) const {
  const Path p = path(src_pe, dst_pe, via_pe);
  return {p.begin(), p.end()};
}

inline Delivery Fabric::deliver(uint64_t units, uint64_t wire_bytes, Ps head, Ps tail, Ps wire_start, double slowest) {
  // The first unit lands once its wire bytes have streamed in behind the head.
  const Ps first = std::min(tail, head + m_first_unit.of(std::min<uint64_t>(wire_bytes, m_unit_wire_bytes), slowest));
  const Ps interval = units > 1 ? (tail - first) / (units - 1) : 0;
  // The plane the message crossed delays it as a whole; links stay reserved as computed.
  const Ps skew = draw_skew_ps();
  return {first + skew, interval, tail + skew, wire_start};
}

// Inline (always: GCC kept it out of line, a call and a frame a message).
[[gnu::always_inline]] inline Delivery Fabric::send_direct(const Direct& route, const Shape& message, Ps ready_ps) {
  const uint64_t wire_bytes = message.wire_bytes;
  if (route.n == 0) return {ready_ps, 0, ready_ps, ready_ps};  // loopback: no wire
  // Looked up once a message, not once a link (the trace hears it; nothing else does).
  const bool heard = m_hooks && m_hooks->may_be_heard<&Observer::on_link_busy>();
  Ps head = ready_ps, tail = ready_ps, wire_start = ready_ps;
  double slowest = route.links[0]->gbytes_per_s();
  for (uint8_t i = 0; i < route.n; ++i) {
    Link* link = route.links[i];
    const LinkTiming t = link->transmit(head, tail, wire_bytes);
    if (heard) m_hooks->emit<&Observer::on_link_busy>(link->id(), t.head_start_ps, t.tail_out_ps, wire_bytes);
    if (i == 0) wire_start = t.head_start_ps;
    head = t.head_start_ps + link->latency_ps();
    tail = t.tail_out_ps + link->latency_ps();
    slowest = std::min(slowest, link->gbytes_per_s());
  }
  return deliver(message.units, wire_bytes, head, tail, wire_start, slowest);
}

Delivery Fabric::send(int src_pe, int dst_pe, uint64_t payload_bytes, Ps ready_ps, int via_pe) {
  const Shape message = shape(payload_bytes);
  const uint64_t wire_bytes = message.wire_bytes;
  // The route's legs (one, or two through a relay), walked in place: no copy of the links.
  const bool relayed = via_pe >= 0 && via_pe != src_pe && via_pe != dst_pe;
  if (!relayed && !(m_hooks && m_hooks->faults_active())) return send_direct(direct(src_pe, dst_pe), message, ready_ps);
  const Direct* legs[2] = {&direct(src_pe, relayed ? via_pe : dst_pe), relayed ? &direct(via_pe, dst_pe) : nullptr};
  if (legs[0]->n == 0 && !relayed) return {ready_ps, 0, ready_ps, ready_ps};  // loopback: no wire

  Ps head = ready_ps, tail = ready_ps, wire_start = ready_ps;
  bool first_link = true;
  double slowest = 0;
  for (const Direct* leg : legs) {
    if (!leg) break;
    for (uint8_t i = 0; i < leg->n; ++i) {
      Link* link = leg->links[i];
      LinkFault lf;  // injected: a degraded link, or one down for a while (the message waits)
      if (m_hooks && m_hooks->faults_active()) {
        lf = m_hooks->faults().link(link->id(), head);
        if (lf.down_until_ps > head && lf.down_until_ps != kForeverPs) {
          head = lf.down_until_ps;
          tail = std::max(tail, head);
        }
      }
      const LinkTiming t = link->transmit(head, tail, wire_bytes, lf.bandwidth_factor);
      if (m_hooks) m_hooks->emit<&Observer::on_link_busy>(link->id(), t.head_start_ps, t.tail_out_ps, wire_bytes);
      if (first_link) {
        wire_start = t.head_start_ps;
        slowest = link->gbytes_per_s();
        first_link = false;
      }
      head = t.head_start_ps + link->latency_ps() + lf.extra_latency_ps;
      tail = t.tail_out_ps + link->latency_ps() + lf.extra_latency_ps;
      slowest = std::min(slowest, link->gbytes_per_s() * lf.bandwidth_factor);
    }
  }
  return deliver(message.units, wire_bytes, head, tail, wire_start, slowest);
}

}  // namespace symsim

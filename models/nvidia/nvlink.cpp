#include "models/nvidia/nvlink.h"

#include <fmt/format.h>

#include <algorithm>

namespace symsim::nv {

NvlinkNetwork::NvlinkNetwork(sc_core::sc_module_name name, int n_gpus, const NvlinkParams& p, int first_link_id)
    : sc_module(name), m_params(p) {
  for (int g = 0; g < n_gpus; ++g) {
    const int sw = g / p.gpus_per_domain;
    m_ports.push_back(std::make_unique<NvlinkLink>(
        fmt::format("gpu{}_up", g).c_str(),
        Link(first_link_id + 2 * g, fmt::format("gpu{}->nvswitch{}", g, sw), p.gbytes_per_s, p.port_latency_ps + p.switch_ps)));
    m_ports.push_back(std::make_unique<NvlinkLink>(
        fmt::format("gpu{}_down", g).c_str(),
        Link(first_link_id + 2 * g + 1, fmt::format("nvswitch{}->gpu{}", sw, g), p.gbytes_per_s, p.port_latency_ps)));
  }
  for (auto& port : m_ports) m_links.push_back(&port->link);
}

uint64_t NvlinkNetwork::wire_bytes(uint64_t payload_bytes) const {
  const uint64_t packets = std::max<uint64_t>(1, (payload_bytes + m_params.packet_bytes - 1) / m_params.packet_bytes);
  return payload_bytes + packets * m_params.header_bytes;
}

NvlinkDelivery NvlinkNetwork::send(int src, int dst, uint64_t payload_bytes, Ps ready_ps) {
  const uint64_t wire = wire_bytes(payload_bytes);
  Link* up = m_links[2 * src];
  Link* down = m_links[2 * dst + 1];
  const LinkTiming a = up->transmit(ready_ps, ready_ps, wire);
  const LinkTiming b = down->transmit(a.head_start_ps + up->latency_ps(), a.tail_out_ps + up->latency_ps(), wire);
  if (m_hooks && m_hooks->active()) {
    m_hooks->emit<&Observer::on_link_busy>(up->id(), a.head_start_ps, a.tail_out_ps, wire);
    m_hooks->emit<&Observer::on_link_busy>(down->id(), b.head_start_ps, b.tail_out_ps, wire);
  }
  const Ps head = b.head_start_ps + down->latency_ps();
  const Ps tail = b.tail_out_ps + down->latency_ps();
  NvlinkDelivery d;
  d.unit_bytes = m_params.visibility_bytes;
  const uint64_t units = std::max<uint64_t>(1, (payload_bytes + d.unit_bytes - 1) / d.unit_bytes);
  // The first unit lands once its wire bytes have streamed in behind the head.
  d.first_unit_ps = std::min(tail, head + transfer_ps(wire_bytes(std::min<uint64_t>(payload_bytes, d.unit_bytes)),
                                                      std::min(up->gbytes_per_s(), down->gbytes_per_s())));
  d.unit_interval_ps = units > 1 ? (tail - d.first_unit_ps) / (units - 1) : 0;
  d.last_unit_ps = d.first_unit_ps + (units - 1) * d.unit_interval_ps;
  return d;
}

}  // namespace symsim::nv

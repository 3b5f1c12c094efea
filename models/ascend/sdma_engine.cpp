#include "models/ascend/sdma_engine.h"

#include <algorithm>

namespace symsim {

SdmaEngine::SdmaEngine(int pe, const AscendParams& params, Fabric& fabric, VisibilityQueue& visibility,
                       std::vector<BandwidthResource>& hbm_ports)
    : m_pe(pe), m_params(params), m_fabric(fabric), m_visibility(visibility), m_hbm_ports(hbm_ports) {
  m_channels.assign(static_cast<size_t>(params.sdma_channels), BandwidthResource(params.sdma_channel_gbytes_per_s));
}

SdmaEngine::Queue& SdmaEngine::queue(uint32_t index) {
  auto it = m_queues.find(index);
  if (it == m_queues.end()) {
    it = m_queues.emplace(index, Queue{}).first;
    it->second.lane = m_visibility.make_lane();
  }
  return it->second;
}

Ps SdmaEngine::start_of(Queue& q, Ps doorbell_ps) const {
  return std::max(doorbell_ps, q.done_ps) + m_params.ns(m_params.sdma_sqe_ns);
}

Ps SdmaEngine::queue_done_ps(uint32_t index) const {
  const auto it = m_queues.find(index);
  return it == m_queues.end() ? 0 : it->second.done_ps;
}

Ps SdmaEngine::copy(uint32_t index, uint8_t* dst, int dst_pe, const uint8_t* src, int src_pe, uint64_t bytes,
                    Ps doorbell_ps) {
  Queue& q = queue(index);
  ++m_sqes;
  const Ps hbm_ps = m_params.ns(m_params.hbm_latency_ns);
  const Ps start = start_of(q, doorbell_ps);
  // A source on another die is read by a request that crosses the fabric first.
  const Ps request_at = src_pe == m_pe ? start : start + m_fabric.control_latency_ps(m_pe, src_pe);
  const Ps read_at = m_hbm_ports[src_pe].reserve(request_at + hbm_ps, bytes);
  BandwidthResource& channel = m_channels[index % m_channels.size()];
  const Ps moving_at = channel.reserve(read_at, bytes);
  const Ps channel_done = channel.free_ps();
  Ps first, interval, last;
  const auto unit = static_cast<uint32_t>(m_params.fabric_visibility_bytes);
  if (src_pe == dst_pe) {  // within one die's HBM: the channel's rate, then the HBM write
    interval = transfer_ps(unit, m_params.sdma_channel_gbytes_per_s);
    first = std::min(moving_at + interval, channel_done) + hbm_ps;
    last = channel_done + hbm_ps;
  } else {  // across the UB fabric: the channel paces it, the path adds its latency
    const Ps path_ps = m_fabric.control_latency_ps(src_pe, dst_pe);
    interval = transfer_ps(unit, m_params.sdma_channel_gbytes_per_s);
    first = std::min(moving_at + interval, channel_done) + path_ps + hbm_ps;
    last = channel_done + path_ps + hbm_ps;
  }
  if (bytes > 0) {
    if (src_pe == m_pe) {
      // The engine streams its own die's source as the units go out.
      m_visibility.schedule_stream(first, interval, unit, dst, src, bytes, q.lane);
    } else {
      // Another die's memory is read when its HBM serves the request.
      VisibilityQueue& vis = m_visibility;
      const VisibilityQueue::Lane lane = q.lane;
      vis.schedule_action(
          read_at, [&vis, read_at, first, interval, unit, dst, src, bytes, lane](Ps) {
            vis.schedule_read(read_at, first, interval, unit, dst, src, bytes, lane);
          },
          dst, bytes);
    }
  }
  q.done_ps = std::max(last, q.done_ps + 1);
  return q.done_ps;
}

Ps SdmaEngine::prefetch(uint32_t index, int pe, uint64_t bytes, Ps doorbell_ps) {
  Queue& q = queue(index);
  ++m_sqes;
  const Ps start = start_of(q, doorbell_ps);
  const Ps request_at = pe == m_pe ? start : start + m_fabric.control_latency_ps(m_pe, pe);
  const Ps read_at = m_hbm_ports[pe].reserve(request_at + m_params.ns(m_params.hbm_latency_ns), bytes);
  BandwidthResource& channel = m_channels[index % m_channels.size()];
  channel.reserve(read_at, bytes);
  q.done_ps = std::max(channel.free_ps(), q.done_ps + 1);
  return q.done_ps;
}

Ps SdmaEngine::record(uint32_t index, Ps doorbell_ps) {
  Queue& q = queue(index);
  ++m_sqes;
  q.done_ps = start_of(q, doorbell_ps);
  return q.done_ps;
}

}  // namespace symsim

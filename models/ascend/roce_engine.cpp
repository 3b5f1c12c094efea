#include "models/ascend/roce_engine.h"

#include <algorithm>

namespace symsim {

namespace {
// RoCEv2's largest path MTU: the receiver places a message packet by packet.
constexpr uint32_t kMtuBytes = 4096;

struct Placement {
  Ps first_ps, interval_ps, last_ps;
};
// The packets of a `bytes` message whose last one is written at `last_ps`, arriving at `gbytes_per_s`.
Placement packets(uint64_t bytes, Ps last_ps, double gbytes_per_s) {
  const Ps interval = transfer_ps(kMtuBytes, gbytes_per_s);
  const uint64_t n = bytes == 0 ? 1 : (bytes + kMtuBytes - 1) / kMtuBytes;
  const Ps span = (n - 1) * interval;
  return {last_ps > span ? last_ps - span : 0, interval, last_ps};
}
}  // namespace

RocePlane::RocePlane(int n_pes, const AscendParams& params, VisibilityQueue& visibility,
                     std::vector<BandwidthResource>& hbm_ports)
    : m_params(params),
      m_visibility(visibility),
      m_hbm_ports(hbm_ports),
      m_tx(static_cast<size_t>(n_pes), BandwidthResource(params.roce_gbytes_per_s)),
      m_rx(static_cast<size_t>(n_pes), BandwidthResource(params.roce_gbytes_per_s)) {
  for (int pe = 0; pe < n_pes; ++pe) m_nics.push_back(new RoceEngine(pe, *this));
}

RocePlane::~RocePlane() {
  for (RoceEngine* n : m_nics) delete n;
}

RoceEngine::RoceEngine(int pe, RocePlane& plane)
    : m_pe(pe), m_plane(plane), m_qps(plane.m_tx.size()) {}

RoceEngine::Qp& RoceEngine::qp(int peer) {
  Qp& q = m_qps[static_cast<size_t>(peer)];
  if (q.lane == VisibilityQueue::kNoLane) q.lane = m_plane.m_visibility.make_lane();
  return q;
}

Ps RoceEngine::issue(Qp& q, Ps post_ps) {
  ++m_wqes;
  q.issue_ps = std::max(post_ps, q.issue_ps) + m_plane.m_params.ns(m_plane.m_params.roce_wqe_ns);
  return q.issue_ps;
}

Ps RoceEngine::transfer(int from, int to, uint64_t bytes, Ps ready_ps) {
  const AscendParams& p = m_plane.m_params;
  BandwidthResource& tx = m_plane.m_tx[static_cast<size_t>(from)];
  BandwidthResource& rx = m_plane.m_rx[static_cast<size_t>(to)];
  const Ps sent_at = tx.reserve(ready_ps, bytes);
  // Cut-through: the receiver's port takes the head one wire latency after it left.
  rx.reserve(sent_at + p.ns(p.roce_latency_ns), bytes);
  return rx.free_ps();
}

Ps RoceEngine::write(int peer, uint8_t* dst, const uint8_t* src, uint64_t bytes, Ps post_ps) {
  const AscendParams& p = m_plane.m_params;
  const Ps hbm_ps = p.ns(p.hbm_latency_ns);
  Qp& q = qp(peer);
  const Ps read_at = m_plane.m_hbm_ports[static_cast<size_t>(m_pe)].reserve(issue(q, post_ps) + hbm_ps, bytes);
  const Ps arrived = transfer(m_pe, peer, bytes, read_at);
  // RDMA places a WRITE's packets in order on its QP, each as the receiver writes it.
  const Ps placed = std::max(arrived + hbm_ps, q.placed_ps + 1);
  q.placed_ps = placed;
  const Placement l = packets(bytes, placed, p.roce_gbytes_per_s);
  if (bytes > 0) m_plane.m_visibility.schedule_stream(l.first_ps, l.interval_ps, kMtuBytes, dst, src, bytes, q.lane);
  q.done_ps = std::max(q.done_ps, placed + p.ns(p.roce_latency_ns));  // the ACK
  return q.done_ps;
}

Ps RoceEngine::read(int peer, uint8_t* dst, const uint8_t* src, uint64_t bytes, Ps post_ps) {
  const AscendParams& p = m_plane.m_params;
  const Ps hbm_ps = p.ns(p.hbm_latency_ns);
  Qp& q = qp(peer);
  const Ps request_at = issue(q, post_ps) + p.ns(p.roce_latency_ns);
  const Ps read_at = m_plane.m_hbm_ports[static_cast<size_t>(peer)].reserve(request_at + hbm_ps, bytes);
  const Ps placed = std::max(transfer(peer, m_pe, bytes, read_at) + hbm_ps, q.placed_ps + 1);
  q.placed_ps = placed;
  if (bytes > 0) {
    VisibilityQueue& vis = m_plane.m_visibility;
    const VisibilityQueue::Lane lane = q.lane;
    const Placement l = packets(bytes, placed, p.roce_gbytes_per_s);
    vis.schedule_action(
        read_at, [&vis, read_at, l, dst, src, bytes, lane](Ps) {
          vis.schedule_read(read_at, std::max(l.first_ps, read_at), l.interval_ps, kMtuBytes, dst, src, bytes, lane);
        },
        dst, bytes);
  }
  q.done_ps = std::max(q.done_ps, placed);
  return q.done_ps;
}

Ps RoceEngine::atomic(int peer, uint8_t* word, uint32_t width, AtomicOp op, uint8_t* result, Ps post_ps) {
  const AscendParams& p = m_plane.m_params;
  const Ps hbm_ps = p.ns(p.hbm_latency_ns);
  Qp& q = qp(peer);
  const Ps op_at = std::max(transfer(m_pe, peer, width, issue(q, post_ps)) + hbm_ps, q.placed_ps + 1);
  q.placed_ps = op_at;
  const Ps result_at = transfer(peer, m_pe, width, op_at) + hbm_ps;
  VisibilityQueue& vis = m_plane.m_visibility;
  const VisibilityQueue::Lane lane = q.lane;
  vis.schedule_action(
      op_at, [&vis, word, width, op = std::move(op), result, result_at, lane](Ps) {
        const uint64_t old = op(word);
        if (result) vis.schedule_value(result_at, result, old, width, lane);
      },
      word, width);
  q.done_ps = std::max(q.done_ps, result_at);
  return q.done_ps;
}

}  // namespace symsim

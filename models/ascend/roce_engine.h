// The RoCE NIC of one die and the RDMA plane between dies, as CANN SHMEM's aclshmemx_roce_*
// calls use them: one reliable QP per peer, WQEs posted by the AIV core and executed in order
// per QP. Each WQE costs the NIC roce.wqe_ns; payloads leave through the NIC's transmit port
// and arrive through the peer NIC's receive port (roce.gbytes_per_s each, the die's RDMA
// bandwidth) after roce.latency_ns one way, on a plane separate from the UB fabric. The NIC reads
// a WRITE's source from HBM as it sends it; a READ's source is read at the peer when the request
// arrives; an atomic is performed at the target when its request arrives and its old value
// comes back in the response. A WQE is complete (quiet) when its ACK or response is back.
// Each port serves transfers in the order their doorbells reached the NICs (no packet-level
// interleaving): under incast a transfer may wait behind one that was rung earlier but starts
// later, so the model errs slow, never fast.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "models/core/bandwidth.h"
#include "models/core/time.h"
#include "models/memory/visibility_queue.h"
#include "models/platform/ascend_params.h"

namespace symsim {

class RoceEngine;

// The RDMA plane: every die's NIC, so a WQE can reserve its peer's receive port.
class RocePlane {
 public:
  RocePlane(int n_pes, const AscendParams& params, VisibilityQueue& visibility,
            std::vector<BandwidthResource>& hbm_ports);
  ~RocePlane();
  RoceEngine& nic(int pe) { return *m_nics[pe]; }

 private:
  friend class RoceEngine;
  const AscendParams& m_params;
  VisibilityQueue& m_visibility;
  std::vector<BandwidthResource>& m_hbm_ports;
  std::vector<BandwidthResource> m_tx, m_rx;  // per die
  std::vector<RoceEngine*> m_nics;
};

class RoceEngine {
 public:
  RoceEngine(int pe, RocePlane& plane);

  // RDMA WRITE of `bytes` from `src` (this die) to `dst` (`peer`'s HBM), posted (doorbell
  // reached the NIC) at `post_ps`; returns its completion (ACK back) time.
  Ps write(int peer, uint8_t* dst, const uint8_t* src, uint64_t bytes, Ps post_ps);
  // RDMA READ of `bytes` from `src` (`peer`'s HBM) to `dst` (this die); returns when the data
  // has landed.
  Ps read(int peer, uint8_t* dst, const uint8_t* src, uint64_t bytes, Ps post_ps);
  // An atomic on the `width`-byte word at `word` (`peer`'s HBM): `op(word)` runs at the target
  // when the request arrives and returns the old value, which lands at `result` (this die's
  // memory; may be null). Returns when the response is back.
  using AtomicOp = std::function<uint64_t(uint8_t* word)>;
  Ps atomic(int peer, uint8_t* word, uint32_t width, AtomicOp op, uint8_t* result, Ps post_ps);
  // When every WQE posted so far to `peer` is complete (0 when none was).
  Ps quiet_ps(int peer) const { return m_qps[peer].done_ps; }
  uint64_t wqes() const { return m_wqes; }

 private:
  struct Qp {
    Ps issue_ps = 0;  // WQEs of one QP start in order
    Ps done_ps = 0;
    Ps placed_ps = 0;  // its writes land in order
    VisibilityQueue::Lane lane = VisibilityQueue::kNoLane;
  };
  Qp& qp(int peer);
  // The NIC takes the WQE: after the post and the QP's earlier WQEs.
  Ps issue(Qp& q, Ps post_ps);
  // Moves `bytes` from die `from` to die `to`, head ready at `ready_ps`: returns when the last
  // byte is through the receiver's port.
  Ps transfer(int from, int to, uint64_t bytes, Ps ready_ps);

  int m_pe;
  RocePlane& m_plane;
  std::vector<Qp> m_qps;
  uint64_t m_wqes = 0;
};

}  // namespace symsim

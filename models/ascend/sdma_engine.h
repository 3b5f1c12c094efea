// The SDMA (system DMA) engine of one die, driven through STARS queues as CANN SHMEM's
// aclshmemx_sdma_* calls drive it: an AIV block writes copy SQEs into its own queue and rings
// the queue's tail doorbell. The queue's SQEs run in order (a later SQE starts once the earlier
// one is done, which is what upstream's quiet relies on: its flag SQE lands last). Each queue is
// served by one of the die's channels (queue % sdma.channels); a channel moves one SQE at a time
// at sdma.channel_gbytes_per_s. The bytes are read from the source's HBM and written to the
// destination's: over the UB fabric when either side is another die (the path's latency; a
// channel's rate is well under a UB port's, and the engine does not reserve the UB links: it
// times a queue's SQEs when they are rung, ahead of traffic other PEs offer earlier), else
// within the die's HBM.
// Destination bytes land in the fabric's visibility units as they arrive; the source is
// streamed (a rewrite before a unit is read is seen, one after is not).
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "models/core/bandwidth.h"
#include "models/core/time.h"
#include "models/fabric/fabric.h"
#include "models/memory/visibility_queue.h"
#include "models/platform/ascend_params.h"

namespace symsim {

class SdmaEngine {
 public:
  SdmaEngine(int pe, const AscendParams& params, Fabric& fabric, VisibilityQueue& visibility,
             std::vector<BandwidthResource>& hbm_ports);

  // A copy SQE of `bytes` from `src` (in `src_pe`'s HBM) to `dst` (in `dst_pe`'s HBM) on
  // `queue`, whose doorbell reached the engine at `doorbell_ps`; returns when its last byte is
  // visible at the destination.
  Ps copy(uint32_t queue, uint8_t* dst, int dst_pe, const uint8_t* src, int src_pe, uint64_t bytes, Ps doorbell_ps);
  // A cache-maintenance (prefetch) SQE: the channel reads `bytes` of `pe`'s HBM into its L2;
  // memory contents do not change. Returns when the read is done.
  Ps prefetch(uint32_t queue, int pe, uint64_t bytes, Ps doorbell_ps);
  // A notify-record SQE: done once every earlier SQE of the queue is.
  Ps record(uint32_t queue, Ps doorbell_ps);
  // When the last SQE issued on `queue` so far is done (0 when none was).
  Ps queue_done_ps(uint32_t queue) const;
  uint64_t sqes() const { return m_sqes; }

 private:
  struct Queue {
    Ps done_ps = 0;
    VisibilityQueue::Lane lane = VisibilityQueue::kNoLane;  // its writes land in time order
  };
  Queue& queue(uint32_t index);
  // When the SQE may start on its channel: after the doorbell, the earlier SQEs of its queue and
  // the engine's fetch of the SQE.
  Ps start_of(Queue& q, Ps doorbell_ps) const;

  int m_pe;
  const AscendParams& m_params;
  Fabric& m_fabric;
  VisibilityQueue& m_visibility;
  std::vector<BandwidthResource>& m_hbm_ports;
  std::vector<BandwidthResource> m_channels;
  std::map<uint32_t, Queue> m_queues;
  uint64_t m_sqes = 0;
};

}  // namespace symsim

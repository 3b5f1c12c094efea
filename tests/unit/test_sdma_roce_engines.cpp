// The SDMA engine and RoCE NIC models on their own: exact completion times from the stated
// parameters, bytes landed by then, queue order, channels in parallel, NIC bandwidth shared.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "models/ascend/roce_engine.h"
#include "models/ascend/sdma_engine.h"

using namespace symsim;

namespace {

AscendParams params() {
  AscendParams p;
  p.hbm_latency_ns = 120;
  p.hbm_gbytes_per_s = 1600;
  p.fabric_visibility_bytes = 512;
  p.sdma_channels = 4;
  p.sdma_channel_gbytes_per_s = 50;
  p.sdma_sqe_ns = 500;
  p.roce_gbytes_per_s = 25;
  p.roce_latency_ns = 1800;
  p.roce_wqe_ns = 100;
  return p;
}

FabricParams fabric_params() {
  FabricParams f;
  f.pes_per_node = 4;
  f.port_latency_ps = 100'000;
  f.l1_switch_ps = 100'000;
  return f;
}

constexpr uint64_t kMiB = 1 << 20;

struct Rig {
  AscendParams p = params();
  Fabric fabric{2, fabric_params()};
  VisibilityQueue vis;
  std::vector<BandwidthResource> hbm{2, BandwidthResource(1600)};
  std::vector<uint8_t> src = std::vector<uint8_t>(2 * kMiB), dst = std::vector<uint8_t>(2 * kMiB);
  Rig() {
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 7 + 3);
  }
  bool landed(uint64_t bytes) const { return std::memcmp(dst.data(), src.data(), bytes) == 0; }
};

}  // namespace

// Within one die: SQE dispatch, the HBM read, 1 MiB at one channel's 50 GB/s, the HBM write.
TEST(SdmaEngine, LocalCopyTakesDispatchReadChannelAndWrite) {
  Rig r;
  SdmaEngine e(0, r.p, r.fabric, r.vis, r.hbm);
  const Ps done = e.copy(0, r.dst.data(), 0, r.src.data(), 0, kMiB, 0);
  EXPECT_EQ(done, ns_to_ps(500 + 120) + transfer_ps(kMiB, 50) + ns_to_ps(120));
  r.vis.settle(done - 1);
  EXPECT_FALSE(r.landed(kMiB));  // the last unit is not there before its time
  r.vis.settle(done);
  EXPECT_TRUE(r.landed(kMiB));
}

// One queue runs its SQEs in order; two queues on two channels overlap (only the HBM port,
// 1 MiB at 1.6 TB/s = 655 ns, is shared).
TEST(SdmaEngine, QueuesAreInOrderChannelsInParallel) {
  Rig r;
  SdmaEngine same(0, r.p, r.fabric, r.vis, r.hbm);
  const Ps a = same.copy(0, r.dst.data(), 0, r.src.data(), 0, kMiB, 0);
  const Ps b = same.copy(0, r.dst.data() + kMiB, 0, r.src.data() + kMiB, 0, kMiB, 0);
  EXPECT_GE(b, a + transfer_ps(kMiB, 50));
  EXPECT_EQ(same.queue_done_ps(0), b);
  EXPECT_EQ(same.record(0, 0), b + ns_to_ps(500));  // a notify SQE is done after them
  Rig s;
  SdmaEngine two(0, s.p, s.fabric, s.vis, s.hbm);
  const Ps c = two.copy(0, s.dst.data(), 0, s.src.data(), 0, kMiB, 0);
  const Ps d = two.copy(1, s.dst.data() + kMiB, 0, s.src.data() + kMiB, 0, kMiB, 0);
  EXPECT_LE(d, c + transfer_ps(kMiB, 1600) + 1);
  s.vis.settle(std::max(c, d));
  EXPECT_TRUE(s.landed(2 * kMiB));
}

// To another PE over the UB fabric: the channel (50 GB/s) paces the copy, and the path adds
// its latency (under 2 us here).
TEST(SdmaEngine, RemoteCopyIsPacedByTheSlowerOfChannelAndPath) {
  Rig r;
  SdmaEngine e(0, r.p, r.fabric, r.vis, r.hbm);
  const Ps done = e.copy(0, r.dst.data(), 1, r.src.data(), 0, kMiB, 0);
  const Ps channel_only = ns_to_ps(500 + 120) + transfer_ps(kMiB, 50) + ns_to_ps(120);
  EXPECT_GE(done, channel_only);
  EXPECT_LE(done, channel_only + ns_to_ps(2000));
  r.vis.settle(done);
  EXPECT_TRUE(r.landed(kMiB));
}

// A write: WQE, HBM read, 1 MiB through the 25 GB/s ports, one-way latency, HBM write, ACK.
TEST(RoceEngine, WriteCompletesWithItsAck) {
  Rig r;
  RocePlane plane(2, r.p, r.vis, r.hbm);
  const Ps done = plane.nic(0).write(1, r.dst.data(), r.src.data(), kMiB, 0);
  const Ps placed = ns_to_ps(100 + 120) + transfer_ps(kMiB, 25) + ns_to_ps(1800 + 120);
  EXPECT_EQ(done, placed + ns_to_ps(1800));
  EXPECT_EQ(plane.nic(0).quiet_ps(1), done);
  r.vis.settle(placed);
  EXPECT_TRUE(r.landed(kMiB));
}

// A read: the request crosses, the peer's HBM is read, the data comes back through the ports.
TEST(RoceEngine, ReadCompletesWhenTheDataHasLanded) {
  Rig r;
  RocePlane plane(2, r.p, r.vis, r.hbm);
  const Ps done = plane.nic(0).read(1, r.dst.data(), r.src.data(), kMiB, 0);
  EXPECT_EQ(done, ns_to_ps(100 + 1800 + 120) + transfer_ps(kMiB, 25) + ns_to_ps(1800 + 120));
  r.vis.settle(done);
  EXPECT_TRUE(r.landed(kMiB));
}

// Two writes from one NIC share its transmit port: the second finishes one transfer later.
TEST(RoceEngine, OneNicPortIsShared) {
  Rig r;
  RocePlane plane(3, r.p, r.vis, r.hbm = std::vector<BandwidthResource>(3, BandwidthResource(1600)));
  const Ps a = plane.nic(0).write(1, r.dst.data(), r.src.data(), kMiB, 0);
  const Ps b = plane.nic(0).write(2, r.dst.data() + kMiB, r.src.data() + kMiB, kMiB, 0);
  EXPECT_GE(b, a + transfer_ps(kMiB, 25) - ns_to_ps(100));
}

// An atomic runs at the target when its request arrives; the old value comes back.
TEST(RoceEngine, AtomicRunsAtTheTargetAndReturnsTheOldValue) {
  Rig r;
  RocePlane plane(2, r.p, r.vis, r.hbm);
  uint64_t word = 40, result = 0;
  const Ps done = plane.nic(0).atomic(
      1, reinterpret_cast<uint8_t*>(&word), 8,
      [](uint8_t* w) {
        uint64_t old;
        std::memcpy(&old, w, 8);
        const uint64_t now = old + 2;
        std::memcpy(w, &now, 8);
        return old;
      },
      reinterpret_cast<uint8_t*>(&result), 0);
  const Ps op_at = ns_to_ps(100) + transfer_ps(8, 25) + ns_to_ps(1800 + 120);
  EXPECT_EQ(done, op_at + transfer_ps(8, 25) + ns_to_ps(1800 + 120));
  r.vis.settle(op_at - 1);
  EXPECT_EQ(word, 40u);
  r.vis.settle(done);
  EXPECT_EQ(word, 42u);
  EXPECT_EQ(result, 40u);
}

// The UB fabric: relay routes, their latency and link load, path skew (bounded, seeded,
// reproducible), link activity through the hooks, and the EIDs that select a path.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "models/fabric/eid_route.h"
#include "models/fabric/fabric.h"

using namespace symsim;

namespace {

FabricParams params(Ps skew_ps = 0) {
  FabricParams p;
  p.pes_per_node = 4;
  p.port_latency_ps = 100'000;
  p.uplink_latency_ps = 150'000;
  p.l1_switch_ps = 100'000;
  p.l2_switch_ps = 100'000;
  p.path_skew_ps = skew_ps;
  return p;
}

std::vector<std::string> names(const std::vector<Link*>& path) {
  std::vector<std::string> out;
  for (const Link* l : path) out.push_back(l->name());
  return out;
}

struct LinkLog : Observer {
  std::vector<int> links;
  std::vector<uint64_t> bytes;
  void on_link_busy(int link, Ps, Ps, uint64_t b) override {
    links.push_back(link);
    bytes.push_back(b);
  }
};

}  // namespace

// A kept transfer time is transfer_ps's value for every size and rate asked, in any order (a
// link, an HBM port and a core's copies keep the last one; a rate can change between messages).
TEST(Fabric, KeptTransferTimeIsTransferPsWhateverTheOrderOfSizesAndRates) {
  TransferTime kept;
  const uint64_t sizes[] = {0, 1, 64, 512, 732, 4096, 1 << 20};
  const double rates[] = {0.5, 50, 196, 196.0 * 0.25, 3136};
  for (int pass = 0; pass < 2; ++pass)
    for (const double g : rates)
      for (const uint64_t b : sizes) {
        EXPECT_EQ(kept.of(b, g), transfer_ps(b, g)) << b << " bytes at " << g << " GB/s";
        EXPECT_EQ(kept.of(b, g), transfer_ps(b, g)) << "asked again";
      }
  // A link's bandwidth set between two messages of one size: the second is timed at the new rate.
  Link link(0, "l", 100, 0);
  const LinkTiming a = link.transmit(0, 0, 1000);
  link.set_bandwidth(50);
  const LinkTiming b = link.transmit(a.tail_out_ps, 0, 1000);
  EXPECT_EQ(a.tail_out_ps - a.head_start_ps, transfer_ps(1000, 100));
  EXPECT_EQ(b.tail_out_ps - b.head_start_ps, transfer_ps(1000, 50));
}

TEST(Fabric, RelayRouteGoesThroughTheRelayPort) {
  Fabric f(8, params());
  EXPECT_EQ(names(f.route(0, 1)), (std::vector<std::string>{"pe0->l1.0", "l1.0->pe1"}));
  EXPECT_EQ(names(f.route(0, 1, 2)), (std::vector<std::string>{"pe0->l1.0", "l1.0->pe2", "pe2->l1.0", "l1.0->pe1"}));
  // Across nodes the relay's port is the turning point; a relay equal to an end is direct.
  EXPECT_EQ(names(f.route(0, 5, 6)),
            (std::vector<std::string>{"pe0->l1.0", "l1.0->l2", "l2->l1.1", "l1.1->pe6", "pe6->l1.1", "l1.1->pe5"}));
  EXPECT_EQ(names(f.route(0, 1, 1)), names(f.route(0, 1)));
  EXPECT_EQ(names(f.route(0, 1, 0)), names(f.route(0, 1)));
  EXPECT_EQ(f.control_latency_ps(0, 1, 2), f.control_latency_ps(0, 2) + f.control_latency_ps(2, 1));
}

TEST(Fabric, RelayedMessageLoadsTheRelayLinksAndReportsEachLink) {
  Fabric f(4, params());
  Hooks hooks;
  LinkLog log;
  hooks.attach(&log);
  f.attach(&hooks, 1);
  f.send(0, 1, 7000, 0, 2);
  ASSERT_EQ(log.links.size(), 4u);
  for (uint64_t b : log.bytes) EXPECT_EQ(b, 10000u);  // 7000 B payload at 70% efficiency
  for (const auto& l : f.links()) {
    const bool on_path = l->name() == "pe0->l1.0" || l->name() == "l1.0->pe2" || l->name() == "pe2->l1.0" ||
                         l->name() == "l1.0->pe1";
    EXPECT_EQ(l->messages(), on_path ? 1u : 0u) << l->name();
  }
}

TEST(Fabric, PathSkewIsBoundedAndReproducibleBySeed) {
  const Ps skew = 40'000;
  Fabric plain(2, params());
  const Delivery base = plain.send(0, 1, 512, 0);
  auto draw = [&](uint64_t seed) {
    Fabric f(2, params(skew));
    f.attach(nullptr, seed);
    std::vector<Ps> firsts;
    for (int i = 0; i < 64; ++i) {
      // Far apart, so links are idle: only the skew moves the arrival.
      const Delivery d = f.send(0, 1, 512, Ps(i) * 10'000'000);
      const Ps offset = d.first_unit_ps - Ps(i) * 10'000'000;
      EXPECT_GE(offset, base.first_unit_ps);
      EXPECT_LE(offset, base.first_unit_ps + skew);
      EXPECT_EQ(d.last_unit_ps - d.first_unit_ps, base.last_unit_ps - base.first_unit_ps);
      firsts.push_back(offset);
    }
    return firsts;
  };
  const auto a = draw(7), b = draw(7), c = draw(8);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_GT(*std::max_element(a.begin(), a.end()) - *std::min_element(a.begin(), a.end()), skew / 2);
}

TEST(Fabric, MessagesCloserThanTheSkewCanArriveInTheOtherOrder) {
  Fabric f(2, params(40'000));
  f.attach(nullptr, 1);
  int overtaken = 0;
  Ps previous = 0;
  for (int i = 0; i < 64; ++i) {
    const Delivery d = f.send(0, 1, 8, Ps(i) * 5'000);  // 5 ns apart, 8 B each
    overtaken += i > 0 && d.last_unit_ps < previous;
    previous = d.last_unit_ps;
  }
  EXPECT_GT(overtaken, 0);
}

TEST(EidRoute, EncodesTargetAndRelay) {
  const EidRoute direct = decode_eid(route_eid(5, -1), 8);
  EXPECT_EQ(direct.target_pe, 5);
  EXPECT_EQ(direct.via_pe, -1);
  const EidRoute relayed = decode_eid(route_eid(5, 2), 8);
  EXPECT_EQ(relayed.target_pe, 5);
  EXPECT_EQ(relayed.via_pe, 2);
  EXPECT_EQ(decode_eid(route_eid(5, 5), 8).target_pe, -1);   // relay = target
  EXPECT_EQ(decode_eid(route_eid(5, 9), 8).target_pe, -1);   // relay out of range
  EXPECT_EQ(decode_eid(route_eid(8, -1), 8).target_pe, -1);  // target out of range
  EidBytes bad = route_eid(1, -1);
  bad[0] = 'X';
  EXPECT_EQ(decode_eid(bad, 8).target_pe, -1);
}

// PostedWrites (models/nvidia/mem_order.h): the writes a NIC had posted on other QPs when it took
// a flag's WQE have landed once every one was sent or dropped and the latest sent one landed.
#include <gtest/gtest.h>

#include "models/nvidia/mem_order.h"

namespace symsim::nv {
namespace {

InFlightWrite write_at(uintptr_t begin, Ps visible_ps) { return {begin, begin + 64, visible_ps, {}}; }

TEST(PostedWrites, LandedOnceEveryWriteIsSentOrDroppedAndTheLatestHasLanded) {
  PostedWrites p;
  EXPECT_TRUE(p.landed_by(0));  // none posted
  const uint32_t a = p.add(write_at(0x1000, 0));
  const uint32_t b = p.add(write_at(0x2000, 0));
  EXPECT_EQ(p.writes()[a].visible_ps, kNotSentPs);
  EXPECT_FALSE(p.landed_by(1'000'000));  // neither sent
  p.sent(a, write_at(0x1000, 500));
  EXPECT_FALSE(p.landed_by(1'000'000));  // b not sent yet
  p.dropped(b);
  EXPECT_EQ(p.writes()[b].visible_ps, 0u);
  EXPECT_FALSE(p.landed_by(499));
  EXPECT_TRUE(p.landed_by(500));
}

TEST(PostedWrites, TheLatestSentWriteDecidesNotTheLastOne) {
  PostedWrites p;
  const uint32_t a = p.add(write_at(0x1000, 0));
  const uint32_t b = p.add(write_at(0x2000, 0));
  p.sent(a, write_at(0x1000, 900));
  p.sent(b, write_at(0x2000, 300));
  EXPECT_FALSE(p.landed_by(899));
  EXPECT_TRUE(p.landed_by(900));
}

}  // namespace
}  // namespace symsim::nv

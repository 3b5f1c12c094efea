// The combine check on a helper thread (kernels/moe/host/combine_check.h): every verdict in the
// place it was asked for, the same verdict and message as the check made in place, more checks
// than copies it holds at once. No simulation.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/moe/host/combine_check.h"
#include "kernels/moe/host/moe_workload.h"
#include "kernels/registry/kernel_registry.h"

using namespace moe;

TEST(CombineCheck, VerdictsKeepTheirPlaceAndNameTheFirstDifference) {
  WorkloadSpec w;
  w.ep = 4;
  w.tokens = 16;
  w.hidden = 64;
  w.top_k = 2;
  w.experts_per_rank = 2;
  w.seed = 3;
  symsim::check(true, "before");
  // 4 ranks x 5 launches = 20 checks, more than the 8 output copies the checker holds at once.
  for (uint32_t launch = 0; launch < 5; ++launch)
    for (uint32_t rank = 0; rank < w.ep; ++rank) {
      std::vector<uint16_t> got = reference_combine(w, make_rank_input(w, rank, launch));
      if (rank == 2 && launch == 1) {  // two elements wrong: the count and the first
        got[3 * w.hidden + 5] ^= 1;
        got[9 * w.hidden + 60] ^= 0x100;
      }
      check_combine_later(w, routing_of(w, rank, launch), rank, launch, got.data());
      got.assign(got.size(), 0);  // the caller's bytes may change once the check is asked
    }
  symsim::check(true, "after");
  help_combine_checks();
  const std::vector<symsim::KernelCheck>& checks = symsim::kernel_checks();  // waits for the helper's verdicts
  ASSERT_EQ(checks.size(), 22u);
  EXPECT_EQ(checks.front().what, "before");
  EXPECT_EQ(checks.back().what, "after");
  for (uint32_t launch = 0; launch < 5; ++launch)
    for (uint32_t rank = 0; rank < w.ep; ++rank) {
      const symsim::KernelCheck& c = checks[1 + launch * w.ep + rank];
      EXPECT_EQ(c.what, "pe " + std::to_string(rank) + " launch " + std::to_string(launch) +
                            ": combine output (16 tokens x 64) equals the host reference");
      const bool wrong = rank == 2 && launch == 1;
      EXPECT_EQ(c.ok, !wrong) << c.what;
      if (wrong) EXPECT_EQ(c.detail.rfind("2 elements differ; first: token 3 element 5: ", 0), 0u) << c.detail;
      else EXPECT_EQ(c.detail, "");
    }
}

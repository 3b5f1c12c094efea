// The CANN SHMEM device calls beyond UDMA (udma_device_api, 4 PEs): every byte checked by the
// host programs, and the MTE engine's copies into a peer's HBM cross the fabric (they take
// longer than the same copy into the core's own memory, and the links carry them).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "models/ascend/aiv_core.h"
#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"

using namespace symsim;

namespace {

struct CopyLog : AscendObserver {
  std::vector<CopyRecord> copies;  // PE 0's
  uint64_t link_bytes = 0;
  void on_copy(const CopyRecord& c) override {
    if (c.pe == 0) copies.push_back(c);
  }
  void on_link_busy(int, Ps, Ps, uint64_t wire_bytes) override { link_bytes += wire_bytes; }
  // The shortest copy of `bytes` on `pipe`.
  Ps fastest(AivPipe pipe, uint64_t bytes) const {
    Ps best = 0;
    for (const CopyRecord& c : copies)
      if (c.pipe == static_cast<int>(pipe) && c.bytes == bytes) {
        const Ps d = c.visible_ps - c.issue_ps;
        best = best == 0 ? d : std::min(best, d);
      }
    return best;
  }
};

}  // namespace

TEST(DeviceApi, EveryCallMovesTheRightBytesAndMteCrossesTheFabric) {
  CopyLog log;
  const RunOutput out =
      run_scenario(load_scenario(std::string(SYMSIM_SOURCE_DIR) + "/scenarios/udma/udma_device_api.json"), {}, {&log});
  for (const auto& e : out.result["expectations"]) EXPECT_TRUE(e["ok"].get<bool>()) << e.dump();
  EXPECT_GE(out.result["expectations"].size(), 60u);
  EXPECT_TRUE(out.result["hazards"].empty()) << out.result["hazards"].dump();
  EXPECT_EQ(out.result["status"], "pass");
  // aclshmemx_mte_put_nbi stages 256 B chunks: MTE2 reads the local GM into UB, MTE3 writes the
  // UB to the peer. The same bytes through the same engine take longer to the peer.
  const Ps local = log.fastest(AivPipe::kMte2, 256);
  const Ps remote = log.fastest(AivPipe::kMte3, 256);
  ASSERT_GT(local, 0);
  ASSERT_GT(remote, 0);
  EXPECT_GT(remote, local);
  EXPECT_GT(log.link_bytes, 0u);
}

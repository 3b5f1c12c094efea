// Call sites in reports are the kernel's own source lines: the shim records the return address
// of each call and symbolises it from the kernel's line tables when a hazard is reported. Each
// test rewrites a put's source before the put completed (udma_src_race) on one write path and
// checks the report names the exact line of the write and, in its detail, of the put.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"

using namespace symsim;

namespace {

const std::string kKernel = "kernels/udma/src_race/udma_src_race_kernel.cpp";

// "<kernel>:<line>" of the first line of the kernel source that contains `text`.
std::string line_of(const std::string& text) {
  std::ifstream in(std::string(SYMSIM_SOURCE_DIR) + "/" + kKernel);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(text) != std::string::npos) return kKernel + ":" + std::to_string(n);
  ADD_FAILURE() << text << " is not in " << kKernel;
  return "";
}

void expect_sites(uint32_t path, const std::string& write_call) {
  LoadOptions o;
  o.sets = {"kernel.args.path=" + std::to_string(path), "kernel.args.delay_ns=0", "kernel.args.bytes=65536"};
  const RunOutput out =
      run_scenario(load_scenario(std::string(SYMSIM_SOURCE_DIR) + "/scenarios/udma/udma_src_race.json", o), {}, {});
  const std::string write = line_of(write_call);
  const std::string put = line_of("aclshmemx_udma_put_nbi(dst, src");
  bool found = false;
  for (const auto& h : out.result["hazards"]) {
    if (h["id"] != "src_reuse_before_completion") continue;
    found = true;
    const std::string site = h.value("site", std::string());
    // The site may carry the build's path prefix; it ends with the kernel's file and line.
    ASSERT_GE(site.size(), write.size()) << h.dump();
    EXPECT_EQ(site.substr(site.size() - write.size()), write) << h.dump();
    EXPECT_NE(h["detail"].get<std::string>().find(put + ")"), std::string::npos) << h.dump();
  }
  EXPECT_TRUE(found) << out.result["hazards"].dump(2);
}

}  // namespace

TEST(CallSites, MteCopyAndPutLines) { expect_sites(0, "AscendC::DataCopy(src_gm, data, bytes)"); }
TEST(CallSites, ScalarStoresWrittenBackByDcciLine) { expect_sites(1, "dcci_cachelines(src, bytes)"); }
TEST(CallSites, StDevLine) { expect_sites(2, "st_dev(((__gm__ uint64_t*)fresh)[i]"); }
// The GlobalTensor form of aclshmemx_mte_put_nbi calls its pointer form: two always-inline shim
// functions lie between the kernel's call and the recorded return address.
TEST(CallSites, NestedShimCallsResolveToKernelLine) {
  expect_sites(4, "aclshmemx_mte_put_nbi(src_gm, fresh_gm, data, bytes");
}

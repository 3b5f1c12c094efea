// Bulk loads per mbarrier: one thread arms an mbarrier for k copies (arrive.expect_tx of
// k x bytes), issues the k bulk loads on it, waits for the phase, and starts over; k = 1, 2, 4,
// 8, copies of 1 KiB or 4 KiB from a 1 MiB L2-resident source. Time per round against k
// splits the issuing thread's cost into a part per copy (slope) and a part per mbarrier round
// (intercept: arming, waiting, the last copy's latency). The tma_sm rows give each copy an
// mbarrier of its own; tma_probe and the dispatch kernels arm one for several copies.
#include "calib.cuh"

namespace calib {

namespace {

constexpr int kRounds = 1024;

__global__ void mbar_rounds(const uint8_t* src, uint64_t window, uint32_t bytes, int k, int rounds, uint64_t* ns_out) {
  extern __shared__ __align__(128) uint8_t smem[];
  __shared__ uint64_t mbar;
  if (threadIdx.x != 0) return;
  mbar_init(&mbar, 1);
  uint32_t phase = 0;
  uint64_t off = 0;
  const uint64_t t0 = globaltimer_ns();
  for (int r = 0; r < rounds; ++r) {
    mbar_expect_tx(&mbar, bytes * static_cast<uint32_t>(k));
    for (int c = 0; c < k; ++c) {
      bulk_load(smem + static_cast<size_t>(c) * bytes, src + off, bytes, &mbar);
      off += bytes;
      if (off + bytes > window) off = 0;
    }
    mbar_wait(&mbar, phase);
    phase ^= 1;
  }
  ns_out[0] = globaltimer_ns() - t0;
}

}  // namespace

void bench_tma_mbar() {
  const uint64_t window = uint64_t(1) << 20;
  uint8_t* src = nullptr;
  uint64_t* ns_out = nullptr;
  CALIB_CHECK(cudaMalloc(&src, window));
  CALIB_CHECK(cudaMemset(src, 1, window));  // written just before: in L2
  CALIB_CHECK(cudaMalloc(&ns_out, 16));
  CALIB_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(mbar_rounds), cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
  for (uint32_t bytes : {1024u, 4096u}) {
    std::vector<double> ks, per_round;
    const std::string size = bytes == 1024 ? "1k" : "4k";
    for (int k : {1, 2, 4, 8}) {
      std::vector<double> v;
      for (int rep = 0; rep < 4; ++rep) {
        mbar_rounds<<<1, 32, k * bytes>>>(src, window, bytes, k, kRounds, ns_out);
        CALIB_CHECK(cudaGetLastError());
        CALIB_CHECK(cudaDeviceSynchronize());
        uint64_t ns = 0;
        CALIB_CHECK(cudaMemcpy(&ns, ns_out, sizeof ns, cudaMemcpyDeviceToHost));
        if (rep > 0) v.push_back(static_cast<double>(ns) / kRounds);
      }
      ks.push_back(k);
      per_round.push_back(median(v));
      add_row({"tma_mbar.load_l2." + size + ".k" + std::to_string(k) + ".round_ns",
               "one thread: arrive.expect_tx, " + std::to_string(k) + " bulk load(s) of " + size + " B on that mbarrier (1 MiB L2-resident source), wait",
               median(v), "ns", std::to_string(kRounds) + " rounds, globaltimer in the kernel (median of 3 after a warm-up)"});
    }
    const LineFit f = fit_line(ks, per_round);
    add_row({"tma_mbar.load_l2." + size + ".fit_copy_ns", "per bulk load issued on an mbarrier already armed (slope of round time over k = 1..8)", f.slope,
             "ns", "least squares over the four .round_ns rows"});
    add_row({"tma_mbar.load_l2." + size + ".fit_round_ns", "per mbarrier round (arm, wait, last copy's latency: intercept over k = 1..8)",
             f.intercept, "ns", "least squares over the four .round_ns rows"});
  }
  CALIB_CHECK(cudaFree(src));
  CALIB_CHECK(cudaFree(ns_out));
}

}  // namespace calib

// 1D bulk copies (cp.async.bulk, the TMA's non-tensor path): the latency of one copy issued
// and waited for by one thread, against size (load global->shared completing on an mbarrier,
// from a hot line or from HBM; store shared->global waited with wait_group 0), and the
// bandwidth of one issuing thread per SM keeping 4 copies in flight over 2 GiB.
#include "calib.cuh"

namespace calib {

namespace {

constexpr int kLatencyIters = 400;
constexpr int kStages = 4;
constexpr size_t kGmemBytes = size_t(2) << 30;
constexpr size_t kColdStride = size_t(64) << 10;  // 64 KiB slots; each cold copy takes a slot never used before
constexpr size_t kColdSlots = kGmemBytes / kColdStride;

__global__ void tma_latency(uint8_t* gmem, uint32_t bytes, int iters, int store, int cold, size_t first_slot, uint64_t* out) {
  extern __shared__ __align__(128) uint8_t smem[];
  __shared__ __align__(8) uint64_t mbar;
  if (threadIdx.x != 0) return;
  mbar_init(&mbar, 1);
  uint32_t parity = 0;
  const uint64_t c0 = clock64(), t0 = globaltimer_ns();
  for (int i = 0; i < iters; ++i) {
    uint8_t* g = gmem + (cold ? (first_slot + static_cast<size_t>(i)) % kColdSlots * kColdStride : 0);
    if (store) {
      bulk_store(g, smem, bytes);
      bulk_wait<0>();
    } else {
      mbar_expect_tx(&mbar, bytes);
      bulk_load(smem, g, bytes, &mbar);
      mbar_wait(&mbar, parity);
      parity ^= 1;
    }
  }
  out[0] = clock64() - c0;
  out[1] = globaltimer_ns() - t0;
}

__global__ void tma_bandwidth(uint8_t* gmem, size_t per_block, uint32_t bytes, int store) {
  extern __shared__ __align__(128) uint8_t smem[];
  __shared__ __align__(8) uint64_t mbar[kStages];
  if (threadIdx.x != 0) return;
  for (int s = 0; s < kStages; ++s) mbar_init(&mbar[s], 1);
  uint8_t* base = gmem + blockIdx.x * per_block;
  const size_t chunks = per_block / bytes;
  uint32_t phases = 0;
  for (size_t c = 0; c < chunks; ++c) {
    const int s = static_cast<int>(c % kStages);
    uint8_t* buf = smem + static_cast<size_t>(s) * bytes;
    if (store) {
      bulk_store(base + c * bytes, buf, bytes);
      asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(kStages - 1) : "memory");
    } else {
      if (c >= kStages) {
        mbar_wait(&mbar[s], (phases >> s) & 1);
        phases ^= 1u << s;
      }
      mbar_expect_tx(&mbar[s], bytes);
      bulk_load(buf, base + c * bytes, bytes, &mbar[s]);
    }
  }
  if (store) {
    bulk_wait<0>();
  } else {
    for (size_t c = chunks > kStages ? chunks - kStages : 0; c < chunks; ++c) {
      const int s = static_cast<int>(c % kStages);
      mbar_wait(&mbar[s], (phases >> s) & 1);
      phases ^= 1u << s;
    }
  }
}

double latency_ns(uint8_t* gmem, uint64_t* out, uint32_t bytes, int store, int cold) {
  static size_t next_slot = 0;  // 18 cold runs x 400 copies stay under the 32768 slots
  std::vector<double> ns;
  for (int rep = 0; rep < 3; ++rep) {
    tma_latency<<<1, 32, bytes>>>(gmem, bytes, kLatencyIters, store, cold, next_slot, out);
    if (cold) next_slot += kLatencyIters;
    CALIB_CHECK(cudaGetLastError());
    CALIB_CHECK(cudaDeviceSynchronize());
    uint64_t h[2];
    CALIB_CHECK(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
    ns.push_back(static_cast<double>(h[1]) / kLatencyIters);
  }
  return median(ns);
}

double bandwidth_gbps(uint8_t* gmem, uint32_t bytes, int store) {
  const int blocks = sm_count();
  const size_t per_block = kGmemBytes / blocks / bytes * bytes;
  const size_t smem = static_cast<size_t>(kStages) * bytes;
  std::vector<double> gbps;
  EventTimer timer;
  for (int rep = 0; rep < 4; ++rep) {
    timer.start();
    tma_bandwidth<<<blocks, 32, smem>>>(gmem, per_block, bytes, store);
    CALIB_CHECK(cudaGetLastError());
    const double ms = timer.stop_ms();
    if (rep > 0) gbps.push_back(static_cast<double>(per_block) * blocks / (ms * 1e6));
  }
  return median(gbps);
}

std::string size_name(uint32_t bytes) { return bytes >= 1024 ? std::to_string(bytes / 1024) + "k" : std::to_string(bytes); }

}  // namespace

void bench_tma() {
  uint8_t* gmem = nullptr;
  uint64_t* out = nullptr;
  CALIB_CHECK(cudaMalloc(&gmem, kGmemBytes));
  CALIB_CHECK(cudaMemset(gmem, 1, kGmemBytes));
  CALIB_CHECK(cudaMalloc(&out, 2 * sizeof(uint64_t)));
  CALIB_CHECK(cudaFuncSetAttribute(tma_latency, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  CALIB_CHECK(cudaFuncSetAttribute(tma_bandwidth, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  const std::string lat = std::to_string(kLatencyIters) + " copies in a row by one thread, each waited for (median of 3)";
  for (uint32_t bytes : {16u, 128u, 1024u, 4096u, 16384u, 65536u}) {
    const std::string n = size_name(bytes);
    add_row({"tma.load." + n + ".hot_ns", "bulk load " + n + " B global->shared, L2-resident source", latency_ns(gmem, out, bytes, 0, 0), "ns",
             lat + "; same source each time"});
    add_row({"tma.load." + n + ".cold_ns", "bulk load " + n + " B global->shared, from HBM", latency_ns(gmem, out, bytes, 0, 1), "ns",
             lat + "; each source 64 KiB from any used before"});
    add_row({"tma.store." + n + ".ns", "bulk store " + n + " B shared->global, wait_group 0", latency_ns(gmem, out, bytes, 1, 1), "ns",
             lat + "; each destination 64 KiB from any used before"});
  }
  const std::string bw = "one thread per SM, 4 copies in flight, over 2 GiB (median of 3 after a warm-up)";
  for (uint32_t bytes : {4096u, 16384u, 32768u}) {
    const std::string n = size_name(bytes);
    add_row({"tma.load_bw." + n + "_gbps", "bulk-load bandwidth, " + n + " B copies, all SMs", bandwidth_gbps(gmem, bytes, 0), "GB/s", bw});
    add_row({"tma.store_bw." + n + "_gbps", "bulk-store bandwidth, " + n + " B copies, all SMs", bandwidth_gbps(gmem, bytes, 1), "GB/s", bw});
  }
  CALIB_CHECK(cudaFree(gmem));
  CALIB_CHECK(cudaFree(out));
}

}  // namespace calib

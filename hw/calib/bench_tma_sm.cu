// One SM's TMA engine (1D cp.async.bulk): the rate one issuing thread of one CTA reaches
// against the copy size and the number of copies it keeps in flight, for loads streaming from
// HBM, loads hitting L2 and stores to HBM. The per-SM model's TMA parameters (fixed cost per
// copy, bytes per ns, in-flight knee) are fitted from these rows (docs/hw-calibration.md).
#include "calib.cuh"

namespace calib {

namespace {

constexpr size_t kRegionBytes = size_t(4) << 30;    // streamed through: far beyond the 60 MiB L2
constexpr size_t kHotBytes = size_t(1) << 20;       // L2-resident source of the hot loads
constexpr size_t kSmemBytes = 224 * 1024;           // dynamic shared memory per CTA
constexpr size_t kTargetBytes = size_t(32) << 20;   // bytes moved per timed run
constexpr int kMinCopies = 2048;
constexpr int kSizes[] = {1024, 2048, 4096, 8192, 16384, 32768, 65536};
constexpr int kInflight[] = {1, 2, 4, 8};
enum Mode { kLoadHbm, kLoadL2, kStore };
constexpr int kMaxWarps = 16;

// Lane 0 of each of `warps` warps keeps kK copies in flight: a load waits for the mbarrier of
// the copy it issued kK before; a store waits (wait_group.read) until at most kK-1 of its
// stores still read shared memory. The warps take copies in turn (copy i of warp w is copy
// i * warps + w of the stream). Buffers are reused round robin when kK of them do not fit
// (64 KiB x 8): the data is not used. The loop keeps to adds and compares: a 64-bit modulo
// per copy costs about 200 ns in one thread and would hide the engine.
template <int kK>
__global__ void tma_stream(uint8_t* gmem, size_t window_bytes, size_t first_offset, uint32_t bytes, int copies_per_warp, int bufs, int store,
                           int active_block, uint64_t* out_ns) {
  extern __shared__ __align__(128) uint8_t smem[];
  __shared__ __align__(8) uint64_t mbar[kMaxWarps * kK];
  if (static_cast<int>(blockIdx.x) != active_block) return;  // the CTAs before it only push it onto another SM
  const int warp = threadIdx.x / 32, warps = blockDim.x / 32;
  if (threadIdx.x == 0)
    for (int s = 0; s < warps * kK; ++s) mbar_init(&mbar[s], 1);
  __syncthreads();
  const uint64_t t0 = globaltimer_ns();
  if (threadIdx.x % 32 == 0) {
    uint64_t* my_mbar = mbar + warp * kK;
    uint8_t* my_smem = smem + static_cast<size_t>(warp) * bufs * bytes;
    const size_t step = static_cast<size_t>(warps) * bytes;
    size_t off = first_offset + static_cast<size_t>(warp) * bytes;
    if (off >= window_bytes) off -= window_bytes;
    uint32_t phases = 0;
    int s = 0, b = 0;
    for (int c = 0; c < copies_per_warp; ++c) {
      uint8_t* buf = my_smem + static_cast<size_t>(b) * bytes;
      if (store) {
        bulk_store(gmem + off, buf, bytes);
        asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(kK - 1) : "memory");
      } else {
        if (c >= kK) {
          mbar_wait(&my_mbar[s], (phases >> s) & 1);
          phases ^= 1u << s;
        }
        mbar_expect_tx(&my_mbar[s], bytes);
        bulk_load(buf, gmem + off, bytes, &my_mbar[s]);
      }
      off += step;
      if (off >= window_bytes) off -= window_bytes;
      if (++s == kK) s = 0;
      if (++b == bufs) b = 0;
    }
    if (store) {
      bulk_wait<0>();  // every write done, not only read out of shared memory
    } else {
      if (copies_per_warp < kK) s = 0;  // fewer copies than stages: the oldest is in stage 0
      for (int c = 0; c < kK && c < copies_per_warp; ++c) {  // the last kK copies, oldest first
        mbar_wait(&my_mbar[s], (phases >> s) & 1);
        phases ^= 1u << s;
        if (++s == kK) s = 0;
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    out_ns[0] = globaltimer_ns() - t0;
    out_ns[1] = smid();
  }
}

// The CTA runs as block `active_block` of a grid whose other CTAs exit at once (each takes
// the whole shared memory, so every CTA sits on an SM of its own): block 0 by default, others
// to see whether the SM matters. Returns ns; *sm gets the SM it ran on.
template <int kK>
double run_ns(uint8_t* gmem, Mode mode, int warps, uint32_t bytes, int copies, size_t* cursor, uint64_t* out, int active_block = 0,
              int* sm = nullptr) {
  const int bufs = static_cast<int>(std::max<size_t>(1, std::min<size_t>(kK, kSmemBytes / warps / bytes)));
  const size_t window = mode == kLoadL2 ? kHotBytes : kRegionBytes;
  const size_t first = mode == kLoadL2 ? 0 : (*cursor + 65535) / 65536 * 65536;  // a multiple of every size: no copy wraps
  if (mode != kLoadL2) *cursor = (first + static_cast<size_t>(copies) * bytes) % kRegionBytes;
  CALIB_CHECK(cudaFuncSetAttribute(tma_stream<kK>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(kSmemBytes)));
  const size_t smem = active_block == 0 ? static_cast<size_t>(warps) * bufs * bytes : kSmemBytes;
  tma_stream<kK><<<active_block + 1, 32 * warps, smem>>>(gmem, window, first, bytes, copies / warps, bufs, mode == kStore, active_block, out);
  CALIB_CHECK(cudaGetLastError());
  CALIB_CHECK(cudaDeviceSynchronize());
  uint64_t h[2] = {0, 0};
  CALIB_CHECK(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
  if (sm) *sm = static_cast<int>(h[1]);
  return static_cast<double>(h[0]);
}

double run_ns(int k, uint8_t* gmem, Mode mode, int warps, uint32_t bytes, int copies, size_t* cursor, uint64_t* out, int* sm) {
  switch (k) {
    case 1: return run_ns<1>(gmem, mode, warps, bytes, copies, cursor, out, 0, sm);
    case 2: return run_ns<2>(gmem, mode, warps, bytes, copies, cursor, out, 0, sm);
    case 4: return run_ns<4>(gmem, mode, warps, bytes, copies, cursor, out, 0, sm);
    default: return run_ns<8>(gmem, mode, warps, bytes, copies, cursor, out, 0, sm);
  }
}

std::string size_name(int bytes) { return std::to_string(bytes / 1024) + "k"; }

}  // namespace

void bench_tma_sm() {
  uint8_t* gmem = nullptr;
  uint64_t* out = nullptr;
  CALIB_CHECK(cudaMalloc(&gmem, kRegionBytes));
  CALIB_CHECK(cudaMemset(gmem, 1, kRegionBytes));
  CALIB_CHECK(cudaMalloc(&out, 2 * sizeof(uint64_t)));
  size_t cursor = kHotBytes;
  const char* mode_id[] = {"load_hbm", "load_l2", "store"};
  const char* mode_what[] = {"bulk loads global->shared streaming from HBM", "bulk loads global->shared, 1 MiB source (L2 hits)",
                             "bulk stores shared->global streaming to HBM"};
  for (Mode mode : {kLoadHbm, kLoadL2, kStore}) {
    std::vector<double> sizes, per_copy_ns_k1;
    double peak = 0;
    for (int bytes : kSizes) {
      const int copies = std::max<int>(kMinCopies, static_cast<int>(kTargetBytes / bytes));
      for (int warps : {1, 4, kMaxWarps}) {
        if (static_cast<size_t>(warps) * bytes > kSmemBytes) continue;
        std::vector<double> rate_by_k;
        for (int k : kInflight) {
          run_ns(k, gmem, mode, warps, bytes, 64, &cursor, out, nullptr);  // warm-up (and, for L2, the source into L2)
          std::vector<double> ns;
          int sm = -1;
          for (int rep = 0; rep < 3; ++rep) ns.push_back(run_ns(k, gmem, mode, warps, bytes, copies, &cursor, out, &sm));
          const double t = median(ns), gbps = static_cast<double>(copies) * bytes / t;
          peak = std::max(peak, gbps);
          rate_by_k.push_back(gbps);
          if (k == 1 && warps == 1) {
            sizes.push_back(bytes);
            per_copy_ns_k1.push_back(t / copies);
          }
          const std::string who = warps == 1 ? "x" : "w" + std::to_string(warps) + "x";
          add_row({std::string("tma_sm.") + mode_id[mode] + "." + size_name(bytes) + "." + who + std::to_string(k) + "_gbps",
                   std::string(mode_what[mode]) + ", " + size_name(bytes) + " B copies, " + std::to_string(k) + " in flight per issuing thread, " +
                       std::to_string(warps) + " issuing warp(s), one SM",
                   gbps, "GB/s",
                   "1 CTA (SM " + std::to_string(sm) + "), lane 0 of " + std::to_string(warps) + " warp(s) issuing, " + std::to_string(copies) +
                       " copies (median of 3 after a warm-up); ns per copy " + num(t / copies)});
        }
        if (warps == 1) {
          const double best = *std::max_element(rate_by_k.begin(), rate_by_k.end());
          size_t knee = 0;
          while (rate_by_k[knee] < 0.9 * best) ++knee;
          add_row({std::string("tma_sm.") + mode_id[mode] + "." + size_name(bytes) + ".knee_inflight",
                   std::string(mode_what[mode]) + ", " + size_name(bytes) + " B copies: fewest in flight reaching 90% of the best of 1..8",
                   static_cast<double>(kInflight[knee]), "copies", "from the x1..x8 rows above (one issuing thread)"});
        }
      }
    }
    const LineFit f = fit_line(sizes, per_copy_ns_k1);
    const std::string how = "least-squares line through the 1-in-flight rows: ns per copy = t0 + bytes / rate, 1..64 KiB";
    add_row({std::string("tma_sm.") + mode_id[mode] + ".fit_t0_ns", std::string(mode_what[mode]) + ": fixed cost of one copy, one in flight",
             f.intercept, "ns", how});
    add_row({std::string("tma_sm.") + mode_id[mode] + ".fit_gbps", std::string(mode_what[mode]) + ": bytes per ns of one copy, one in flight",
             1.0 / f.slope, "GB/s", how});
    add_row({std::string("tma_sm.") + mode_id[mode] + ".peak_gbps", std::string(mode_what[mode]) + ": best rate of one SM over these rows",
             peak, "GB/s", "maximum of the rows above"});
  }
  // The best rate (32 KiB copies, 4 issuing warps x 4 in flight) on SMs across the chip.
  const int sms = sm_count();
  for (Mode mode : {kLoadHbm, kLoadL2, kStore}) {
    const int bytes = 32768, copies = static_cast<int>(kTargetBytes / bytes);
    double lo = 1e30, hi = 0;
    int lo_sm = -1, hi_sm = -1;
    std::string all;
    for (int block = 0; block < sms; block += 7) {
      run_ns<4>(gmem, mode, 4, bytes, 64, &cursor, out, block);
      std::vector<double> ns;
      int sm = -1;
      for (int rep = 0; rep < 3; ++rep) ns.push_back(run_ns<4>(gmem, mode, 4, bytes, copies, &cursor, out, block, &sm));
      const double gbps = static_cast<double>(copies) * bytes / median(ns);
      if (gbps < lo) lo = gbps, lo_sm = sm;
      if (gbps > hi) hi = gbps, hi_sm = sm;
      all += (all.empty() ? "" : " ") + num(gbps);
    }
    const std::string how = "32k B copies, 4 issuing warps x 4 in flight, one CTA on each of " + std::to_string((sms + 6) / 7) +
                            " SMs in turn (median of 3 each): " + all;
    add_row({std::string("tma_sm.") + mode_id[mode] + ".sm_min_gbps", std::string(mode_what[mode]) + ": best rate, slowest SM (" +
             std::to_string(lo_sm) + ")", lo, "GB/s", how});
    add_row({std::string("tma_sm.") + mode_id[mode] + ".sm_max_gbps", std::string(mode_what[mode]) + ": best rate, fastest SM (" +
             std::to_string(hi_sm) + ")", hi, "GB/s", how});
  }
  CALIB_CHECK(cudaFree(gmem));
  CALIB_CHECK(cudaFree(out));
}

}  // namespace calib

// Cold start: what a kernel pays for the GPU having idled before it (the SM clock drops when
// the GPU idles, `versions.txt` reads 345 MHz between runs), and what first touches of memory
// cost (a page's first access walks the page table). symsim-hw's kernel times are taken after
// tens of milliseconds of host work between repetitions: these rows are what that costs.
//  * ramp: one warp runs blocks of 256 dependent integer multiply-adds, or of 16 dependent
//    L2-hit loads, stamping globaltimer and clock64 after each block; the kernel is launched
//    after the GPU idled 0 (queued behind a busy kernel), 1, 10, 30 or 100 ms. The rows give
//    the SM clock (clock64 cycles over globaltimer ns) and ns per operation by window of
//    time since the kernel's first stamp.
//  * launch: events around an empty cooperative launch after the same idle times.
//  * pages: one dependent load per 2 MiB page over 4 GiB written long before (its lines out
//    of L2), then a new line in each of the same pages, then the first lines again.
#include <chrono>
#include <thread>

#include "calib.cuh"

namespace calib {

namespace {

constexpr int kRampBlocks = 512;
constexpr int kImadPerBlock = 256;
constexpr int kLoadsPerBlock = 16;

// stamps[2b] = globaltimer, stamps[2b+1] = clock64 after block b; stamps[2 * kRampBlocks] = start.
template <bool kLoads>
__global__ void ramp_probe(const uint64_t* l2_buf, uint64_t l2_mask_words, int blocks, uint32_t seed, uint64_t* stamps, uint32_t* sink) {
  __shared__ uint64_t s[2 * kRampBlocks + 2];
  uint32_t x = seed + threadIdx.x;
  const uint32_t a = seed | 1u, b = seed >> 3;
  uint64_t carry = 0, idx = threadIdx.x * 977;
  s[2 * kRampBlocks] = globaltimer_ns();
  s[2 * kRampBlocks + 1] = clock64();
  for (int blk = 0; blk < blocks; ++blk) {
    if constexpr (kLoads) {
#pragma unroll
      for (int j = 0; j < kLoadsPerBlock; ++j) {
        idx = (idx * 0x9E3779B97F4A7C15ull + 1) ;
        const uint64_t* p = l2_buf + ((idx >> 20) & l2_mask_words) + carry;
        asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(carry) : "l"(p) : "memory");
      }
    } else {
#pragma unroll 16
      for (int j = 0; j < kImadPerBlock; ++j) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(a), "r"(b));
    }
    if (threadIdx.x == 0) {
      s[2 * blk] = globaltimer_ns();
      s[2 * blk + 1] = clock64();
    }
  }
  __syncwarp();
  if (threadIdx.x == 0)
    for (int i = 0; i < 2 * blocks; ++i) stamps[i] = s[i];
  if (threadIdx.x == 0) stamps[2 * kRampBlocks] = s[2 * kRampBlocks], stamps[2 * kRampBlocks + 1] = s[2 * kRampBlocks + 1];
  if ((x ^ static_cast<uint32_t>(carry)) == 0x9e3779b9u) *sink = x;
}

__global__ void spin_kernel(uint64_t ns) {
  const uint64_t t0 = globaltimer_ns();
  while (globaltimer_ns() - t0 < ns) {
  }
}
__global__ void empty_kernel() {}

__global__ void page_chain(const uint64_t* base, int n, uint64_t page_words, uint64_t off_words, uint64_t* ns_out) {
  uint64_t carry = 0;
  const uint64_t t0 = globaltimer_ns();
  for (int i = 0; i < n; ++i) {
    const uint64_t* p = base + static_cast<uint64_t>(i) * page_words + ((i * 33ull * 16) % (page_words / 2)) + off_words + carry;
    asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(carry) : "l"(p) : "memory");
  }
  ns_out[0] = globaltimer_ns() - t0;
  ns_out[1] = carry;
}

void idle_for(int ms) {
  CALIB_CHECK(cudaDeviceSynchronize());
  if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

struct Window {
  const char* id;
  double from_us, to_us;
};
const Window kWindows[] = {{"0_5us", 0, 5}, {"5_20us", 5, 20}, {"20_50us", 20, 50}, {"50_100us", 50, 100}, {"100_250us", 100, 250}};

// Per window: SM GHz and ns per operation, from the stamps of one run.
void window_figures(const std::vector<uint64_t>& st, int blocks, int ops_per_block, std::vector<double>& ghz, std::vector<double>& ns_op) {
  const double t0 = static_cast<double>(st[2 * kRampBlocks]), c0 = static_cast<double>(st[2 * kRampBlocks + 1]);
  ghz.assign(std::size(kWindows), 0);
  ns_op.assign(std::size(kWindows), 0);
  for (size_t w = 0; w < std::size(kWindows); ++w) {
    double first_t = -1, first_c = 0, last_t = 0, last_c = 0;
    int nblocks = 0;
    double prev_t = t0, prev_c = c0;
    for (int b = 0; b < blocks; ++b) {
      const double t = static_cast<double>(st[2 * b]), c = static_cast<double>(st[2 * b + 1]);
      const double since_us = (t - t0) / 1000.0;
      if (since_us >= kWindows[w].from_us && since_us < kWindows[w].to_us) {
        if (first_t < 0) first_t = prev_t, first_c = prev_c;
        last_t = t, last_c = c;
        ++nblocks;
      }
      prev_t = t, prev_c = c;
    }
    if (nblocks > 0 && last_t > first_t) {
      ghz[w] = (last_c - first_c) / (last_t - first_t);
      ns_op[w] = (last_t - first_t) / (static_cast<double>(nblocks) * ops_per_block);
    }
  }
}

}  // namespace

void bench_cold() {
  // ---- ramp: clock and per-op time after idling ----
  const size_t l2_bytes = size_t(1) << 20;
  uint64_t *l2_buf = nullptr, *stamps = nullptr;
  uint32_t* sink = nullptr;
  CALIB_CHECK(cudaMalloc(&l2_buf, l2_bytes));
  CALIB_CHECK(cudaMemset(l2_buf, 0, l2_bytes));
  CALIB_CHECK(cudaMalloc(&stamps, (2 * kRampBlocks + 2) * sizeof(uint64_t)));
  CALIB_CHECK(cudaMalloc(&sink, 64));
  const uint64_t mask = l2_bytes / 8 - 1;
  for (int loads = 0; loads < 2; ++loads) {
    const int blocks = loads ? 128 : kRampBlocks;
    const int ops = loads ? kLoadsPerBlock : kImadPerBlock;
    for (int idle_ms : {0, 1, 10, 30, 100}) {
      std::vector<std::vector<double>> ghz_runs(std::size(kWindows)), ns_runs(std::size(kWindows));
      for (int rep = 0; rep < 4; ++rep) {
        if (idle_ms == 0) {
          // Busy GPU: a 300 us kernel, the probe queued right behind it.
          idle_for(0);
          spin_kernel<<<1, 32>>>(300000);
        } else {
          ramp_probe<true><<<1, 32>>>(l2_buf, mask, 8, 1, stamps, sink);  // l2_buf in L2, then idle
          idle_for(idle_ms);
        }
        if (loads)
          ramp_probe<true><<<1, 32>>>(l2_buf, mask, blocks, 7, stamps, sink);
        else
          ramp_probe<false><<<1, 32>>>(l2_buf, mask, blocks, 7, stamps, sink);
        CALIB_CHECK(cudaGetLastError());
        CALIB_CHECK(cudaDeviceSynchronize());
        std::vector<uint64_t> h(2 * kRampBlocks + 2);
        CALIB_CHECK(cudaMemcpy(h.data(), stamps, h.size() * sizeof(uint64_t), cudaMemcpyDeviceToHost));
        std::vector<double> g, n;
        window_figures(h, blocks, ops, g, n);
        if (rep == 0) continue;
        for (size_t w = 0; w < std::size(kWindows); ++w) ghz_runs[w].push_back(g[w]), ns_runs[w].push_back(n[w]);
      }
      for (size_t w = 0; w < std::size(kWindows); ++w) {
        const std::string after = idle_ms == 0 ? "queued behind a busy kernel" : "after the GPU idled " + std::to_string(idle_ms) + " ms";
        const std::string id = std::string("cold.") + (loads ? "l2_load" : "imad") + ".idle_" + std::to_string(idle_ms) + "ms." + kWindows[w].id;
        const std::string how = std::string("one warp, ") + (loads ? "blocks of 16 dependent ld.global.cg hitting a 1 MiB L2-resident buffer" : "blocks of 256 dependent mad.lo.u32") +
                                ", globaltimer and clock64 after each block; blocks ending " + num(kWindows[w].from_us) + "-" + num(kWindows[w].to_us) +
                                " us after the kernel's first stamp (median of 3 after a warm-up)";
        add_row({id + "_ghz", "SM clock (clock64 / globaltimer) " + after, median(ghz_runs[w]), "GHz", how});
        add_row({id + "_ns", std::string(loads ? "ns per dependent L2-hit load " : "ns per dependent multiply-add ") + after, median(ns_runs[w]), "ns", how});
      }
    }
  }

  // ---- launch after idling ----
  {
    EventTimer timer;
    const unsigned sms = static_cast<unsigned>(sm_count());
    for (int idle_ms : {1, 10, 30, 100}) {
      std::vector<double> v;
      for (int rep = 0; rep < 6; ++rep) {
        idle_for(idle_ms);
        timer.start();
        void* args[] = {nullptr};
        CALIB_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(empty_kernel), dim3(sms), dim3(128), args, 0, nullptr));
        v.push_back(timer.stop_ms() * 1000.0);
      }
      v.erase(v.begin());
      add_row({"cold.launch_event_us.idle_" + std::to_string(idle_ms) + "ms",
               "events around a cooperative launch of an empty kernel (one 128-thread CTA per SM) after the GPU idled " + std::to_string(idle_ms) + " ms",
               median(v), "us", "start event, launch, stop event on the legacy stream (median of 5 after a warm-up)"});
    }
  }
  CALIB_CHECK(cudaFree(l2_buf));
  CALIB_CHECK(cudaFree(stamps));
  CALIB_CHECK(cudaFree(sink));

  // ---- pages: first touch of a 2 MiB page ----
  {
    const size_t bytes = size_t(8) << 30, page = size_t(2) << 20;
    uint64_t *buf = nullptr, *ns_out = nullptr;
    CALIB_CHECK(cudaMalloc(&buf, bytes));
    CALIB_CHECK(cudaMemset(buf, 0, bytes));  // pages mapped; the first 4 GiB leave L2 as the rest is written
    CALIB_CHECK(cudaMalloc(&ns_out, 16));
    CALIB_CHECK(cudaDeviceSynchronize());
    const int n = 2048;  // 4 GiB of pages
    const uint64_t page_words = page / 8;
    struct Pass {
      const char* id;
      const char* what;
      uint64_t off_words;
    };
    const Pass passes[] = {{"first_ns", "first access of each page since it was written (line not in L2)", 0},
                           {"same_page_new_line_ns", "a line not yet read in each page just read (line not in L2, page just used)", page_words / 2 + 64},
                           {"repeat_ns", "the first pass's lines again (in L2, page just used)", 0}};
    for (const Pass& p : passes) {
      page_chain<<<1, 1>>>(buf, n, page_words, p.off_words, ns_out);
      CALIB_CHECK(cudaGetLastError());
      CALIB_CHECK(cudaDeviceSynchronize());
      uint64_t h[2];
      CALIB_CHECK(cudaMemcpy(h, ns_out, sizeof h, cudaMemcpyDeviceToHost));
      add_row({std::string("cold.page.") + p.id, std::string("one dependent 8 B ld.global.cg per 2 MiB page over 4 GiB: ") + p.what,
               static_cast<double>(h[0]) / n, "ns", "one thread, 2048 loads each on the last one's value, pages in order (one pass)"});
    }
    CALIB_CHECK(cudaFree(buf));
    CALIB_CHECK(cudaFree(ns_out));
  }
}

}  // namespace calib

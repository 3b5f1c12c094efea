// Cold start, second part: (1) what events around a launch hold in the context symsim-hw
// times its kernels in (fresh cudaMalloc, blocking cudaMemcpy and cudaMemset, then the start
// event and a cooperative launch; docs/hw-accuracy.md), against a host that spun or slept
// the same time with the GPU idle; (2) instruction fetch: a kernel of 64 KiB or 16 KiB of
// straight-line code (independent multiply-adds) run right after 512 MiB were written (its
// code out of L2), then again.
#include <chrono>
#include <thread>

#include "calib.cuh"

namespace calib {

namespace {

__global__ void empty_coop() {}

template <int kInstr>
__global__ void straight_line(uint32_t seed, uint64_t* ns_out, uint32_t* sink) {
  uint32_t x[8];
#pragma unroll
  for (int c = 0; c < 8; ++c) x[c] = seed + c;
  const uint32_t a = seed | 1u, b = seed >> 3;
  const uint64_t t0 = globaltimer_ns();
#pragma unroll
  for (int j = 0; j < kInstr / 8; ++j) {
#pragma unroll
    for (int c = 0; c < 8; ++c) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x[c]) : "r"(a), "r"(b));
  }
  const uint64_t t1 = globaltimer_ns();
  if (threadIdx.x == 0) ns_out[0] = t1 - t0;
  uint32_t all = 0;
#pragma unroll
  for (int c = 0; c < 8; ++c) all ^= x[c];
  if (all == 0x9e3779b9u) *sink = all;
}

double coop_launch_us(EventTimer& timer, unsigned blocks) {
  timer.start();
  void* args[] = {nullptr};
  CALIB_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(empty_coop), dim3(blocks), dim3(128), args, 0, nullptr));
  return timer.stop_ms() * 1000.0;
}

void spin_host_ms(int ms) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < end) {
  }
}

template <int kInstr>
double straight_ns(uint64_t* ns_out, uint32_t* sink) {
  straight_line<kInstr><<<1, 32>>>(7, ns_out, sink);
  CALIB_CHECK(cudaGetLastError());
  CALIB_CHECK(cudaDeviceSynchronize());
  uint64_t ns = 0;
  CALIB_CHECK(cudaMemcpy(&ns, ns_out, sizeof ns, cudaMemcpyDeviceToHost));
  return static_cast<double>(ns);
}

}  // namespace

void bench_cold_launch() {
  EventTimer timer;
  // ---- (1) launch contexts ----
  const size_t in_bytes = size_t(1) << 20;
  std::vector<uint8_t> host(in_bytes, 1);
  for (unsigned blocks : {4u, 16u}) {
    std::vector<double> fresh, spun, slept, warm;
    for (int rep = 0; rep < 8; ++rep) {
      // As a scenario's host program: fresh buffers, inputs copied and zeroed, then the launch.
      void *in = nullptr, *out = nullptr;
      CALIB_CHECK(cudaMalloc(&in, in_bytes));
      CALIB_CHECK(cudaMalloc(&out, 4096));
      CALIB_CHECK(cudaMemcpy(in, host.data(), in_bytes, cudaMemcpyHostToDevice));
      CALIB_CHECK(cudaMemset(out, 0, 4096));
      const double f = coop_launch_us(timer, blocks);
      CALIB_CHECK(cudaDeviceSynchronize());
      CALIB_CHECK(cudaFree(in));
      CALIB_CHECK(cudaFree(out));
      spin_host_ms(30);
      const double s = coop_launch_us(timer, blocks);
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      const double sl = coop_launch_us(timer, blocks);
      const double w = coop_launch_us(timer, blocks);  // right after the last: the warm figure
      if (rep > 0) fresh.push_back(f), spun.push_back(s), slept.push_back(sl), warm.push_back(w);
    }
    const std::string shape = std::to_string(blocks) + " CTAs of 128 threads";
    const std::string how = "start event, cudaLaunchCooperativeKernel of an empty kernel, stop event, waited for (median of 7 after a warm-up)";
    add_row({"cold.launch_event_us.after_host_setup.b" + std::to_string(blocks),
             "events around a cooperative launch (" + shape + ") right after cudaMalloc, a blocking 1 MiB cudaMemcpy H2D and a cudaMemset (a scenario host program's order)",
             median(fresh), "us", how});
    add_row({"cold.launch_event_us.after_host_spin_30ms.b" + std::to_string(blocks),
             "events around a cooperative launch (" + shape + ") after the host spun 30 ms, GPU idle", median(spun), "us", how});
    add_row({"cold.launch_event_us.after_host_sleep_30ms.b" + std::to_string(blocks),
             "events around a cooperative launch (" + shape + ") after the host slept 30 ms, GPU idle", median(slept), "us", how});
    add_row({"cold.launch_event_us.back_to_back.b" + std::to_string(blocks),
             "events around a cooperative launch (" + shape + ") right after the last one was waited for", median(warm), "us", how});
  }

  // ---- (2) instruction fetch ----
  uint64_t* ns_out = nullptr;
  uint32_t* sink = nullptr;
  uint8_t* flush = nullptr;
  const size_t flush_bytes = size_t(512) << 20;
  CALIB_CHECK(cudaMalloc(&ns_out, 64));
  CALIB_CHECK(cudaMalloc(&sink, 64));
  CALIB_CHECK(cudaMalloc(&flush, flush_bytes));
  struct Size {
    const char* id;
    double (*run)(uint64_t*, uint32_t*);
    int instr;
  };
  const Size sizes[] = {{"4k_instr", straight_ns<4096>, 4096}, {"1k_instr", straight_ns<1024>, 1024}};
  for (const Size& s : sizes) {
    std::vector<double> cold, warm;
    for (int rep = 0; rep < 6; ++rep) {
      CALIB_CHECK(cudaMemset(flush, rep, flush_bytes));
      const double c = s.run(ns_out, sink);
      const double w = s.run(ns_out, sink);
      if (rep > 0) cold.push_back(c), warm.push_back(w);
    }
    const std::string how = "one warp, globaltimer around " + std::to_string(s.instr) +
                            " straight-line independent mad.lo.u32 (16 B of SASS each); cold: right after a 512 MiB cudaMemset (median of 5 after a warm-up)";
    add_row({std::string("cold.icache.") + s.id + ".cold_ns", "straight-line code run first after 512 MiB were written", median(cold), "ns", how});
    add_row({std::string("cold.icache.") + s.id + ".warm_ns", "the same code run again right after", median(warm), "ns", how});
  }
  CALIB_CHECK(cudaFree(ns_out));
  CALIB_CHECK(cudaFree(sink));
  CALIB_CHECK(cudaFree(flush));
}

}  // namespace calib

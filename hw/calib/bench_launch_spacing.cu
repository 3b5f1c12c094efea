// Back-to-back launches while the GPU is busy: the gap on the GPU between the end of one
// kernel and the start of the next one queued behind it (globaltimer stamps taken by the
// kernels themselves), for one CTA, a full grid and a cooperative grid, and the host's cost of
// one launch when the queue is not empty. bench_launch.cu has the idle-stream figures.
#include <chrono>

#include "calib.cuh"

namespace calib {

namespace {

constexpr int kLaunches = 200;
constexpr uint64_t kSpinNs = 20000;  // longer than the host's launch cost: the queue never runs dry

// stamps[2i]: the first CTA's start, stamps[2i+1]: the last CTA's end.
__global__ void stamp_spin(unsigned long long* stamps, int i, uint64_t spin_ns) {
  __shared__ uint64_t start;
  if (threadIdx.x == 0) {
    start = globaltimer_ns();
    atomicMin(&stamps[2 * i], static_cast<unsigned long long>(start));
  }
  __syncthreads();
  if (threadIdx.x == 0)
    while (globaltimer_ns() - start < spin_ns) {
    }
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicMax(&stamps[2 * i + 1], static_cast<unsigned long long>(globaltimer_ns()));
  }
}

__global__ void init_stamps(unsigned long long* stamps, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) stamps[2 * i] = ~0ull, stamps[2 * i + 1] = 0;
}

}  // namespace

void bench_launch_spacing() {
  cudaStream_t s;
  CALIB_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  unsigned long long* stamps = nullptr;
  CALIB_CHECK(cudaMalloc(&stamps, 2 * kLaunches * sizeof(unsigned long long)));
  const unsigned sms = static_cast<unsigned>(sm_count());
  struct Case {
    const char* id;
    const char* what;
    unsigned blocks, threads;
    bool cooperative;
  };
  const Case cases[] = {{"one_cta", "1 CTA of 32 threads", 1, 32, false},
                        {"full_grid", "one 128-thread CTA per SM", sms, 128, false},
                        {"full_grid_1024", "one 1024-thread CTA per SM", sms, 1024, false},
                        {"cooperative", "cooperative, one 128-thread CTA per SM", sms, 128, true}};
  for (const Case& c : cases) {
    std::vector<double> gaps, host_us;
    for (int rep = 0; rep < 2; ++rep) {  // the first fills caches and loads the module
      init_stamps<<<1, 256, 0, s>>>(stamps, kLaunches);
      CALIB_CHECK(cudaGetLastError());
      CALIB_CHECK(cudaStreamSynchronize(s));
      gaps.clear();
      host_us.clear();
      for (int i = 0; i < kLaunches; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        if (c.cooperative) {
          int idx = i;
          uint64_t spin = kSpinNs;
          void* args[] = {&stamps, &idx, &spin};
          CALIB_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(stamp_spin), dim3(c.blocks), dim3(c.threads), args, 0, s));
        } else {
          stamp_spin<<<c.blocks, c.threads, 0, s>>>(stamps, i, kSpinNs);
        }
        host_us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
      }
      CALIB_CHECK(cudaGetLastError());
      CALIB_CHECK(cudaStreamSynchronize(s));
      std::vector<unsigned long long> h(2 * kLaunches);
      CALIB_CHECK(cudaMemcpy(h.data(), stamps, h.size() * sizeof(h[0]), cudaMemcpyDeviceToHost));
      for (int i = 1 + 10; i < kLaunches; ++i) gaps.push_back((static_cast<double>(h[2 * i]) - static_cast<double>(h[2 * i - 1])) / 1000.0);
    }
    host_us.erase(host_us.begin(), host_us.begin() + 10);
    std::sort(gaps.begin(), gaps.end());  // globaltimer ticks coarsely: a trimmed mean, not the median
    const size_t cut = gaps.size() / 10;
    double sum = 0;
    for (size_t i = cut; i < gaps.size() - cut; ++i) sum += gaps[i];
    add_row({std::string("launch.gpu_gap.") + c.id + "_us", std::string("GPU gap from one kernel's last CTA end to the next's first CTA start, queued back to back, ") + c.what,
             sum / static_cast<double>(gaps.size() - 2 * cut), "us",
             std::to_string(kLaunches) + " launches of a 20 us kernel in one stream, globaltimer stamps in the kernels; mean of the gaps after the 10th without the top and bottom 10% (second pass); median " +
                 num(median(gaps))});
    add_row({std::string("launch.host_enqueue_busy.") + c.id + "_us", std::string("host time of one launch while the stream is busy, ") + c.what,
             median(host_us), "us", "wall clock around each launch call, median after the 10th (second pass)"});
  }
  CALIB_CHECK(cudaFree(stamps));
  CALIB_CHECK(cudaStreamDestroy(s));
}

}  // namespace calib

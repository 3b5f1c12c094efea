// Flag latency between SMs: thread 0 of CTA 0 and of CTA k ping-pong on two flags (each in
// its own 128 B line), at each ordering flavour; one-way latency = round trip / 2. One CTA per
// SM (large dynamic shared memory), so the two are on different SMs (their %smid recorded).
#include "calib.cuh"

namespace calib {

namespace {

constexpr int kIters = 20000;
constexpr size_t kSmemPerCta = 120 * 1024;

template <int kFlavour, bool kOwnAtomic>
__global__ void flag_pair(int* flags, int partner, int iters, uint64_t* elapsed_ns, uint32_t* sms) {
  extern __shared__ uint8_t smem[];
  (void)smem;
  const int b = static_cast<int>(blockIdx.x);
  if (threadIdx.x != 0 || (b != 0 && b != partner)) return;
  sms[b == 0 ? 0 : 1] = smid();
  int* a_flag = flags;        // polled by CTA 0
  int* b_flag = flags + 32;   // polled by the partner
  if (b == 0) ping_pong<kFlavour, kOwnAtomic>(a_flag, b_flag, iters, true, elapsed_ns);
  else ping_pong<kFlavour, kOwnAtomic>(b_flag, a_flag, iters, false, elapsed_ns);
}

template <int kFlavour, bool kOwnAtomic = false>
void measure(int* flags, uint64_t* elapsed, uint32_t* sms, const char* what) {
  const int n = sm_count();
  CALIB_CHECK(cudaFuncSetAttribute(flag_pair<kFlavour, kOwnAtomic>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(kSmemPerCta)));
  std::vector<double> one_way;
  std::string pairs;
  for (int partner : {1, n / 2, n - 1}) {
    CALIB_CHECK(cudaMemset(flags, 0, 64 * sizeof(int)));
    flag_pair<kFlavour, kOwnAtomic><<<n, 32, kSmemPerCta>>>(flags, partner, kIters, elapsed, sms);
    CALIB_CHECK(cudaGetLastError());
    CALIB_CHECK(cudaDeviceSynchronize());
    uint64_t ns = 0;
    uint32_t s[2];
    CALIB_CHECK(cudaMemcpy(&ns, elapsed, sizeof(ns), cudaMemcpyDeviceToHost));
    CALIB_CHECK(cudaMemcpy(s, sms, sizeof(s), cudaMemcpyDeviceToHost));
    one_way.push_back(static_cast<double>(ns) / kIters / 2);
    pairs += (pairs.empty() ? "" : ",") + std::to_string(s[0]) + "-" + std::to_string(s[1]);
  }
  const std::string id = std::string("flag.") + flavour_name(kFlavour) + (kOwnAtomic ? ".own_atomic" : "");
  const std::string method = std::to_string(kIters) + " round trips / 2, SM pairs " + pairs;
  add_row({id + ".one_way_ns", what, median(one_way), "ns", method + " (median of 3 pairs)"});
  add_row({id + ".one_way_max_ns", std::string(what) + " (farthest pair)", *std::max_element(one_way.begin(), one_way.end()), "ns", method});
}

}  // namespace

void bench_flags() {
  int* flags = nullptr;
  uint64_t* elapsed = nullptr;
  uint32_t* sms = nullptr;
  CALIB_CHECK(cudaMalloc(&flags, 64 * sizeof(int)));
  CALIB_CHECK(cudaMalloc(&elapsed, sizeof(uint64_t)));
  CALIB_CHECK(cudaMalloc(&sms, 2 * sizeof(uint32_t)));
  measure<0>(flags, elapsed, sms, "flag SM->SM, st/ld.relaxed.sys");
  measure<1>(flags, elapsed, sms, "flag SM->SM, st.release.sys / ld.acquire.sys");
  measure<2>(flags, elapsed, sms, "flag SM->SM, st/ld.relaxed.gpu");
  measure<3>(flags, elapsed, sms, "flag SM->SM, st.release.gpu / ld.acquire.gpu");
  measure<4>(flags, elapsed, sms, "flag SM->SM, st/ld.volatile");
  measure<2, true>(flags, elapsed, sms, "flag SM->SM, st/ld.relaxed.gpu, the poller's atom.add 0 on its flag first");
  measure<3, true>(flags, elapsed, sms, "flag SM->SM, st.release.gpu / ld.acquire.gpu, the poller's atom.add 0 on its flag first");
  measure<1, true>(flags, elapsed, sms, "flag SM->SM, st.release.sys / ld.acquire.sys, the poller's atom.add 0 on its flag first");
  CALIB_CHECK(cudaFree(flags));
  CALIB_CHECK(cudaFree(elapsed));
  CALIB_CHECK(cudaFree(sms));
}

}  // namespace calib

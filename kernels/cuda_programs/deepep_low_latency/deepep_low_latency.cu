// Host driver for DeepEP's low-latency kernels (csrc/kernels/internode_ll.cu with its own
// ibgda_device.cuh, fetched unmodified by tools/deepep-upstream.sh; none of DeepEP's code is in
// this repository). Each simulated GPU runs this main as one rank, as DeepEP's Buffer does in
// low-latency mode: NVSHMEM set up with one RC QP per local expert and peer, the low-latency
// buffer in the NVSHMEM heap, then two rounds of clean_low_latency_buffer, dispatch and combine
// through DeepEP's own host functions. Peers in another NVLink domain are reached through the
// NIC model (GPU-written mlx5 WQEs, doorbells, CQs); peers in the same domain over NVLink
// unless P2P is off (NVSHMEM_DISABLE_P2P, as DeepEP's allow_nvlink_for_low_latency_mode=False).
//   round 1: NVSHMEM's barrier in clean_low_latency_buffer, dispatch and combine in one launch each
//   round 2: shrink mode (DeepEP's own barrier over a sync buffer, a mask buffer), dispatch and
//            combine split into send and receive launches (DeepEP's return_recv_hook)
// Every received byte is checked against deepep_ll_reference.h.
//   deepep_low_latency RANK RANKS [TOKENS [HIDDEN [LOCAL_EXPERTS [TOPK [SMS [NVLINK]]]]]]
#include <cuda_runtime.h>
#include <nvshmem.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "api.cuh"
#include "deepep_ll_reference.h"

#define CHECK(call)                                                                               \
  do {                                                                                            \
    cudaError_t e_ = (call);                                                                      \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      return 1;                                                                                   \
    }                                                                                             \
  } while (0)

namespace {

template <typename T>
T* device_copy(const std::vector<T>& host) {
  T* p = nullptr;
  if (cudaMalloc(&p, host.size() * sizeof(T) + 16) != cudaSuccess) return nullptr;
  if (!host.empty()) cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return p;
}
template <typename T>
std::vector<T> host_copy(const T* p, size_t n) {
  std::vector<T> v(n);
  if (n) cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost);
  return v;
}
size_t differing(const void* a, const void* b, size_t bytes) {
  size_t n = 0;
  for (size_t i = 0; i < bytes; ++i) n += static_cast<const uint8_t*>(a)[i] != static_cast<const uint8_t*>(b)[i];
  return n;
}

struct Tally {
  size_t checked = 0, differ = 0, count_errors = 0, received = 0;
};

// What dispatch left on this rank: per local expert, each source rank's range of rows, the
// source token index of every row, and the row's bytes.
void check_dispatch(const deepep_ll_ref::Problem& p, const std::vector<deepep_ll_ref::Inputs>& all,
                    const std::vector<uint16_t>& recv_x, const std::vector<int>& src_info, const std::vector<int64_t>& range,
                    const std::vector<int>& count, Tally& tally) {
  const size_t rows = static_cast<size_t>(p.ranks) * p.tokens, H = static_cast<size_t>(p.hidden);
  for (int le = 0; le < p.local_experts; ++le) {
    int total = 0;
    for (int s = 0; s < p.ranks; ++s) {
      const std::vector<int> want = deepep_ll_ref::tokens_for(p, all[s], p.rank * p.local_experts + le);
      const int64_t packed = range[static_cast<size_t>(le) * p.ranks + s];
      const int num = static_cast<int>(packed & 0xffffffff), begin = static_cast<int>(packed >> 32);
      total += num;
      if (num != static_cast<int>(want.size()) || begin < 0 || static_cast<size_t>(begin) + want.size() > rows) {
        ++tally.count_errors;
        continue;
      }
      std::vector<int> got(src_info.begin() + static_cast<ptrdiff_t>(le * rows + begin),
                           src_info.begin() + static_cast<ptrdiff_t>(le * rows + begin + num));
      std::vector<int> sorted = got;
      std::sort(sorted.begin(), sorted.end());
      tally.checked += sizeof(int) * got.size();
      tally.differ += differing(sorted.data(), want.data(), sizeof(int) * want.size());
      for (int i = 0; i < num; ++i) {
        const int t = got[i];
        tally.checked += H * 2;
        if (t < 0 || t >= p.tokens) {
          tally.differ += H * 2;
          continue;
        }
        tally.differ += differing(&recv_x[(le * rows + begin + i) * H], &all[s].x[t * H], H * 2);
      }
      tally.received += want.size();
    }
    tally.count_errors += count[le] != total;
  }
}

}  // namespace

static_assert(sizeof(deep_ep::topk_idx_t) == sizeof(int64_t), "the reference keeps 64-bit top-k indices");

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s RANK RANKS [TOKENS [HIDDEN [LOCAL_EXPERTS [TOPK [SMS [NVLINK]]]]]]\n", argv[0]);
    return 2;
  }
  deepep_ll_ref::Problem p;
  p.rank = std::atoi(argv[1]);
  p.ranks = std::atoi(argv[2]);
  p.tokens = argc > 3 ? std::atoi(argv[3]) : 16;
  p.hidden = argc > 4 ? std::atoi(argv[4]) : 2048;
  p.local_experts = argc > 5 ? std::atoi(argv[5]) : 4;
  p.topk = argc > 6 ? std::atoi(argv[6]) : 4;
  const int num_sms = argc > 7 ? std::atoi(argv[7]) : 8;
  const bool nvlink = argc > 8 && std::atoi(argv[8]) != 0;
  const int R = p.ranks, T = p.tokens, H = p.hidden, K = p.topk, LE = p.local_experts, E = p.experts();
  const std::vector<int> hiddens = {2048, 2560, 3072, 4096, 5120, 6144, 7168, 8192};  // DeepEP's SWITCH_HIDDEN
  if (std::find(hiddens.begin(), hiddens.end(), H) == hiddens.end())
    return std::fprintf(stderr, "HIDDEN must be one DeepEP's low-latency kernels are built for (2048 ... 8192)\n"), 2;
  if (R < 2 || T < 1 || K < 1 || K > 11 || K > E || LE < 1 || num_sms < 2)
    return std::fprintf(stderr, "want RANKS >= 2, TOKENS >= 1, 1 <= TOPK <= min(11, experts), SMS >= 2\n"), 2;

  // NVSHMEM as DeepEP's Buffer sets it up for low-latency mode: a QP per local expert and peer.
  setenv("NVSHMEM_IBGDA_NUM_RC_PER_PE", std::to_string(LE).c_str(), 1);
  setenv("NVSHMEM_DISABLE_P2P", nvlink ? "0" : "1", 1);
  if (nvshmem_init() != 0) return 1;
  if (nvshmem_my_pe() != p.rank || nvshmem_n_pes() != R)
    return std::fprintf(stderr, "rank %d of %d, NVSHMEM says PE %d of %d\n", p.rank, R, nvshmem_my_pe(), nvshmem_n_pes()), 1;

  const deepep_ll_ref::Layout lay(p);
  auto* rdma = static_cast<uint8_t*>(nvshmem_align(128, lay.total_bytes));
  auto* mask = static_cast<int*>(nvshmem_align(128, sizeof(int) * R));
  auto* sync = static_cast<int*>(nvshmem_align(128, sizeof(int) * R));
  CHECK(cudaMemset(rdma, 0, lay.total_bytes));
  CHECK(cudaMemset(mask, 0, sizeof(int) * R));
  CHECK(cudaMemset(sync, 0, sizeof(int) * R));
  nvshmem_barrier_all();

  std::vector<deepep_ll_ref::Inputs> all;
  for (int s = 0; s < R; ++s) all.push_back(deepep_ll_ref::make_inputs(p, s));
  const deepep_ll_ref::Inputs& in = all[p.rank];
  uint16_t* x = device_copy(in.x);
  deep_ep::topk_idx_t* topk_idx = device_copy(in.topk_idx);
  float* topk_weights = device_copy(in.topk_weights);
  // DeepEP's workspace: two counters per expert for dispatch, one flag for combine.
  int* workspace = nullptr;
  CHECK(cudaMalloc(&workspace, sizeof(int) * 2 * E));
  CHECK(cudaMemset(workspace, 0, sizeof(int) * 2 * E));

  const size_t rows = static_cast<size_t>(R) * T;
  uint16_t* recv_x = nullptr;
  int *recv_src_info = nullptr, *recv_count = nullptr, *recv_stats = nullptr;
  int64_t* recv_range = nullptr;
  uint16_t* combined_x = nullptr;
  CHECK(cudaMalloc(&recv_x, LE * rows * H * 2));
  CHECK(cudaMalloc(&recv_src_info, LE * rows * sizeof(int)));
  CHECK(cudaMalloc(&recv_range, LE * R * sizeof(int64_t)));
  CHECK(cudaMalloc(&recv_count, LE * sizeof(int)));
  CHECK(cudaMalloc(&recv_stats, LE * sizeof(int)));
  CHECK(cudaMemset(recv_stats, 0, LE * sizeof(int)));
  CHECK(cudaMalloc(&combined_x, static_cast<size_t>(T) * H * 2));

  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaEvent_t ev[5];
  for (auto& e : ev) CHECK(cudaEventCreate(&e));
  auto* sig0 = reinterpret_cast<int*>(lay.signals(rdma, 0));
  auto* sig1 = reinterpret_cast<int*>(lay.signals(rdma, 1));
  const std::vector<uint16_t> want_combined = deepep_ll_ref::combined(p, in);
  Tally tally;
  float us[2][2] = {};

  for (int round = 0; round < 2; ++round) {
    const bool shrink = round == 1;  // mask and sync buffers, recv hooks
    int* mask_ptr = shrink ? mask : nullptr;
    CHECK(cudaMemset(recv_x, 0xff, LE * rows * H * 2));
    CHECK(cudaMemset(recv_src_info, 0xff, LE * rows * sizeof(int)));
    CHECK(cudaMemset(recv_range, 0xff, LE * R * sizeof(int64_t)));
    CHECK(cudaMemset(combined_x, 0xff, static_cast<size_t>(T) * H * 2));
    deep_ep::internode_ll::clean_low_latency_buffer(sig0, lay.num_clean_int, sig1, lay.num_clean_int, p.rank, R, mask_ptr,
                                                    shrink ? sync : nullptr, stream);
    auto dispatch = [&](int phases) {
      deep_ep::internode_ll::dispatch(recv_x, nullptr, recv_src_info, recv_range, recv_count, mask_ptr,
                                      shrink ? recv_stats : nullptr, nullptr, lay.recv(rdma, 0), sig0, lay.send(rdma, 0), x,
                                      topk_idx, sig1, lay.num_clean_int, T, H, T, K, E, p.rank, R, false, false, false,
                                      workspace, num_sms, stream, phases);
    };
    auto combine = [&](int phases) {
      deep_ep::internode_ll::combine(combined_x, lay.recv(rdma, 1), sig1, lay.send(rdma, 1), recv_x, topk_idx, topk_weights,
                                     recv_src_info, recv_range, mask_ptr, nullptr, sig0, lay.num_clean_int, T, H, T, K, E,
                                     p.rank, R, false, workspace, num_sms, stream, phases, false);
    };
    const int both = LOW_LATENCY_SEND_PHASE | LOW_LATENCY_RECV_PHASE;
    CHECK(cudaEventRecord(ev[0], stream));
    if (shrink) {
      dispatch(LOW_LATENCY_SEND_PHASE);
      dispatch(LOW_LATENCY_RECV_PHASE);
    } else {
      dispatch(both);
    }
    CHECK(cudaEventRecord(ev[1], stream));
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaGetLastError());
    check_dispatch(p, all, host_copy(recv_x, LE * rows * H), host_copy(recv_src_info, LE * rows), host_copy(recv_range, LE * R),
                   host_copy(recv_count, LE), tally);
    CHECK(cudaEventRecord(ev[2], stream));
    if (shrink) {
      combine(LOW_LATENCY_SEND_PHASE);
      combine(LOW_LATENCY_RECV_PHASE);
    } else {
      combine(both);
    }
    CHECK(cudaEventRecord(ev[3], stream));
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaGetLastError());
    const std::vector<uint16_t> got = host_copy(combined_x, static_cast<size_t>(T) * H);
    tally.checked += got.size() * 2;
    tally.differ += differing(got.data(), want_combined.data(), got.size() * 2);
    CHECK(cudaEventElapsedTime(&us[round][0], ev[0], ev[1]));
    CHECK(cudaEventElapsedTime(&us[round][1], ev[2], ev[3]));
  }
  // Shrink mode's statistics: what each local expert received in round 2.
  const std::vector<int> stats = host_copy(recv_stats, LE);
  for (int le = 0; le < LE; ++le) {
    size_t n = 0;
    for (int s = 0; s < R; ++s) n += deepep_ll_ref::tokens_for(p, all[s], p.rank * LE + le).size();
    tally.count_errors += stats[le] != static_cast<int>(n);
  }
  nvshmem_barrier_all();
  std::printf("deepep_ll rank %d/%d: dispatch %.3f us, combine %.3f us; recv-hook round: dispatch %.3f us, combine %.3f us; "
              "received %zu tokens; %zu B checked, %zu differ, %zu count errors\n",
              p.rank, R, us[0][0] * 1000.0f, us[0][1] * 1000.0f, us[1][0] * 1000.0f, us[1][1] * 1000.0f, tally.received / 2,
              tally.checked, tally.differ, tally.count_errors);
  return tally.differ == 0 && tally.count_errors == 0 && tally.received > 0 ? 0 : 1;
}

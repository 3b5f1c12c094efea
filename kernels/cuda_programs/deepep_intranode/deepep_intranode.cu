// Host driver for DeepEP's intranode kernels (csrc/kernels/intranode.cu, fetched unmodified by
// tools/deepep-upstream.sh; none of DeepEP's code is in this repository). Each simulated GPU
// runs this main as one rank of an 8-GPU NVLink node, as DeepEP's Buffer does per process:
// notify_dispatch, dispatch, the same dispatch again in cached mode (cached_notify_dispatch),
// then cached_notify_combine and combine, all through DeepEP's own host functions; every byte
// received is checked against a reference computed here from the same deterministic inputs.
//   deepep_intranode RANK RANKS [TOKENS [HIDDEN [SMS [SEND_CHUNK [RECV_SLOTS]]]]]
// The NVL buffer comes from the symmetric heap (the same offset on every GPU), standing for
// DeepEP's cudaIpcGetMemHandle / cudaIpcOpenMemHandle exchange.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "api.cuh"
#include "deepep_reference.h"
#include "symsim/cuda/runtime.h"

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
template <typename T>
size_t differing_bytes(const std::vector<T>& got, const std::vector<T>& want) {
  const auto* a = reinterpret_cast<const uint8_t*>(got.data());
  const auto* b = reinterpret_cast<const uint8_t*>(want.data());
  size_t n = 0;
  for (size_t i = 0; i < want.size() * sizeof(T); ++i) n += a[i] != b[i];
  return n + (got.size() > want.size() ? got.size() - want.size() : want.size() - got.size()) * sizeof(T);
}

}  // namespace

static_assert(sizeof(deep_ep::topk_idx_t) == sizeof(int64_t), "the reference keeps 64-bit top-k indices");

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s RANK RANKS [TOKENS [HIDDEN [SMS [SEND_CHUNK [RECV_SLOTS]]]]]\n", argv[0]);
    return 2;
  }
  deepep_ref::Problem p;
  p.rank = std::atoi(argv[1]);
  p.ranks = std::atoi(argv[2]);
  p.tokens = argc > 3 ? std::atoi(argv[3]) : 64;
  p.hidden = argc > 4 ? std::atoi(argv[4]) : 1024;
  const int num_sms = argc > 5 ? std::atoi(argv[5]) : 4;
  const int send_chunk = argc > 6 ? std::atoi(argv[6]) : 6;
  const int recv_slots = argc > 7 ? std::atoi(argv[7]) : 32;
  const int channels = num_sms / 2;
  if (p.ranks != 2 && p.ranks != 4 && p.ranks != 8) return std::fprintf(stderr, "RANKS must be 2, 4 or 8\n"), 2;
  if (p.hidden % 16 != 0 || num_sms % 2 != 0 || send_chunk < 1 || recv_slots < send_chunk)
    return std::fprintf(stderr, "HIDDEN must be a multiple of 16, SMS even, RECV_SLOTS >= SEND_CHUNK >= 1\n"), 2;
  const int R = p.ranks, T = p.tokens, H = p.hidden, K = p.topk, E = p.experts();
  const int local_experts = E / R;

  // This rank's inputs and its layout (what DeepEP's get_dispatch_layout computes).
  const deepep_ref::Inputs in = deepep_ref::make_inputs(p, p.rank);
  const deepep_ref::Layout lay = deepep_ref::layout(p, in);

  // NVL buffer, barrier signals and the pointer tables, laid out as DeepEP's Buffer does.
  const size_t hidden_bytes = static_cast<size_t>(H) * sizeof(uint16_t);
  const size_t nvl_bytes = deepep_ref::nvl_buffer_bytes(channels, R, recv_slots, hidden_bytes, K);
  const size_t signal_bytes = sizeof(int) * NUM_MAX_NVL_PEERS;
  auto* base = static_cast<uint8_t*>(symsim::cuda::sym_malloc(nvl_bytes + signal_bytes, 128));
  CHECK(cudaMemset(base, 0, nvl_bytes + signal_bytes));
  std::vector<void*> buffer_ptrs(NUM_MAX_NVL_PEERS, nullptr);
  std::vector<int*> signal_ptrs(NUM_MAX_NVL_PEERS, nullptr);
  for (int r = 0; r < R; ++r) {
    uint8_t* peer = base + (static_cast<int64_t>(r) - p.rank) * static_cast<int64_t>(symsim::cuda::sym_heap_stride());
    buffer_ptrs[r] = peer;
    signal_ptrs[r] = reinterpret_cast<int*>(peer + nvl_bytes);
  }
  void** buffer_ptrs_gpu = device_copy(buffer_ptrs);
  int** signal_ptrs_gpu = device_copy(signal_ptrs);
  symsim::cuda::host_barrier();  // every rank's buffer is zero before anyone signals into it

  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaEvent_t ev[8];  // around notify_dispatch, dispatch, combine (with cached_notify_combine), cached dispatch
  for (auto& e : ev) CHECK(cudaEventCreate(&e));

  // notify_dispatch: counts to every rank, prefix matrices back.
  int* num_tokens_per_rank = device_copy(lay.tokens_per_rank);
  int* num_tokens_per_expert = device_copy(lay.tokens_per_expert);
  bool* is_token_in_rank = reinterpret_cast<bool*>(device_copy(lay.is_token_in_rank));
  int *recv_counter = nullptr, *recv_expert_counter = nullptr;
  CHECK(cudaHostAlloc(&recv_counter, sizeof(int), cudaHostAllocMapped));
  CHECK(cudaHostAlloc(&recv_expert_counter, sizeof(int) * NUM_MAX_LOCAL_EXPERTS, cudaHostAllocMapped));
  *recv_counter = -1;
  for (int i = 0; i < local_experts; ++i) recv_expert_counter[i] = -1;
  int *channel_prefix = nullptr, *rank_prefix = nullptr;
  CHECK(cudaMalloc(&channel_prefix, sizeof(int) * R * channels));
  CHECK(cudaMalloc(&rank_prefix, sizeof(int) * R * R));
  CHECK(cudaEventRecord(ev[0], stream));
  deep_ep::intranode::notify_dispatch(num_tokens_per_rank, recv_counter, R, num_tokens_per_expert, recv_expert_counter, E,
                                      T, is_token_in_rank, channel_prefix, rank_prefix, channels * R * 4, 1,
                                      buffer_ptrs_gpu, signal_ptrs_gpu, p.rank, stream, channels);
  CHECK(cudaEventRecord(ev[1], stream));
  CHECK(cudaStreamSynchronize(stream));
  const deepep_ref::Received want = deepep_ref::received(p, p.rank);
  const int num_recv = *recv_counter;
  size_t count_errors = num_recv != static_cast<int>(want.src_idx.size());
  for (int i = 0; i < local_experts; ++i) count_errors += recv_expert_counter[i] != want.tokens_per_local_expert[i];

  // dispatch: tokens, source indices, top-k indices (made local) and weights to their ranks.
  std::vector<uint16_t> x = in.x;
  uint16_t* x_gpu = device_copy(x);
  deep_ep::topk_idx_t* topk_idx = device_copy(in.topk_idx);
  float* topk_weights = device_copy(in.topk_weights);
  const size_t n_recv = num_recv > 0 ? static_cast<size_t>(num_recv) : 0;
  uint16_t* recv_x = nullptr;
  int *recv_src_idx = nullptr, *recv_channel_prefix = nullptr, *send_head = nullptr;
  deep_ep::topk_idx_t* recv_topk_idx = nullptr;
  float* recv_topk_weights = nullptr;
  CHECK(cudaMalloc(&recv_x, n_recv * hidden_bytes + 16));
  CHECK(cudaMalloc(&recv_src_idx, n_recv * sizeof(int) + 16));
  CHECK(cudaMalloc(&recv_topk_idx, n_recv * K * sizeof(deep_ep::topk_idx_t) + 16));
  CHECK(cudaMalloc(&recv_topk_weights, n_recv * K * sizeof(float) + 16));
  CHECK(cudaMalloc(&recv_channel_prefix, sizeof(int) * R * channels));
  CHECK(cudaMalloc(&send_head, sizeof(int) * T * R));
  CHECK(cudaEventRecord(ev[2], stream));
  deep_ep::intranode::dispatch(recv_x, nullptr, recv_src_idx, recv_topk_idx, recv_topk_weights, recv_channel_prefix,
                               send_head, x_gpu, nullptr, topk_idx, topk_weights, is_token_in_rank, channel_prefix, T, 0,
                               static_cast<int>(hidden_bytes / 16), K, E, 0, 0, 0, buffer_ptrs_gpu, p.rank, R, stream,
                               num_sms, send_chunk, recv_slots);
  CHECK(cudaEventRecord(ev[3], stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaGetLastError());
  auto dispatch_errors = [&]() {
    return differing_bytes(host_copy(recv_x, n_recv * H), want.x) + differing_bytes(host_copy(recv_src_idx, n_recv), want.src_idx) +
           differing_bytes(host_copy(recv_topk_idx, n_recv * K), want.topk_idx) +
           differing_bytes(host_copy(recv_topk_weights, n_recv * K), want.topk_weights);
  };
  size_t dispatch_bytes = dispatch_errors();

  // The same dispatch in DeepEP's cached mode (the layout of the first one reused): received
  // buffers overwritten first, so every byte must come again.
  CHECK(cudaMemset(recv_x, 0xff, n_recv * hidden_bytes));
  CHECK(cudaMemset(recv_src_idx, 0xff, n_recv * sizeof(int)));
  CHECK(cudaMemset(recv_topk_idx, 0xff, n_recv * K * sizeof(deep_ep::topk_idx_t)));
  CHECK(cudaMemset(recv_topk_weights, 0xff, n_recv * K * sizeof(float)));
  CHECK(cudaEventRecord(ev[6], stream));
  deep_ep::intranode::cached_notify_dispatch(rank_prefix, channels * R * 4, buffer_ptrs_gpu, signal_ptrs_gpu, p.rank, R, stream);
  deep_ep::intranode::dispatch(recv_x, nullptr, recv_src_idx, recv_topk_idx, recv_topk_weights, recv_channel_prefix,
                               send_head, x_gpu, nullptr, topk_idx, topk_weights, is_token_in_rank, channel_prefix, T, 0,
                               static_cast<int>(hidden_bytes / 16), K, E, 0, 0, 0, buffer_ptrs_gpu, p.rank, R, stream,
                               num_sms, send_chunk, recv_slots);
  CHECK(cudaEventRecord(ev[7], stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaGetLastError());
  dispatch_bytes += dispatch_errors();

  // combine: every rank sends back what it received; each token's copies are summed.
  uint16_t* combined_x = nullptr;
  float* combined_weights = nullptr;
  CHECK(cudaMalloc(&combined_x, static_cast<size_t>(T) * hidden_bytes));
  CHECK(cudaMalloc(&combined_weights, sizeof(float) * T * K));
  CHECK(cudaEventRecord(ev[4], stream));
  deep_ep::intranode::cached_notify_combine(buffer_ptrs_gpu, send_head, channels, T, channels * R * 2, signal_ptrs_gpu,
                                            p.rank, R, stream);
  deep_ep::intranode::combine(CUDA_R_16BF, combined_x, combined_weights, recv_x, recv_topk_weights, nullptr, nullptr,
                              recv_src_idx, rank_prefix, recv_channel_prefix, send_head, num_recv, T, H, K,
                              buffer_ptrs_gpu, p.rank, R, stream, num_sms, send_chunk, recv_slots);
  CHECK(cudaEventRecord(ev[5], stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaGetLastError());
  const deepep_ref::Combined back = deepep_ref::combined(p, p.rank);
  const size_t combine_bytes = differing_bytes(host_copy(combined_x, static_cast<size_t>(T) * H), back.x) +
                               differing_bytes(host_copy(combined_weights, static_cast<size_t>(T) * K), back.topk_weights);

  float ms[4] = {};
  for (int i = 0; i < 4; ++i) CHECK(cudaEventElapsedTime(&ms[i], ev[2 * i], ev[2 * i + 1]));
  const size_t checked = 2 * n_recv * (hidden_bytes + sizeof(int) + K * (sizeof(deep_ep::topk_idx_t) + sizeof(float))) +
                         static_cast<size_t>(T) * (hidden_bytes + K * sizeof(float));
  std::printf("deepep rank %d/%d: notify_dispatch %.3f us, dispatch %.3f us, cached dispatch %.3f us, combine %.3f us; "
              "received %zu tokens; %zu B checked, %zu differ (dispatch %zu, combine %zu), %zu count errors\n",
              p.rank, R, ms[0] * 1000.0f, ms[1] * 1000.0f, ms[3] * 1000.0f, ms[2] * 1000.0f, n_recv, checked,
              dispatch_bytes + combine_bytes, dispatch_bytes, combine_bytes, count_errors);
  return dispatch_bytes == 0 && combine_bytes == 0 && count_errors == 0 ? 0 : 1;
}

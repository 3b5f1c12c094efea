// Deterministic inputs of the DeepEP low-latency driver and the host reference of what each
// rank must receive from dispatch and get back from combine (plain C++, no CUDA). Token values
// are multiples of 1/8 in [-4, 4) and top-k weights multiples of 1/4, so every product and sum
// combine forms in float is exact; only the final bf16 rounding (to nearest even) is applied.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace deepep_ll_ref {

struct Problem {
  int rank = 0, ranks = 4, tokens = 16, hidden = 2048, local_experts = 4, topk = 4;
  int experts() const { return ranks * local_experts; }
};

inline uint16_t bf16_rne(float f) {
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return static_cast<uint16_t>((w + 0x7fffu + ((w >> 16) & 1u)) >> 16);
}
inline float bf16_float(uint16_t b) {
  const uint32_t w = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

inline float token_value(int src, int t, int h) { return static_cast<float>((src * 131 + t * 17 + h * 7) % 64 - 32) / 8.0f; }

struct Inputs {
  std::vector<uint16_t> x;          // [tokens][hidden] bf16
  std::vector<int64_t> topk_idx;    // [tokens][topk] global expert, -1 = none
  std::vector<float> topk_weights;  // [tokens][topk]
};

// Each token picks `topk` distinct experts spread over the ranks; every fifth token leaves its
// last pick empty (-1), as a masked top-k entry.
inline Inputs make_inputs(const Problem& p, int src) {
  Inputs in;
  const int E = p.experts(), K = p.topk, step = std::max(1, E / K);
  in.x.resize(static_cast<size_t>(p.tokens) * p.hidden);
  in.topk_idx.resize(static_cast<size_t>(p.tokens) * K);
  in.topk_weights.resize(in.topk_idx.size());
  for (int t = 0; t < p.tokens; ++t) {
    for (int h = 0; h < p.hidden; ++h) in.x[static_cast<size_t>(t) * p.hidden + h] = bf16_rne(token_value(src, t, h));
    const int base = (src * 5 + t * 3) % E;
    for (int k = 0; k < K; ++k) {
      const bool none = k == K - 1 && t % 5 == 0;
      in.topk_idx[t * K + k] = none ? -1 : (base + k * step) % E;
      in.topk_weights[t * K + k] = static_cast<float>(k % 4 + 1) * 0.25f;
    }
  }
  return in;
}

// The tokens of rank `src` that chose global expert `e`, in token order.
inline std::vector<int> tokens_for(const Problem& p, const Inputs& in, int e) {
  std::vector<int> out;
  for (int t = 0; t < p.tokens; ++t)
    for (int k = 0; k < p.topk; ++k)
      if (in.topk_idx[t * p.topk + k] == e) {
        out.push_back(t);
        break;
      }
  return out;
}

// Rank `src`'s tokens after combine: each expert returns the token unchanged, so the sum over
// its top-k picks of weight x token, accumulated in top-k order in float, rounded to bf16.
inline std::vector<uint16_t> combined(const Problem& p, const Inputs& in) {
  std::vector<uint16_t> out(static_cast<size_t>(p.tokens) * p.hidden);
  for (int t = 0; t < p.tokens; ++t)
    for (int h = 0; h < p.hidden; ++h) {
      float acc = 0.0f;
      const float v = bf16_float(in.x[static_cast<size_t>(t) * p.hidden + h]);
      for (int k = 0; k < p.topk; ++k)
        if (in.topk_idx[t * p.topk + k] >= 0) acc += v * in.topk_weights[t * p.topk + k];
      out[static_cast<size_t>(t) * p.hidden + h] = bf16_rne(acc);
    }
  return out;
}

// DeepEP's low-latency buffer, laid out as its Buffer does for one rank: two signalling
// buffers (dispatch counts = combine flags), two send buffers, two receive buffers; round i
// uses set i % 2 and cleans the other set's signals for the next round.
struct Layout {
  size_t signal_bytes = 0, send_bytes = 0, recv_bytes = 0, total_bytes = 0;
  size_t dispatch_msg_bytes = 0, combine_msg_bytes = 0;
  int num_clean_int = 0;
  Layout(const Problem& p) {
    const size_t T = static_cast<size_t>(p.tokens), E = static_cast<size_t>(p.experts()), H = static_cast<size_t>(p.hidden);
    const size_t scales = H / 128;
    dispatch_msg_bytes = 16 + std::max(H * 2, H + scales * sizeof(float));
    combine_msg_bytes = scales * 4 + H * 2;
    send_bytes = std::max(T * dispatch_msg_bytes, E * T * combine_msg_bytes);
    recv_bytes = std::max(E * T * dispatch_msg_bytes, E * T * combine_msg_bytes);
    signal_bytes = (E * sizeof(int) + 127) / 128 * 128;
    num_clean_int = static_cast<int>(E);
    total_bytes = 2 * (signal_bytes + send_bytes + recv_bytes);
  }
  uint8_t* signals(uint8_t* base, int set) const { return base + signal_bytes * set; }
  uint8_t* send(uint8_t* base, int set) const { return base + 2 * signal_bytes + send_bytes * set; }
  uint8_t* recv(uint8_t* base, int set) const { return base + 2 * (signal_bytes + send_bytes) + recv_bytes * set; }
};

}  // namespace deepep_ll_ref

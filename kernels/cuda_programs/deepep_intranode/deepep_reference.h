// Deterministic inputs of the DeepEP intranode driver and the host reference of what every rank
// must receive from dispatch and get back from combine (plain C++, no CUDA). Token values are
// multiples of 1/8 small enough that bf16 holds them and their sums over 8 ranks exactly.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

namespace deepep_ref {

struct Problem {
  int rank = 0, ranks = 8, tokens = 64, hidden = 1024, topk = 4;
  int experts() const { return ranks * 4; }
  int local_experts() const { return 4; }
};

inline uint16_t bf16_bits(float f) {  // exact for the values used here
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return static_cast<uint16_t>(w >> 16);
}

struct Inputs {
  std::vector<uint16_t> x;         // [tokens][hidden] bf16
  std::vector<int64_t> topk_idx;   // [tokens][topk], -1 = none
  std::vector<float> topk_weights;  // [tokens][topk]
};

inline float token_value(int src, int t, int h) { return static_cast<float>((src * 131 + t * 17 + h * 7) % 64 - 32) / 8.0f; }

inline Inputs make_inputs(const Problem& p, int src) {
  Inputs in;
  const int E = p.experts(), K = p.topk;
  in.x.resize(static_cast<size_t>(p.tokens) * p.hidden);
  in.topk_idx.resize(static_cast<size_t>(p.tokens) * K);
  in.topk_weights.resize(in.topk_idx.size());
  for (int t = 0; t < p.tokens; ++t) {
    for (int h = 0; h < p.hidden; ++h) in.x[static_cast<size_t>(t) * p.hidden + h] = bf16_bits(token_value(src, t, h));
    const int base = (src * 5 + t * 3) % E;
    for (int k = 0; k < K; ++k) {
      const bool none = k == K - 1 && t % 5 == 0;
      in.topk_idx[t * K + k] = none ? -1 : (base + k * (E / K)) % E;
      in.topk_weights[t * K + k] = (k + 1) * 0.25f + static_cast<float>(src);
    }
  }
  return in;
}

inline bool token_in_rank(const Problem& p, const Inputs& in, int t, int dst) {
  for (int k = 0; k < p.topk; ++k) {
    const int64_t e = in.topk_idx[t * p.topk + k];
    if (e >= 0 && e / p.local_experts() == dst) return true;
  }
  return false;
}

struct Layout {  // what DeepEP's get_dispatch_layout gives
  std::vector<int> tokens_per_rank, tokens_per_expert;
  std::vector<uint8_t> is_token_in_rank;  // [tokens][ranks] bool
};

inline Layout layout(const Problem& p, const Inputs& in) {
  Layout l;
  l.tokens_per_rank.assign(p.ranks, 0);
  l.tokens_per_expert.assign(p.experts(), 0);
  l.is_token_in_rank.assign(static_cast<size_t>(p.tokens) * p.ranks, 0);
  for (int t = 0; t < p.tokens; ++t) {
    for (int d = 0; d < p.ranks; ++d) {
      const bool in_d = token_in_rank(p, in, t, d);
      l.is_token_in_rank[t * p.ranks + d] = in_d;
      l.tokens_per_rank[d] += in_d;
    }
    for (int k = 0; k < p.topk; ++k)
      if (in.topk_idx[t * p.topk + k] >= 0) ++l.tokens_per_expert[in.topk_idx[t * p.topk + k]];
  }
  return l;
}

struct Received {  // rank `dst` after dispatch: source ranks in order, each one's tokens in order
  std::vector<uint16_t> x;
  std::vector<int> src_idx;
  std::vector<int64_t> topk_idx;  // local expert or -1
  std::vector<float> topk_weights;
  std::vector<int> tokens_per_local_expert;
};

inline Received received(const Problem& p, int dst) {
  Received r;
  const int L = p.local_experts(), K = p.topk;
  r.tokens_per_local_expert.assign(L, 0);
  for (int s = 0; s < p.ranks; ++s) {
    const Inputs in = make_inputs(p, s);
    for (int t = 0; t < p.tokens; ++t) {
      for (int k = 0; k < K; ++k) {
        const int64_t e = in.topk_idx[t * K + k];
        if (e >= 0 && e / L == dst) ++r.tokens_per_local_expert[e % L];
      }
      if (!token_in_rank(p, in, t, dst)) continue;
      r.x.insert(r.x.end(), in.x.begin() + static_cast<ptrdiff_t>(t) * p.hidden,
                 in.x.begin() + static_cast<ptrdiff_t>(t + 1) * p.hidden);
      r.src_idx.push_back(t);
      for (int k = 0; k < K; ++k) {
        const int64_t e = in.topk_idx[t * K + k];
        const bool local = e >= dst * L && e < (dst + 1) * L;
        r.topk_idx.push_back(local ? e - dst * L : -1);
        r.topk_weights.push_back(local ? in.topk_weights[t * K + k] : 0.0f);
      }
    }
  }
  return r;
}

struct Combined {  // rank `src`'s tokens after combine: the copies every rank sent back, summed
  std::vector<uint16_t> x;
  std::vector<float> topk_weights;
};

inline Combined combined(const Problem& p, int src) {
  Combined c;
  const Inputs in = make_inputs(p, src);
  const int K = p.topk;
  for (int t = 0; t < p.tokens; ++t) {
    int copies = 0;
    for (int d = 0; d < p.ranks; ++d) copies += token_in_rank(p, in, t, d);
    for (int h = 0; h < p.hidden; ++h) c.x.push_back(bf16_bits(token_value(src, t, h) * static_cast<float>(copies)));
    for (int k = 0; k < K; ++k) c.topk_weights.push_back(in.topk_idx[t * K + k] >= 0 ? in.topk_weights[t * K + k] : 0.0f);
  }
  return c;
}

// Bytes of DeepEP's NVL buffer the intranode kernels use (the rank prefix matrix, channel
// offsets, queue heads and tails, then the per-channel token rings), rounded up to 128.
inline size_t nvl_buffer_bytes(int channels, int ranks, int recv_slots, size_t hidden_bytes, int topk) {
  const size_t rings = static_cast<size_t>(channels) * ranks * recv_slots;
  size_t n = sizeof(int) * (static_cast<size_t>(ranks) * (ranks + 4) + 4 * static_cast<size_t>(channels) * ranks);
  n += rings * (hidden_bytes + sizeof(int) + topk * (sizeof(int64_t) + sizeof(float)));
  return (n + 127) / 128 * 128;
}

}  // namespace deepep_ref

// The tiling block a host writes into device memory before each MoE launch (CANN kernels take
// their shapes and buffer addresses this way): sizes, the variant, and every GM address the
// dispatch and combine kernels touch. Plain data, shared by host and kernel code.
#pragma once
#include <cstdint>

namespace moe {

enum Variant : uint32_t {
  kVariantApi = 0,          // one aclshmemx_udma_qp_put_nbi per token and destination, qp_quiet at the end
  kVariantDirect = 1,       // SIMT-built WQEs, one doorbell per SQ per batch, credit check and CQ reaping
  kVariantDirectOpen = 2,   // as the article's kernel: no credit check, CQE on every WQE, never reaped
  kVariantAivDirect = 3,    // every AIV core stores tokens into the peer's window through MTE3 (kernels/moe/aiv_direct)
};

enum Dtype : uint32_t { kInt8 = 0, kBf16 = 1 };

// Data-as-Flag: each 512 B block carries 480 B of payload and a 32 B flag of 1.0f floats.
constexpr uint32_t kBlockBytes = 512;
constexpr uint32_t kBlockPayloadBytes = 480;
constexpr uint32_t kFlagBytes = 32;
constexpr float kFlagSet = 1.0f;
constexpr uint32_t kTokenHeaderBytes = 32;  // TokenHeader, ahead of the token's data
constexpr uint32_t kMaxTopK = 8;
constexpr uint32_t kVfThreads = 128;        // SIMT threads of the WQE-building VF
constexpr uint32_t kCreditGuard = 10;       // ACLSHMEM_UDMA_AGGREGATE_CREDIT_GUARD
constexpr uint32_t kMaxCores = 48;          // AIV cores per die
// Slots of per-core flag words (core_flags): 0/1 the dispatch/combine epochs, 2/3 the rows a
// combine send ring has produced / released.
constexpr uint32_t kRingProduced = 2;
constexpr uint32_t kRingReleased = 3;
constexpr uint32_t kFlagSlots = 4;
// Variant 3 keeps the Atlas A3 dispatch operator's 32 B status per (local expert, source rank)
// at the head of each window half instead of one count block per source rank.
constexpr uint32_t kStatusBytes = 32;

// What travels in front of a dispatched token: where it came from and its routing, so the
// expert rank can send the result back to the right combine slot.
struct TokenHeader {
  uint32_t src_rank;
  uint32_t src_token;
  float scale;          // INT8 dequantisation scale (1 for BF16)
  uint32_t reserved;
  int16_t experts[kMaxTopK];
};
static_assert(sizeof(TokenHeader) == kTokenHeaderBytes, "TokenHeader is one 32 B UB block");

constexpr uint32_t blocks_for(uint32_t payload_bytes) {
  return (payload_bytes + kBlockPayloadBytes - 1) / kBlockPayloadBytes;
}
constexpr uint32_t round_up32(uint32_t v) { return (v + 31u) / 32u * 32u; }

struct MoeTiling {
  // Shape.
  uint32_t ep = 0;
  uint32_t my_rank = 0;
  uint32_t tokens = 0;             // per rank
  uint32_t hidden = 0;
  uint32_t top_k = 0;
  uint32_t experts_per_rank = 0;
  uint32_t elem_bytes = 0;         // dispatch element: 1 (INT8) or 2 (BF16)
  uint32_t writers = 0;            // stage cores = writer cores = QPs per peer
  uint32_t variant = 0;
  uint32_t launch = 0;             // launch number: selects the window half, epoch of core flags
  uint32_t send_ring = 0;          // combine: rows in each writer's send ring (even; reused once sent)
  // Derived sizes.
  uint32_t token_payload_bytes = 0;  // header + data
  uint32_t token_blocks = 0;
  uint32_t comb_payload_bytes = 0;   // BF16 hidden
  uint32_t comb_blocks = 0;
  uint64_t window_half_bytes = 0;    // count blocks + token slots
  uint64_t comb_half_bytes = 0;
  // Device addresses (uint64 so the struct is the same on host and device).
  uint64_t udma_info = 0;    // SHMEM's UDMA QP tables
  uint64_t window = 0;       // symmetric: 2 halves of window_half_bytes
  uint64_t comb_window = 0;  // symmetric: 2 halves of comb_half_bytes
  uint64_t staging = 0;      // local: count blocks (ep) + token blocks (tokens)
  uint64_t comb_staging = 0; // local: the combine send rings, writers x send_ring rows (closed loop: over staging and x)
  uint64_t x = 0;            // input tokens [tokens][hidden] of elem_bytes
  uint64_t scales = 0;       // float [tokens] (INT8)
  uint64_t topk_idx = 0;     // int32 [tokens][top_k]
  uint64_t topk_weight = 0;  // float [tokens][top_k]
  uint64_t recv_tokens = 0;  // expert input, in place in this launch's window half: slot (e, s, j) holds the
                             // token payload without flags once dispatch's receivers are done; combine's
                             // experts clear it (it is the window slot the next launch but one reuses)
  uint64_t expert_counts = 0;  // uint32 [experts]: dispatch's stage workspace (this rank's tokens per expert)
  uint64_t recv_count = 0;   // uint32 [experts_per_rank][ep]
  uint64_t recv_src_token = 0;  // uint32 per slot (e, s, j): the source's token index (combine's send order)
  uint64_t comb_order = 0;   // uint32 [writers][slots]: each expert core's workspace, received slots in send order
  uint64_t ring_dest = 0;    // [writers][send_ring] cache lines: where each send-ring row goes, its input slot
  uint64_t out = 0;          // BF16 [tokens][hidden]: the combined result
  uint64_t core_flags = 0;   // per-core epoch words and send-ring counters, 64 B apart
  uint64_t timing = 0;       // uint64 [kernel][core][start, end] in system cycles (50 MHz)

  uint64_t count_offset(uint32_t src) const { return uint64_t{src} * kBlockBytes; }
  // The head of a window half, before the token slots. Variants 0-2: one count block per source
  // rank. Variant 3 (moe_distribute_dispatch_v2's layout): the statuses, expert-major (local
  // expert e, source s at index e * ep + s); then the cores' received-token sums (one 32 B cell
  // per core, the operator's SyncCntOnCore workspace); then each status index's offset into the
  // expert input (uint32, the operator's sendCounts); then the tokens per local expert (int64,
  // its expertTokenNums). Rounded to 512 B.
  uint64_t status_offset(uint32_t index) const { return uint64_t{index} * kStatusBytes; }
  uint64_t core_sum_offset(uint32_t core) const {
    return uint64_t{experts_per_rank} * ep * kStatusBytes + uint64_t{core} * kStatusBytes;
  }
  uint64_t send_count_offset(uint32_t index) const { return core_sum_offset(kMaxCores) + uint64_t{index} * 4; }
  uint64_t token_nums_offset(uint32_t e) const {
    return (send_count_offset(experts_per_rank * ep) + 7) / 8 * 8 + uint64_t{e} * 8;
  }
  uint64_t head_bytes() const {
    if (variant != kVariantAivDirect) return uint64_t{ep} * kBlockBytes;
    return (token_nums_offset(experts_per_rank) + kBlockBytes - 1) / kBlockBytes * kBlockBytes;
  }
  uint64_t token_stride() const { return uint64_t{token_blocks} * kBlockBytes; }
  uint64_t comb_stride() const { return uint64_t{comb_blocks} * kBlockBytes; }
  // Slot of the j-th token from rank `src` for local expert `e`.
  uint64_t slot(uint32_t e, uint32_t src, uint32_t j) const { return (uint64_t{e} * ep + src) * tokens + j; }
  uint64_t slot_offset(uint32_t e, uint32_t src, uint32_t j) const {
    return head_bytes() + slot(e, src, j) * token_stride();
  }
  // The expert input of slot (e, src, j) is the window slot itself (recv_tokens is the first slot).
  uint64_t recv_stride() const { return token_stride(); }
  uint64_t recv_addr(uint32_t e, uint32_t src, uint32_t j) const { return recv_tokens + slot(e, src, j) * recv_stride(); }
  // Row n of writer w's combine send ring.
  uint64_t ring_row(uint32_t w, uint32_t n) const {
    return comb_staging + (uint64_t{w} * send_ring + n % send_ring) * comb_stride();
  }
  uint32_t half() const { return launch & 1u; }
  // A combine row's destination as the expert hands it to its writer through ring_dest: the
  // source rank (high 16 bits) and the row's offset in that rank's combine window half.
  static uint64_t combine_dest(uint32_t src_rank, uint64_t window_offset) { return uint64_t{src_rank} << 48 | window_offset; }
  static uint32_t dest_rank(uint64_t dest) { return static_cast<uint32_t>(dest >> 48); }
  static uint64_t dest_offset(uint64_t dest) { return dest & ((uint64_t{1} << 48) - 1); }
};

}  // namespace moe

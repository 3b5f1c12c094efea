// MoE combine over UDMA: the reverse path of dispatch. Block roles (blocks = 2W + R):
//  - expert cores [0, W): for the received tokens i = core mod W, in the order of the source
//    token (then source rank, local expert), run the stand-in expert (BF16 out = input *
//    per-expert gain), pack the row as Data-as-Flag blocks into the send ring it shares with
//    writer core `core` (t.send_ring rows; row n goes to slot n mod send_ring once the writer has
//    released it) and note where the row goes (ring_dest: source rank, combine slot (token, k),
//    k the expert's place in the token's top-k) and which window slot held the input;
//  - writer cores [W, 2W): send each row of the pair back to its source rank as soon as the
//    expert has packed it and clear the input's window slot (dispatch left the input there; the
//    launch after next reuses the slot); every half ring, wait for the puts to complete (Sender::Finish: the
//    closed loop reaps their CQEs) and release those slots to the expert;
//  - receiver cores [2W, 2W + R): for tokens t = r mod R wait for all top-k rows, add them up
//    weighted by the gate (float, k order), store the BF16 result, zero the slots.
// Every rank sends its rows in source-token order, so the rows of a token arrive together and
// the receivers, which reduce token by token, consume them soon after they land (in slot
// order, all rows of the first source rank came first and every window held most of its rows
// at once: 3.8 GB at EP 256).
// The open-loop variant releases slots as soon as it has posted them: once rows wrap around
// the ring, the expert rewrites sources still in flight (src_reuse_before_completion).
#include "kernels/moe/common/combined_row.h"
#include "kernels/moe/common/data_as_flag.h"
#include "kernels/moe/common/expert_step.h"
#include "kernels/moe/common/moe_numeric.h"
#include "kernels/moe/common/moe_sender.h"
#include "kernels/moe/common/moe_vector_cost.h"

using namespace moe;

namespace {

// Lists every received token's slot in send order (source token, then source rank, local
// expert) into `order` (GM workspace): a counting sort on the source token, `bucket` (UB,
// tokens + 1 words) its counters. A slot chain (e, src) holds its tokens in source-token order.
// Returns how many tokens this rank received.
__aicore__ inline uint32_t sort_received(const MoeTiling& t, __ubuf__ uint32_t* bucket, __gm__ uint32_t* order)
{
    const auto* recv_count = reinterpret_cast<const __gm__ uint32_t*>(t.recv_count);
    const auto* src_token = reinterpret_cast<const __gm__ uint32_t*>(t.recv_src_token);
    for (uint32_t tok = 0; tok <= t.tokens; ++tok) bucket[tok] = 0;
    for (uint32_t src = 0; src < t.ep; ++src) {
        for (uint32_t e = 0; e < t.experts_per_rank; ++e) {
            const uint32_t n = recv_count[e * t.ep + src];
            for (uint32_t j = 0; j < n; ++j) ++bucket[src_token[t.slot(e, src, j)] + 1];
        }
    }
    for (uint32_t tok = 0; tok < t.tokens; ++tok) bucket[tok + 1] += bucket[tok];
    for (uint32_t src = 0; src < t.ep; ++src) {
        for (uint32_t e = 0; e < t.experts_per_rank; ++e) {
            const uint32_t n = recv_count[e * t.ep + src];
            for (uint32_t j = 0; j < n; ++j) {
                const uint64_t slot = t.slot(e, src, j);
                order[bucket[src_token[slot]]++] = static_cast<uint32_t>(slot);
            }
        }
    }
    return bucket[t.tokens];  // entries with a source token below t.tokens: all
}

// Rows of expert/writer pair `core`: every W-th received token.
__aicore__ inline uint32_t rows_of_pair(const MoeTiling& t, uint32_t core)
{
    const auto* recv_count = reinterpret_cast<const __gm__ uint32_t*>(t.recv_count);
    uint32_t total = 0;
    for (uint32_t i = 0; i < t.experts_per_rank * t.ep; ++i) total += recv_count[i];
    return total / t.writers + (core < total % t.writers ? 1 : 0);
}

// What the expert tells its writer about send-ring row n, one cache line per row: [0] where the
// row goes (MoeTiling::combine_dest), [1] the window slot the input came from.
__aicore__ inline __gm__ uint64_t* ring_dest(const MoeTiling& t, uint32_t core, uint32_t n)
{
    return reinterpret_cast<__gm__ uint64_t*>(t.ring_dest + (uint64_t{core} * t.send_ring + n % t.send_ring) * 64);
}

__aicore__ inline void expert(const MoeTiling& t, uint32_t core)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> in_buf, daf_buf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bucket_buf;
    pipe.InitBuffer(in_buf, t.recv_stride());
    pipe.InitBuffer(bucket_buf, round_up32(4 * (t.tokens + 1)));
    pipe.InitBuffer(daf_buf, DafUb::bytes(t.comb_blocks));
    DafUb ub;
    ub.Init(daf_buf.Get<uint8_t>().GetPhyAddr(), t.comb_blocks);
    AscendC::LocalTensor<uint8_t> in = in_buf.Get<uint8_t>();
    AscendC::GlobalTensor<uint8_t> src_gm;
    auto* order = reinterpret_cast<__gm__ uint32_t*>(t.comb_order) + uint64_t{core} * t.ep * t.experts_per_rank * t.tokens;
    const uint32_t received = sort_received(t, bucket_buf.Get<uint32_t>().GetPhyAddr(), order);
    uint32_t n = 0;  // rows of this pair so far
    for (uint32_t i = core; i < received; i += t.writers) {
        const uint32_t j = order[i] % t.tokens, src = order[i] / t.tokens % t.ep, e = order[i] / t.tokens / t.ep;
        if (n >= t.send_ring) wait_count(t, kRingReleased, core, n - t.send_ring + 1);  // the slot is free
        src_gm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(t.recv_addr(e, src, j)), t.token_payload_bytes);
        AscendC::DataCopyPad(in, src_gm, AscendC::DataCopyExtParams{1, t.token_payload_bytes, 0, 0, 0});
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        const auto* h = reinterpret_cast<const __ubuf__ TokenHeader*>(in.GetPhyAddr());
        const uint32_t k = run_expert(t, in.GetPhyAddr(), e, ub.payload);
        store_blocks(reinterpret_cast<__gm__ uint8_t*>(t.ring_row(core, n)), ub, t.comb_blocks);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
        __gm__ uint64_t* dest = ring_dest(t, core, n);
        dcci(dest, cache_line_t::SINGLE_CACHE_LINE);
        dest[0] = MoeTiling::combine_dest(src, (uint64_t{h->src_token} * t.top_k + k) * t.comb_stride());
        dest[1] = t.recv_addr(e, src, j);
        dcci(dest, cache_line_t::SINGLE_CACHE_LINE);  // written back before the count says the row is there
        publish_count(t, kRingProduced, core, ++n);
    }
}

__aicore__ inline void write(const MoeTiling& t, uint32_t w)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> send_buf, zeros_buf;
    pipe.InitBuffer(send_buf, Sender::ub_bytes(t.ep));
    pipe.InitBuffer(zeros_buf, t.token_blocks * kBlockBytes);
    Sender s;
    s.Init(t, w, send_buf.Get<uint8_t>().GetPhyAddr());
    AscendC::LocalTensor<uint8_t> zeros = zeros_buf.Get<uint8_t>();
    for (uint32_t i = 0; i < t.token_blocks * kBlockBytes; ++i) zeros.GetPhyAddr()[i] = 0;
    AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID1);
    AscendC::GlobalTensor<uint8_t> slot;
    const uint64_t window = t.comb_window + t.half() * t.comb_half_bytes;
    const uint32_t len = t.comb_blocks * kBlockBytes;
    const uint32_t half_ring = t.send_ring / 2;
    const uint32_t rows = rows_of_pair(t, w);
    for (uint32_t n = 0; n < rows;) {
        wait_count(t, kRingProduced, w, n + 1);  // the expert has packed this row
        __gm__ uint64_t* dest = ring_dest(t, w, n);
        dcci(dest, cache_line_t::SINGLE_CACHE_LINE);
        s.Send(t.ring_row(w, n), window + MoeTiling::dest_offset(dest[0]), len, MoeTiling::dest_rank(dest[0]));
        // The expert has read the input: clear its window slot for the launch after next (the
        // writer's MTE3 is idle, the expert's is not). Nothing reads the zeros buffer back.
        slot.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(dest[1]), t.token_stride());
        AscendC::DataCopy(slot, zeros, t.token_blocks * kBlockBytes);
        if (++n % half_ring == 0) {  // half a ring posted: once it has completed, the expert may refill it
            s.Finish();
            publish_count(t, kRingReleased, w, n);
        }
    }
    s.Finish();
    AscendC::PipeBarrier<PIPE_MTE3>();  // every clear done before the kernel ends
}

__aicore__ inline void receive(const MoeTiling& t, uint32_t r, uint32_t receivers)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> daf_buf, acc_buf, out_buf;
    pipe.InitBuffer(daf_buf, DafUb::bytes(t.comb_blocks));
    pipe.InitBuffer(acc_buf, 4 * t.hidden);
    pipe.InitBuffer(out_buf, round_up32(2 * t.hidden));
    DafUb ub;
    ub.Init(daf_buf.Get<uint8_t>().GetPhyAddr(), t.comb_blocks);
    float* acc = acc_buf.Get<float>().GetPhyAddr();
    AscendC::LocalTensor<uint16_t> out = out_buf.Get<uint16_t>();
    auto* window = reinterpret_cast<__gm__ uint8_t*>(t.comb_window) + t.half() * t.comb_half_bytes;
    const auto* weights = reinterpret_cast<const __gm__ float*>(t.topk_weight);
    for (uint32_t tok = r; tok < t.tokens; tok += receivers) {
        vec::zero_acc(acc, t.hidden);
        for (uint32_t i = 0; i < t.hidden; ++i) acc[i] = 0.0f;
        for (uint32_t k = 0; k < t.top_k; ++k) {
            __gm__ uint8_t* slot = window + (uint64_t{tok} * t.top_k + k) * t.comb_stride();
            receive_blocks(slot, ub, t.comb_blocks);
            vec::add_weighted(acc, ub.payload, t.hidden);
            accumulate(acc, reinterpret_cast<const __ubuf__ uint16_t*>(ub.payload), t.hidden,
                       weights[tok * t.top_k + k]);
            clear_blocks(slot, ub, t.comb_blocks);
        }
        store_combined_row(t, tok, acc, out);
    }
}

}  // namespace

extern "C" __global__ __aicore__ void moe_combine_kernel(GM_ADDR tiling_gm, uint32_t receivers)
{
    const MoeTiling t = *reinterpret_cast<const __gm__ MoeTiling*>(tiling_gm);
    const uint32_t block = static_cast<uint32_t>(AscendC::GetBlockIdx());
    auto* timing = reinterpret_cast<__gm__ uint64_t*>(t.timing) + (1 * kMaxCores + block) * 2;
    timing[0] = AscendC::GetSystemCycle();
    if (block < t.writers) {
        expert(t, block);
    } else if (block < 2 * t.writers) {
        write(t, block - t.writers);
    } else {
        receive(t, block - 2 * t.writers, receivers);
    }
    timing[1] = AscendC::GetSystemCycle();
}

void launch_moe_combine(void* stream, uint8_t* tiling, uint32_t writers, uint32_t receivers)
{
    ACLRT_LAUNCH_KERNEL(moe_combine_kernel)(2 * writers + receivers, stream, tiling, receivers);
}

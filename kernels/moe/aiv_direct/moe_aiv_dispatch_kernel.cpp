// MoE dispatch, AIV-direct (variant 3), written the way the published fused operators are
// described: every AIV core of the die takes part, and tokens go straight from the core's
// Unified Buffer into the expert rank's receive window over the UB fabric (MTE3 stores to the
// peer's HBM through CANN SHMEM's MTE put), no WQE, no UDMA engine. Same window layout,
// Data-as-Flag blocks and count blocks as the UDMA variants (docs/moe.md). Each core:
//  - send: core c < EP puts the count blocks of ranks d = c mod cores; then for its contiguous
//    share of this rank's tokens it loads the BF16 token, quantises it to INT8 with the token's
//    scale (INT8 dispatch; aiv_quantise.h), writes the header, packs the Data-as-Flag image once
//    and puts it to each of the token's top-k experts (the slot: the token's order among this
//    rank's tokens for that expert);
//    A token for one of this rank's own experts is stored without flags straight into its
//    expert input (the window slot, in place as for the other variants) with its source index;
//  - receive: for its contiguous share of the (source rank, local expert) pairs of other ranks
//    it polls the source's count block, then each token's blocks, and writes the payload
//    without its flags back into the slot it came in (the expert input) with the token's
//    source index. The blocks' flags carry the launch's epoch (epoch_flags.h); combine's
//    experts clear the slots they read, as for the other variants.
#include "kernels/moe/common/data_as_flag.h"
#include "kernels/moe/common/moe_vector_cost.h"
#include "kernels/moe/aiv_direct/aiv_direct_split.h"
#include "kernels/moe/aiv_direct/aiv_quantise.h"
#include "kernels/moe/aiv_direct/epoch_flags.h"
#include "kernels/moe/aiv_direct/phase_span.h"

using namespace moe;
using namespace moe::aiv;

namespace {

__aicore__ inline void send_counts(const MoeTiling& t, uint32_t c, uint32_t cores, const DafUb& ub, uint64_t window)
{
    const auto* topk = reinterpret_cast<const __gm__ int32_t*>(t.topk_idx);
    auto* counts = reinterpret_cast<__ubuf__ uint32_t*>(ub.payload);
    for (uint32_t dst = c; dst < t.ep; dst += cores) {
        for (uint32_t e = 0; e < t.experts_per_rank; ++e) counts[e] = 0;
        for (uint32_t i = 0; i < t.tokens * t.top_k; ++i) {
            const uint32_t e = static_cast<uint32_t>(topk[i]);
            if (e / t.experts_per_rank == dst) ++counts[e % t.experts_per_rank];
        }
        if (dst == t.my_rank) {  // this rank's own experts: the counts go straight to recv_count
            auto* recv_count = reinterpret_cast<__gm__ uint32_t*>(t.recv_count);
            for (uint32_t e = 0; e < t.experts_per_rank; ++e) recv_count[e * t.ep + dst] = counts[e];
            continue;
        }
        pack_for_put(ub, 1);
        PhaseSpan put("moe put");
        put_blocks(window + t.count_offset(t.my_rank), ub, 1, dst);
        image_free();
        put.End();
    }
}

// Loads token `tok` into the payload after its header: BF16 as it is; for INT8 dispatch the
// BF16 token (in `xin`) quantised with the token's scale on the vector pipe.
__aicore__ inline void load_token(const MoeTiling& t, uint32_t tok, const DafUb& ub, __ubuf__ uint16_t* xin)
{
    const bool to_int8 = t.elem_bytes == 1;
    const uint32_t in_bytes = t.hidden * 2;
    AscendC::GlobalTensor<uint8_t> x;
    x.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(t.x) + uint64_t{tok} * in_bytes, in_bytes);
    __ubuf__ uint8_t* to = to_int8 ? reinterpret_cast<__ubuf__ uint8_t*>(xin) : ub.payload + kTokenHeaderBytes;
    AscendC::DataCopyPad(ub_tensor(to, in_bytes), x, AscendC::DataCopyExtParams{1, in_bytes, 0, 0, 0});
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    if (!to_int8) return;
    auto* q = reinterpret_cast<__ubuf__ int8_t*>(ub.payload + kTokenHeaderBytes);
    const float inv_scale = 1.0f / reinterpret_cast<const __gm__ float*>(t.scales)[tok];
    vec::quantise_row(q, xin, t.hidden);
    for (uint32_t i = 0; i < t.hidden; ++i) q[i] = quantise(xin[i], inv_scale);
}

__aicore__ inline void send_tokens(const MoeTiling& t, Range mine, const DafUb& ub, __ubuf__ uint32_t* seen,
                                   __ubuf__ uint32_t* slot_of, __ubuf__ uint16_t* xin, uint64_t window)
{
    const auto* topk = reinterpret_cast<const __gm__ int32_t*>(t.topk_idx);
    const auto* scales = reinterpret_cast<const __gm__ float*>(t.scales);
    auto* recv_src_token = reinterpret_cast<__gm__ uint32_t*>(t.recv_src_token);
    // Each of my (token, k) pairs takes the next slot of its expert among this rank's tokens.
    for (uint32_t e = 0; e < t.ep * t.experts_per_rank; ++e) seen[e] = 0;
    for (uint32_t p = 0; p < mine.end * t.top_k; ++p) {
        const uint32_t j = seen[static_cast<uint32_t>(topk[p])]++;
        if (p >= mine.begin * t.top_k) slot_of[p - mine.begin * t.top_k] = j;
    }
    for (uint32_t tok = mine.begin; tok < mine.end; ++tok) {
        PhaseSpan pack("moe pack");
        auto* h = reinterpret_cast<__ubuf__ TokenHeader*>(ub.payload);
        h->src_rank = t.my_rank;
        h->src_token = tok;
        h->scale = scales[tok];
        h->reserved = 0;
        for (uint32_t k = 0; k < kMaxTopK; ++k) {
            h->experts[k] = k < t.top_k ? static_cast<int16_t>(topk[tok * t.top_k + k]) : int16_t{-1};
        }
        load_token(t, tok, ub, xin);
        pack_for_put(ub, t.token_blocks);
        PhaseSpan put = pack.EndAfterVector("moe put");
        for (uint32_t k = 0; k < t.top_k; ++k) {
            const uint32_t e = static_cast<uint32_t>(topk[tok * t.top_k + k]);
            const uint32_t j = slot_of[(tok - mine.begin) * t.top_k + k];
            const uint32_t dst = e / t.experts_per_rank, le = e % t.experts_per_rank;
            if (dst == t.my_rank) {  // own expert: the payload goes straight to its input, no flags
                AscendC::DataCopyPad(gm_tensor(reinterpret_cast<__gm__ uint8_t*>(t.recv_addr(le, dst, j)),
                                               t.token_payload_bytes),
                                     ub_tensor(ub.payload, t.token_payload_bytes),
                                     AscendC::DataCopyExtParams{1, t.token_payload_bytes, 0, 0, 0});
                recv_src_token[t.slot(le, dst, j)] = tok;
                continue;
            }
            put_blocks(window + t.slot_offset(le, t.my_rank, j), ub, t.token_blocks, dst);
        }
        image_free();
        put.End();
        AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);  // packed: the next token may load
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
    }
}

__aicore__ inline void receive(const MoeTiling& t, Range mine, const DafUb& ub, const DafUb& count_ub,
                               __gm__ uint8_t* window)
{
    auto* recv_count = reinterpret_cast<__gm__ uint32_t*>(t.recv_count);
    auto* recv_src_token = reinterpret_cast<__gm__ uint32_t*>(t.recv_src_token);
    const auto* counts = reinterpret_cast<__ubuf__ uint32_t*>(count_ub.payload);
    AscendC::GlobalTensor<uint8_t> out;
    AscendC::LocalTensor<uint8_t> payload = ub_tensor(ub.payload, t.token_payload_bytes);
    uint32_t have = UINT32_MAX;  // the source whose count block is in count_ub
    for (uint32_t i = mine.begin; i < mine.end; ++i) {
        const uint32_t src = i / t.experts_per_rank, e = i % t.experts_per_rank;
        if (src == t.my_rank) continue;  // this rank's own tokens are in place already (send_tokens)
        if (src != have) {
            PhaseSpan copy = receive_epoch_blocks(window + t.count_offset(src), count_ub, 1, epoch_of(t));
            AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID1);
            AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID1);
            copy.End();
            have = src;
        }
        const uint32_t n = counts[e];
        recv_count[e * t.ep + src] = n;
        for (uint32_t j = 0; j < n; ++j) {
            __gm__ uint8_t* slot = window + t.slot_offset(e, src, j);
            PhaseSpan copy = receive_epoch_blocks(slot, ub, t.token_blocks, epoch_of(t));
            AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
            out.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(t.recv_addr(e, src, j)), t.token_payload_bytes);
            AscendC::DataCopyPad(out, payload, AscendC::DataCopyExtParams{1, t.token_payload_bytes, 0, 0, 0});
            AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID1);
            AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID1);
            recv_src_token[t.slot(e, src, j)] = reinterpret_cast<const __ubuf__ TokenHeader*>(ub.payload)->src_token;
            AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID1);  // copy-out done before the next unpack
            AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID1);
            copy.End();
        }
    }
}

}  // namespace

extern "C" __global__ __aicore__ void moe_aiv_dispatch_kernel(GM_ADDR tiling_gm, uint32_t cores)
{
    const MoeTiling t = *reinterpret_cast<const __gm__ MoeTiling*>(tiling_gm);
    const uint32_t c = static_cast<uint32_t>(AscendC::GetBlockIdx());
    auto* timing = reinterpret_cast<__gm__ uint64_t*>(t.timing) + (0 * kMaxCores + c) * 2;
    timing[0] = AscendC::GetSystemCycle();

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> daf_buf, count_buf, seen_buf, slot_buf, xin_buf;
    pipe.InitBuffer(daf_buf, DafUb::bytes(t.token_blocks));
    pipe.InitBuffer(count_buf, DafUb::bytes(1));
    pipe.InitBuffer(seen_buf, round_up32(4 * t.ep * t.experts_per_rank));
    const Range tokens = share(t.tokens, c, cores);
    pipe.InitBuffer(slot_buf, round_up32(4 * (tokens.end - tokens.begin + 1) * t.top_k));
    pipe.InitBuffer(xin_buf, round_up32(2 * t.hidden));
    DafUb ub, count_ub;
    ub.Init(daf_buf.Get<uint8_t>().GetPhyAddr(), t.token_blocks);
    count_ub.Init(count_buf.Get<uint8_t>().GetPhyAddr(), 1);
    set_flags(ub, epoch_of(t));
    set_flags(count_ub, epoch_of(t));
    const uint64_t window = t.window + t.half() * t.window_half_bytes;

    PhaseSpan send_span("moe send");
    send_counts(t, c, cores, count_ub, window);
    send_tokens(t, tokens, ub, seen_buf.Get<uint32_t>().GetPhyAddr(), slot_buf.Get<uint32_t>().GetPhyAddr(),
                xin_buf.Get<uint16_t>().GetPhyAddr(), window);
    send_span.End();

    PhaseSpan receive_span("moe receive");
    receive(t, share(t.ep * t.experts_per_rank, c, cores), ub, count_ub,
            reinterpret_cast<__gm__ uint8_t*>(window));
    receive_span.End();
    timing[1] = AscendC::GetSystemCycle();
}

void launch_moe_aiv_dispatch(void* stream, uint8_t* tiling, uint32_t cores)
{
    ACLRT_LAUNCH_KERNEL(moe_aiv_dispatch_kernel)(cores, stream, tiling, cores);
}

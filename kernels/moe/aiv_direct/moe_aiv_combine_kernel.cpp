// MoE combine, AIV-direct (variant 3): the reverse path of moe_aiv_dispatch_kernel, again on
// every AIV core of the die and again as MTE3 stores straight into the peer's window. Each core:
//  - expert: for its contiguous share of the received tokens (slot order: local expert, source
//    rank, slot; sent starting at the rank's own offset into the share, as the operator
//    staggers its sends) it loads the token, runs the stand-in expert (BF16 out = dequantised input x a
//    per-expert gain, on the vector pipe), packs the row as Data-as-Flag blocks and puts it into
//    the source rank's combine window at slot (token, k), k the expert's place in the token's
//    top-k, and clears the input slot (the dispatch window's, reused by the launch after next).
//    No send ring and no completion to reap: the image is rewritten once MTE3 has read it;
//  - receive: for its contiguous share of this rank's tokens it waits for the k rows, adds them
//    weighted by the gate (float, k order) and stores the BF16 result. The blocks' flags carry
//    the launch's epoch (epoch_flags.h), so nothing is zeroed.
#include "kernels/moe/common/combined_row.h"
#include "kernels/moe/common/data_as_flag.h"
#include "kernels/moe/common/expert_step.h"
#include "kernels/moe/common/moe_numeric.h"
#include "kernels/moe/common/moe_vector_cost.h"
#include "kernels/moe/aiv_direct/aiv_direct_split.h"
#include "kernels/moe/aiv_direct/epoch_flags.h"
#include "kernels/moe/aiv_direct/phase_span.h"

using namespace moe;
using namespace moe::aiv;

namespace {

__aicore__ inline uint32_t received_tokens(const MoeTiling& t)
{
    const auto* recv_count = reinterpret_cast<const __gm__ uint32_t*>(t.recv_count);
    uint32_t n = 0;
    for (uint32_t i = 0; i < t.experts_per_rank * t.ep; ++i) n += recv_count[i];
    return n;
}

// The received tokens of this core's share (slot order: local expert, source rank, slot), as
// (e, src, j) triples in UB.
__aicore__ inline uint32_t list_share(const MoeTiling& t, Range mine, __ubuf__ uint32_t* list)
{
    const auto* recv_count = reinterpret_cast<const __gm__ uint32_t*>(t.recv_count);
    uint32_t i = 0, n = 0;  // received tokens so far, in slot order; listed
    for (uint32_t e = 0; e < t.experts_per_rank && i < mine.end; ++e) {
        for (uint32_t src = 0; src < t.ep && i < mine.end; ++src) {
            const uint32_t count = recv_count[e * t.ep + src];
            for (uint32_t j = 0; j < count && i < mine.end; ++j, ++i) {
                if (i < mine.begin) continue;
                list[3 * n] = e;
                list[3 * n + 1] = src;
                list[3 * n + 2] = j;
                ++n;
            }
        }
    }
    return n;
}

// The share's rows go out starting at the rank's own offset into the share, as the Atlas A3
// combine operator staggers its sends (ops-transformer moe_distribute_combine_v2,
// ExpertAlltoAllDispatchCopyAdd: token (loop + epRankId) % count, "错位发送"): the same core of
// every die holds rows for the same few source ranks, and without the stagger they would all
// store into one rank's window at a time.
__aicore__ inline void expert(const MoeTiling& t, Range mine, const DafUb& ub, AscendC::LocalTensor<uint8_t> in,
                              __ubuf__ uint32_t* list)
{
    const uint64_t window = t.comb_window + t.half() * t.comb_half_bytes;
    AscendC::GlobalTensor<uint8_t> src_gm;
    const uint32_t n = list_share(t, mine, list);
    for (uint32_t loop = 0; loop < n; ++loop) {
        const uint32_t at = (loop + t.my_rank) % n;
        const uint32_t e = list[3 * at], src = list[3 * at + 1], j = list[3 * at + 2];
        PhaseSpan pack("moe pack");  // load, expert, pack
        auto* slot = reinterpret_cast<__gm__ uint8_t*>(t.recv_addr(e, src, j));
        src_gm.SetGlobalBuffer(slot, t.token_payload_bytes);
        AscendC::DataCopyPad(in, src_gm, AscendC::DataCopyExtParams{1, t.token_payload_bytes, 0, 0, 0});
        clear_blocks(slot, ub, t.token_blocks);  // read: empty for the launch after next
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);
        const auto* h = reinterpret_cast<const __ubuf__ TokenHeader*>(in.GetPhyAddr());
        const uint32_t k = run_expert(t, in.GetPhyAddr(), e, ub.payload);
        pack_for_put(ub, t.comb_blocks);
        PhaseSpan put = pack.EndAfterVector("moe put");
        put_blocks(window + (uint64_t{h->src_token} * t.top_k + k) * t.comb_stride(), ub, t.comb_blocks,
                   h->src_rank);
        image_free();
        put.End();
        AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);  // the input is read: load the next
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
    }
}

__aicore__ inline void receive(const MoeTiling& t, Range mine, const DafUb& ub, float* acc,
                               AscendC::LocalTensor<uint16_t> out)
{
    auto* window = reinterpret_cast<__gm__ uint8_t*>(t.comb_window) + t.half() * t.comb_half_bytes;
    const auto* weights = reinterpret_cast<const __gm__ float*>(t.topk_weight);
    for (uint32_t tok = mine.begin; tok < mine.end; ++tok) {
        vec::zero_acc(acc, t.hidden);
        for (uint32_t i = 0; i < t.hidden; ++i) acc[i] = 0.0f;
        for (uint32_t k = 0; k < t.top_k; ++k) {
            __gm__ uint8_t* slot = window + (uint64_t{tok} * t.top_k + k) * t.comb_stride();
            PhaseSpan copy = receive_epoch_blocks(slot, ub, t.comb_blocks, epoch_of(t));
            vec::add_weighted(acc, ub.payload, t.hidden);
            accumulate(acc, reinterpret_cast<const __ubuf__ uint16_t*>(ub.payload), t.hidden,
                       weights[tok * t.top_k + k]);
            copy.End();
        }
        store_combined_row(t, tok, acc, out);
    }
}

}  // namespace

extern "C" __global__ __aicore__ void moe_aiv_combine_kernel(GM_ADDR tiling_gm, uint32_t cores)
{
    const MoeTiling t = *reinterpret_cast<const __gm__ MoeTiling*>(tiling_gm);
    const uint32_t c = static_cast<uint32_t>(AscendC::GetBlockIdx());
    auto* timing = reinterpret_cast<__gm__ uint64_t*>(t.timing) + (1 * kMaxCores + c) * 2;
    timing[0] = AscendC::GetSystemCycle();

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> in_buf, daf_buf, acc_buf, out_buf, list_buf;
    pipe.InitBuffer(in_buf, t.recv_stride());
    const Range rows = share(received_tokens(t), c, cores);
    pipe.InitBuffer(list_buf, round_up32(12 * (rows.end - rows.begin + 1)));
    pipe.InitBuffer(daf_buf, DafUb::bytes(t.comb_blocks));
    pipe.InitBuffer(acc_buf, 4 * t.hidden);
    pipe.InitBuffer(out_buf, round_up32(2 * t.hidden));
    DafUb ub;  // its zeros clear input slots too: a token has no more blocks than a BF16 row
    ub.Init(daf_buf.Get<uint8_t>().GetPhyAddr(), t.comb_blocks);
    set_flags(ub, epoch_of(t));
    if (t.token_blocks > t.comb_blocks) trap();

    PhaseSpan send_span("moe send");
    expert(t, rows, ub, in_buf.Get<uint8_t>(), list_buf.Get<uint32_t>().GetPhyAddr());
    send_span.End();

    PhaseSpan receive_span("moe receive");
    receive(t, share(t.tokens, c, cores), ub, acc_buf.Get<float>().GetPhyAddr(), out_buf.Get<uint16_t>());
    receive_span.End();
    timing[1] = AscendC::GetSystemCycle();
}

void launch_moe_aiv_combine(void* stream, uint8_t* tiling, uint32_t cores)
{
    ACLRT_LAUNCH_KERNEL(moe_aiv_combine_kernel)(cores, stream, tiling, cores);
}

// MoE dispatch, AIV-direct (variant 3), structured as the public Atlas A3 MoE dispatch operator
// (CANN ops-transformer, mc2/moe_distribute_dispatch_v2: AlltoAllDispatch, SetStatus,
// WaitDispatch, LocalWindowCopy), the nearest public description of the published fused
// dispatch: every AIV core of the die takes part, and tokens go straight from the core's Unified
// Buffer into the expert rank's receive window over the UB fabric (MTE3 stores to the peer's HBM
// through CANN SHMEM's MTE put), no WQE, no UDMA engine. Same token slots and Data-as-Flag
// blocks as the UDMA variants; the window head holds the operator's 32 B statuses instead of
// count blocks (moe_tiling.h, head_bytes; docs/moe.md). Each core:
//  - send: for its contiguous share of the rank's (token, expert) pairs it loads the BF16 token,
//    finds the pair's slot (its order among the rank's pairs for that expert), quantises it to
//    INT8 (aiv_quantise.h), writes the header, packs the Data-as-Flag image and stores it into
//    the expert rank's window, one pair at a time through two images (the next pair is loaded
//    while the store of the one before is on its way). A pair for one of this rank's own
//    experts is stored without flags straight into its expert input (the window slot) with its
//    source index;
//  - counts the rank's pairs for its share of all experts on the vector pipe into 32 B statuses,
//    waits until every store it issued has landed, then for every core of the die (die_barrier),
//    and stores each status into its expert rank's window head (dispatch_status.h): a status
//    also says that all of this rank's tokens for that expert are there;
//  - receive: polls its contiguous share of the rank's statuses, clears them, publishes its
//    received-token count, waits for every core of the die again, adds up the counts of the
//    cores before it (the operator's output offsets), then copies each announced token of its
//    share out through two buffers, with the operator's three stores per token: the payload
//    without its flags back into the slot (the expert input), then the token's source index;
//    last, its share of the offsets, a third barrier and (core 47) the tokens per local expert.
// The blocks' flags carry the launch's epoch (epoch_flags.h); combine's experts clear the slots
// they read, as for the other variants.
#include "kernels/moe/common/data_as_flag.h"
#include "kernels/moe/common/moe_vector_cost.h"
#include "kernels/moe/aiv_direct/aiv_direct_split.h"
#include "kernels/moe/aiv_direct/aiv_quantise.h"
#include "kernels/moe/aiv_direct/die_barrier.h"
#include "kernels/moe/aiv_direct/dispatch_status.h"
#include "kernels/moe/aiv_direct/epoch_flags.h"
#include "kernels/moe/aiv_direct/phase_span.h"

using namespace moe;
using namespace moe::aiv;

namespace {

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

// Waits until the MTE3 stores of image `ev`'s last use are complete (their responses back).
__aicore__ inline void wait_image(event_t ev)
{
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(ev);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(ev);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(ev);
}
__aicore__ inline void image_stored(event_t ev)
{
    AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(ev);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(ev);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(ev);
}

struct SendUb {
    DafUb image[2];             // two Data-as-Flag images, used in turn
    __ubuf__ int32_t* ids;      // the rank's expert ids, one per (token, k) pair
    __ubuf__ int32_t* scratch;  // the slot search's work space
    __ubuf__ uint32_t* seen;    // pairs per expert before this core's share
    __ubuf__ uint16_t* xin;     // the BF16 token before quantisation
};

__aicore__ inline void send_pairs(const MoeTiling& t, Range mine, const SendUb& ub, uint64_t window)
{
    const auto* topk = reinterpret_cast<const __gm__ int32_t*>(t.topk_idx);
    const auto* scales = reinterpret_cast<const __gm__ float*>(t.scales);
    auto* recv_src_token = reinterpret_cast<__gm__ uint32_t*>(t.recv_src_token);
    const uint32_t pairs = t.tokens * t.top_k;
    AscendC::DataCopyPad(ub_tensor(reinterpret_cast<__ubuf__ uint8_t*>(ub.ids), pairs * 4),
                         gm_tensor(reinterpret_cast<__gm__ uint8_t*>(t.topk_idx), pairs * 4),
                         AscendC::DataCopyExtParams{1, pairs * 4, 0, 0, 0});
    AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);  // the scalar side and the slot search read them
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    for (uint32_t e = 0; e < t.ep * t.experts_per_rank; ++e) ub.seen[e] = 0;
    for (uint32_t p = 0; p < mine.begin; ++p) ++ub.seen[static_cast<uint32_t>(ub.ids[p])];
    for (uint32_t p = mine.begin; p < mine.end; ++p) {
        const uint32_t n = p - mine.begin;
        const DafUb& img = ub.image[n & 1];
        const auto ev = static_cast<event_t>(EVENT_ID4 + (n & 1));
        if (n >= 2) {
            PhaseSpan put("moe put");  // this image's store of two pairs ago
            wait_image(ev);
            put.End();
        }
        PhaseSpan pack("moe pack");
        const uint32_t tok = p / t.top_k, e = static_cast<uint32_t>(ub.ids[p]);
        vec::pair_slot(ub.ids, ub.scratch, p);
        AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
        const uint32_t j = ub.seen[e]++;
        auto* h = reinterpret_cast<__ubuf__ TokenHeader*>(img.payload);
        h->src_rank = t.my_rank;
        h->src_token = tok;
        h->scale = scales[tok];
        h->reserved = 0;
        for (uint32_t k = 0; k < kMaxTopK; ++k) {
            h->experts[k] = k < t.top_k ? static_cast<int16_t>(topk[tok * t.top_k + k]) : int16_t{-1};
        }
        load_token(t, tok, img, ub.xin);
        pack_for_put(img, t.token_blocks);
        PhaseSpan put = pack.EndAfterVector("moe put");
        const uint32_t dst = e / t.experts_per_rank, le = e % t.experts_per_rank;
        if (dst == t.my_rank) {  // own expert: the payload goes straight to its input, no flags
            AscendC::DataCopyPad(gm_tensor(reinterpret_cast<__gm__ uint8_t*>(t.recv_addr(le, dst, j)),
                                           t.token_payload_bytes),
                                 ub_tensor(img.payload, t.token_payload_bytes),
                                 AscendC::DataCopyExtParams{1, t.token_payload_bytes, 0, 0, 0});
            recv_src_token[t.slot(le, dst, j)] = tok;
        } else {
            put_blocks(window + t.slot_offset(le, t.my_rank, j), img, t.token_blocks, dst);
        }
        image_stored(ev);
        put.End();
        AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);  // quantised: the next token may load
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
    }
    PhaseSpan put("moe put");  // every store issued has landed
    const uint32_t issued = mine.end - mine.begin;
    for (uint32_t n = issued >= 2 ? issued - 2 : 0; n < issued; ++n) wait_image(static_cast<event_t>(EVENT_ID4 + (n & 1)));
    AscendC::PipeBarrier<PIPE_ALL>();
    put.End();
}

// Copies the announced tokens of this core's share out of the window as the operator's
// LocalWindowCopy does: window -> UB through a queue of two buffers (the next token is read
// while the stores of this one are on their way), then three MTE3 stores per token, as the
// operator writes its three outputs (expandIdx: rank, token, k; dynamicScales; expandX). Here
// they go back into the slot (the expert input): the header's source fields and the rest of the
// header (scale, top-k list), both staged at 32 B aligned UB addresses in `head`, then the
// token's data; then the token's source index.
__aicore__ inline void copy_out(const MoeTiling& t, Range mine, const DafUb (&ub)[2], __ubuf__ uint8_t* head,
                                const __ubuf__ int32_t* status, __gm__ uint8_t* window)
{
    constexpr uint32_t kSourceBytes = 8;  // TokenHeader: src_rank, src_token
    auto* recv_src_token = reinterpret_cast<__gm__ uint32_t*>(t.recv_src_token);
    const uint32_t data_bytes = t.token_payload_bytes - kTokenHeaderBytes;
    const uint32_t from[3] = {0, kSourceBytes, kTokenHeaderBytes};
    const uint32_t bytes[3] = {kSourceBytes, kTokenHeaderBytes - kSourceBytes, data_bytes};
    uint32_t n = 0;
    for (uint32_t i = mine.begin; i < mine.end; ++i) {
        const uint32_t e = i / t.ep, src = i % t.ep;  // status index e * ep + s
        if (src == t.my_rank) continue;  // this rank's own tokens are in place already (send_pairs)
        const auto count = static_cast<uint32_t>(status[(i - mine.begin) * kStatusWords + 1]);
        for (uint32_t j = 0; j < count; ++j, ++n) {
            const DafUb& img = ub[n & 1];
            const auto ev = static_cast<event_t>(EVENT_ID4 + (n & 1));
            PhaseSpan copy("moe copy");
            if (n >= 2) wait_image(ev);  // this buffer's stores of two tokens ago are done
            load_arrived(window + t.slot_offset(e, src, j), img, t.token_blocks, epoch_of(t));
            AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID1);
            AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID1);
            __ubuf__ uint8_t* staged = head + (n & 1) * 2 * kTokenHeaderBytes;
            for (uint32_t b = 0; b < kSourceBytes; ++b) staged[b] = img.payload[b];
            for (uint32_t b = kSourceBytes; b < kTokenHeaderBytes; ++b) {
                staged[kTokenHeaderBytes + b - kSourceBytes] = img.payload[b];
            }
            AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID1);
            AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID1);
            AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
            auto* slot = reinterpret_cast<__gm__ uint8_t*>(t.recv_addr(e, src, j));
            __ubuf__ uint8_t* ub_from[3] = {staged, staged + kTokenHeaderBytes, img.payload + kTokenHeaderBytes};
            for (uint32_t k = 0; k < 3; ++k) {
                AscendC::DataCopyPad(gm_tensor(slot + from[k], bytes[k]), ub_tensor(ub_from[k], bytes[k]),
                                     AscendC::DataCopyExtParams{1, bytes[k], 0, 0, 0});
            }
            recv_src_token[t.slot(e, src, j)] = reinterpret_cast<const __ubuf__ TokenHeader*>(img.payload)->src_token;
            image_stored(ev);
            copy.End();
        }
    }
    for (uint32_t k = n >= 2 ? n - 2 : 0; k < n; ++k) wait_image(static_cast<event_t>(EVENT_ID4 + (k & 1)));
}

}  // namespace

extern "C" __global__ __aicore__ void moe_aiv_dispatch_kernel(GM_ADDR tiling_gm, uint32_t cores)
{
    const MoeTiling t = *reinterpret_cast<const __gm__ MoeTiling*>(tiling_gm);
    const uint32_t c = static_cast<uint32_t>(AscendC::GetBlockIdx());
    auto* timing = reinterpret_cast<__gm__ uint64_t*>(t.timing) + (0 * kMaxCores + c) * 2;
    timing[0] = AscendC::GetSystemCycle();

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> daf_buf[2], ids_buf, scratch_buf, seen_buf, xin_buf, head_buf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sent_buf, status_buf, zero_buf, cells_buf, work_buf, offsets_buf;
    const uint32_t pairs = t.tokens * t.top_k, statuses = t.ep * t.experts_per_rank;
    const Range counted = share(statuses, c, cores);   // SetStatus: the experts this core counts
    const Range received = share(statuses, c, cores);  // WaitDispatch: the statuses this core polls
    const uint32_t n_recv = received.end - received.begin;
    for (auto& b : daf_buf) pipe.InitBuffer(b, DafUb::bytes(t.token_blocks));
    pipe.InitBuffer(ids_buf, round_up32(4 * pairs));
    pipe.InitBuffer(scratch_buf, round_up32(4 * pairs));
    pipe.InitBuffer(seen_buf, round_up32(4 * statuses));
    pipe.InitBuffer(xin_buf, round_up32(2 * t.hidden));
    pipe.InitBuffer(head_buf, 4 * kTokenHeaderBytes);  // copy_out's staged headers, two buffers
    pipe.InitBuffer(sent_buf, kStatusBytes * (counted.end - counted.begin + 1));
    pipe.InitBuffer(status_buf, kStatusBytes * (n_recv + 1));
    pipe.InitBuffer(zero_buf, kStatusBytes * (n_recv + 1));
    pipe.InitBuffer(cells_buf, kStatusBytes * kMaxCores);
    pipe.InitBuffer(work_buf, kStatusBytes + round_up32(4 * (n_recv > kMaxCores ? n_recv : kMaxCores)));
    pipe.InitBuffer(offsets_buf, round_up32(4 * (n_recv + 1)));
    SendUb ub;
    for (uint32_t i = 0; i < 2; ++i) {
        ub.image[i].Init(daf_buf[i].Get<uint8_t>().GetPhyAddr(), t.token_blocks);
        set_flags(ub.image[i], epoch_of(t));
    }
    ub.ids = ids_buf.Get<int32_t>().GetPhyAddr();
    ub.scratch = scratch_buf.Get<int32_t>().GetPhyAddr();
    ub.seen = seen_buf.Get<uint32_t>().GetPhyAddr();
    ub.xin = xin_buf.Get<uint16_t>().GetPhyAddr();
    const StatusUb sub{status_buf.Get<int32_t>().GetPhyAddr(), zero_buf.Get<int32_t>().GetPhyAddr(),
                       cells_buf.Get<int32_t>().GetPhyAddr(), work_buf.Get<int32_t>().GetPhyAddr()};
    auto* sent = sent_buf.Get<int32_t>().GetPhyAddr();
    const uint64_t window = t.window + t.half() * t.window_half_bytes;
    auto* window_gm = reinterpret_cast<__gm__ uint8_t*>(window);

    PhaseSpan send_span("moe send");
    send_pairs(t, share(pairs, c, cores), ub, window);
    count_statuses(t, counted, ub.ids, ub.scratch, sent);
    AscendC::PipeBarrier<PIPE_ALL>();  // as the operator, before its SyncAll
    die_barrier(t, c, cores, 0);
    send_statuses(t, counted, sent, window);
    send_span.End();

    PhaseSpan receive_span("moe receive");
    uint32_t before = 0, total = 0;
    if (n_recv > 0) {
        const uint32_t mine = wait_statuses(t, c, received, sub, window_gm);
        die_barrier(t, c, cores, 1);
        before = tokens_before(t, c, sub, window_gm);
        total = before + mine;
        copy_out(t, received, ub.image, head_buf.Get<uint8_t>().GetPhyAddr(), sub.status, window_gm);
        store_send_counts(t, received, before, offsets_buf.Get<uint32_t>().GetPhyAddr(), window_gm);
    } else {
        die_barrier(t, c, cores, 1);
    }
    update_token_nums(t, c, cores, total, window_gm);
    receive_span.End();
    timing[1] = AscendC::GetSystemCycle();
}

void launch_moe_aiv_dispatch(void* stream, uint8_t* tiling, uint32_t cores)
{
    ACLRT_LAUNCH_KERNEL(moe_aiv_dispatch_kernel)(cores, stream, tiling, cores);
}

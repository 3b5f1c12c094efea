// MoE dispatch over UDMA. Block roles (blocks = 2 * writers + receivers):
//  - stage cores [0, W): pack their tokens (t = core mod W) into the local send buffer as
//    Data-as-Flag blocks, header first (source, token, scale, top-k); core 0 also packs one
//    count block per destination rank (tokens per local expert); then publish their epoch;
//  - writer cores [W, 2W): wait for every stage core, then send the count blocks of ranks
//    r = w mod W and the (token, expert) pairs p = w mod W through moe::Sender on QP w (one
//    producer per QP); the slot of a token at its expert is its order among this rank's
//    tokens for that expert;
//  - receiver cores [2W, 2W + R): for source ranks s = r mod R, poll the count block, then each
//    token's blocks; write the payload without its flags back into the slot it came in (the
//    expert input, recv_tokens, is the window itself) and note the token's source index.
//    Combine's experts clear each slot once they have read it.
// The window has two halves; launch parity picks one, so a launch never writes the half the
// previous launch's receivers may still be reading. Expert input in place rather than in a
// copy: the simulator stores every byte a kernel writes, and a copy doubled the bytes held
// from dispatch to combine (1.9 GB more at EP 256; docs/performance.md).
#include "kernels/moe/common/data_as_flag.h"
#include "kernels/moe/common/moe_sender.h"

using namespace moe;

namespace {

__aicore__ inline void stage(const MoeTiling& t, uint32_t core)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> daf_buf;
    pipe.InitBuffer(daf_buf, DafUb::bytes(t.token_blocks));
    DafUb ub;
    ub.Init(daf_buf.Get<uint8_t>().GetPhyAddr(), t.token_blocks);
    auto* staging = reinterpret_cast<__gm__ uint8_t*>(t.staging);
    const auto* topk = reinterpret_cast<const __gm__ int32_t*>(t.topk_idx);
    const auto* scales = reinterpret_cast<const __gm__ float*>(t.scales);
    const uint32_t data_bytes = t.hidden * t.elem_bytes;
    AscendC::GlobalTensor<uint8_t> x;
    AscendC::LocalTensor<uint8_t> data = ub_tensor(ub.payload + kTokenHeaderBytes, data_bytes);
    for (uint32_t tok = core; tok < t.tokens; tok += t.writers) {
        auto* h = reinterpret_cast<__ubuf__ TokenHeader*>(ub.payload);
        h->src_rank = t.my_rank;
        h->src_token = tok;
        h->scale = scales[tok];
        h->reserved = 0;
        for (uint32_t k = 0; k < kMaxTopK; ++k) {
            h->experts[k] = k < t.top_k ? static_cast<int16_t>(topk[tok * t.top_k + k]) : int16_t{-1};
        }
        x.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(t.x) + uint64_t{tok} * data_bytes, data_bytes);
        AscendC::DataCopyPad(data, x, AscendC::DataCopyExtParams{1, data_bytes, 0, 0, 0});
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
        store_blocks(staging + uint64_t{t.ep} * kBlockBytes + tok * t.token_stride(), ub, t.token_blocks);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
    }
    if (core == 0) {  // one count block per destination: this rank's tokens per expert there
        const uint32_t experts = t.ep * t.experts_per_rank;
        auto* per_expert = reinterpret_cast<__gm__ uint32_t*>(t.expert_counts);  // one pass over the top-k lists
        for (uint32_t e = 0; e < experts; ++e) per_expert[e] = 0;
        for (uint32_t i = 0; i < t.tokens * t.top_k; ++i) ++per_expert[topk[i]];
        auto* counts = reinterpret_cast<__ubuf__ uint32_t*>(ub.payload);
        for (uint32_t dst = 0; dst < t.ep; ++dst) {
            for (uint32_t e = 0; e < t.experts_per_rank; ++e) counts[e] = per_expert[dst * t.experts_per_rank + e];
            AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID0);
            store_blocks(staging + t.count_offset(dst), ub, 1);
        }
    }
    publish_done(t, 0, core);
}

__aicore__ inline void write(const MoeTiling& t, uint32_t w)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> send_buf, seen_buf;
    pipe.InitBuffer(send_buf, Sender::ub_bytes(t.ep));
    const uint32_t experts = t.ep * t.experts_per_rank;
    pipe.InitBuffer(seen_buf, round_up32(4 * experts));
    Sender s;
    s.Init(t, w, send_buf.Get<uint8_t>().GetPhyAddr());
    wait_done(t, 0, t.writers);

    const uint64_t staging = t.staging;
    const uint64_t window = t.window + t.half() * t.window_half_bytes;
    for (uint32_t dst = w; dst < t.ep; dst += t.writers) {
        s.Send(staging + t.count_offset(dst), window + t.count_offset(t.my_rank), kBlockBytes, dst);
    }
    auto* seen = seen_buf.Get<uint32_t>().GetPhyAddr();  // tokens so far per expert: the next slot
    for (uint32_t e = 0; e < experts; ++e) seen[e] = 0;
    const auto* topk = reinterpret_cast<const __gm__ int32_t*>(t.topk_idx);
    const uint32_t len = t.token_blocks * kBlockBytes;
    for (uint32_t p = 0; p < t.tokens * t.top_k; ++p) {
        const uint32_t e = static_cast<uint32_t>(topk[p]);
        const uint32_t j = seen[e]++;
        if (p % t.writers != w) continue;
        const uint32_t dst = e / t.experts_per_rank;
        const uint32_t tok = p / t.top_k;
        s.Send(staging + uint64_t{t.ep} * kBlockBytes + tok * t.token_stride(),
               window + t.slot_offset(e % t.experts_per_rank, t.my_rank, j), len, dst);
    }
    s.Finish();
}

__aicore__ inline void receive(const MoeTiling& t, uint32_t r, uint32_t receivers)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> daf_buf;
    pipe.InitBuffer(daf_buf, DafUb::bytes(t.token_blocks));
    DafUb ub;
    ub.Init(daf_buf.Get<uint8_t>().GetPhyAddr(), t.token_blocks);
    auto* window = reinterpret_cast<__gm__ uint8_t*>(t.window) + t.half() * t.window_half_bytes;
    auto* recv_count = reinterpret_cast<__gm__ uint32_t*>(t.recv_count);
    auto* recv_src_token = reinterpret_cast<__gm__ uint32_t*>(t.recv_src_token);
    AscendC::GlobalTensor<uint8_t> out;
    AscendC::LocalTensor<uint8_t> payload = ub_tensor(ub.payload, t.token_payload_bytes);
    for (uint32_t src = r; src < t.ep; src += receivers) {
        __gm__ uint8_t* count_block = window + t.count_offset(src);
        receive_blocks(count_block, ub, 1);
        AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID1);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID1);
        clear_blocks(count_block, ub, 1);
        const auto* counts = reinterpret_cast<__ubuf__ uint32_t*>(ub.payload);
        uint32_t n[kBlockPayloadBytes / 4];
        for (uint32_t e = 0; e < t.experts_per_rank; ++e) n[e] = counts[e];
        for (uint32_t e = 0; e < t.experts_per_rank; ++e) {
            recv_count[e * t.ep + src] = n[e];
            for (uint32_t j = 0; j < n[e]; ++j) {
                __gm__ uint8_t* slot = window + t.slot_offset(e, src, j);
                receive_blocks(slot, ub, t.token_blocks);
                AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
                AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
                out.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(t.recv_addr(e, src, j)), t.token_payload_bytes);
                AscendC::DataCopyPad(out, payload, AscendC::DataCopyExtParams{1, t.token_payload_bytes, 0, 0, 0});
                recv_src_token[t.slot(e, src, j)] = reinterpret_cast<const __ubuf__ TokenHeader*>(ub.payload)->src_token;
                AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID1);  // copy-out done before the next unpack
                AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID1);
            }
        }
    }
}

}  // namespace

extern "C" __global__ __aicore__ void moe_dispatch_kernel(GM_ADDR tiling_gm, uint32_t receivers)
{
    const MoeTiling t = *reinterpret_cast<const __gm__ MoeTiling*>(tiling_gm);
    const uint32_t block = static_cast<uint32_t>(AscendC::GetBlockIdx());
    auto* timing = reinterpret_cast<__gm__ uint64_t*>(t.timing) + (0 * kMaxCores + block) * 2;
    timing[0] = AscendC::GetSystemCycle();
    if (block < t.writers) {
        stage(t, block);
    } else if (block < 2 * t.writers) {
        write(t, block - t.writers);
    } else {
        receive(t, block - 2 * t.writers, receivers);
    }
    timing[1] = AscendC::GetSystemCycle();
}

void launch_moe_dispatch(void* stream, uint8_t* tiling, uint32_t writers, uint32_t receivers)
{
    ACLRT_LAUNCH_KERNEL(moe_dispatch_kernel)(2 * writers + receivers, stream, tiling, receivers);
}

// Data-as-Flag blocks (Token-Flag Fusion): a payload is cut into 480 B pieces, each followed by
// a 32 B flag of 1.0f floats, so one 512 B block carries its own proof of arrival (the fabric
// makes a 512 B block visible at once). Also the per-core epoch flags the roles of one kernel
// use to hand work on (stage -> writer). All copies go through MTE2/MTE3 with explicit syncs.
#pragma once
#include <cstdint>
#include <cstring>

#include "kernel_operator.h"
#include "kernels/moe/common/moe_tiling.h"
#include "kernels/moe/common/moe_vector_cost.h"

namespace moe {

// A 480 B piece in 32 B steps (GCC compiles a fixed 480 B std::memcpy to a slow `rep movsq`).
__aicore__ inline void copy_piece(__ubuf__ uint8_t* dst, const __ubuf__ uint8_t* src)
{ for (uint32_t i = 0; i < kBlockPayloadBytes; i += 32) std::memcpy(dst + i, src + i, 32); }

// UB buffers for Data-as-Flag payloads of up to `blocks` blocks. The block image is what
// travels (payload pieces + flags); every GM copy moves whole images in one contiguous MTE
// instruction, the interleaving happens in UB (vector copies, as the article's kernel does).
struct DafUb {
    __ubuf__ uint8_t* image;    // blocks * 512 B: Data-as-Flag blocks
    __ubuf__ uint8_t* payload;  // blocks * 480 B: the payload, contiguous
    __ubuf__ uint8_t* zeros;    // blocks * 512 B of zeros (clears a consumed slot)
    uint32_t blocks;

    static uint32_t bytes(uint32_t blocks) { return blocks * (2 * kBlockBytes + kBlockPayloadBytes); }

    // Fills the image's flags with 1.0f (they stay set: packing only writes payload pieces).
    __aicore__ inline void Init(__ubuf__ uint8_t* ub, uint32_t max_blocks)
    {
        blocks = max_blocks;
        image = ub;
        payload = ub + max_blocks * kBlockBytes;
        zeros = payload + max_blocks * kBlockPayloadBytes;
        for (uint32_t b = 0; b < max_blocks; ++b) {
            auto* flag = reinterpret_cast<__ubuf__ float*>(image + b * kBlockBytes + kBlockPayloadBytes);
            for (uint32_t i = 0; i < kFlagBytes / 4; ++i) flag[i] = kFlagSet;
        }
        for (uint32_t i = 0; i < max_blocks * kBlockBytes; ++i) zeros[i] = 0;
    }

    // payload -> image pieces (vector copy).
    __aicore__ inline void Pack(uint32_t n) const
    {
        vec::copy_pieces(image, payload, n, kBlockPayloadBytes, kBlockBytes);
        for (uint32_t b = 0; b < n; ++b) copy_piece(image + b * kBlockBytes, payload + b * kBlockPayloadBytes);
    }
    // image pieces -> payload (vector copy).
    __aicore__ inline void Unpack(uint32_t n) const
    {
        vec::copy_pieces(payload, image, n, kBlockPayloadBytes, kBlockBytes);
        for (uint32_t b = 0; b < n; ++b) copy_piece(payload + b * kBlockPayloadBytes, image + b * kBlockBytes);
    }
    __aicore__ inline bool AllFlagsSet(uint32_t n) const
    {
        for (uint32_t b = 0; b < n; ++b) {
            if (*reinterpret_cast<const __ubuf__ float*>(image + b * kBlockBytes + kBlockPayloadBytes) != kFlagSet) {
                return false;
            }
        }
        return true;
    }
};

__aicore__ inline AscendC::LocalTensor<uint8_t> ub_tensor(__ubuf__ uint8_t* p, uint32_t bytes)
{
    AscendC::LocalTensor<uint8_t> t;
    t.address_ = {static_cast<uint8_t>(AscendC::TPosition::VECCALC), reinterpret_cast<uint64_t>(p), bytes};
    return t;
}

__aicore__ inline AscendC::GlobalTensor<uint8_t> gm_tensor(__gm__ uint8_t* p, uint64_t bytes)
{
    AscendC::GlobalTensor<uint8_t> t;
    t.SetGlobalBuffer(p, bytes);
    return t;
}

// Packs the payload in UB and writes the `blocks` Data-as-Flag blocks to `gm`.
__aicore__ inline void store_blocks(__gm__ uint8_t* gm, const DafUb& ub, uint32_t blocks)
{
    ub.Pack(blocks);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID3);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID3);
    AscendC::DataCopy(gm_tensor(gm, uint64_t{blocks} * kBlockBytes), ub_tensor(ub.image, blocks * kBlockBytes),
                      blocks * kBlockBytes);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID3);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID3);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID3);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID3);
}

// Polls give up after this many tries (tens of ms of simulated time): a block that never comes
// stops the kernel with a message instead of spinning until the simulation's time limit.
constexpr uint32_t kMaxFlagPolls = 200000;

// Reads the `blocks` blocks at `gm` until every embedded flag is set, then unpacks the payload
// into ub.payload. Returns the number of polls.
__aicore__ inline uint32_t receive_blocks(__gm__ uint8_t* gm, const DafUb& ub, uint32_t blocks)
{
    uint32_t polls = 0;
    __ubuf__ uint8_t* last_flag = ub.image + (blocks - 1) * kBlockBytes + kBlockPayloadBytes;
    for (;;) {
        ++polls;
        // Spin on the last block's 32 B flag; read the whole payload once it is set.
        AscendC::DataCopy(ub_tensor(last_flag, kFlagBytes), gm_tensor(gm + (blocks - 1) * kBlockBytes + kBlockPayloadBytes,
                                                                       kFlagBytes),
                          kFlagBytes);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID2);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID2);
        if (*reinterpret_cast<const __ubuf__ float*>(last_flag) == kFlagSet) {
            AscendC::DataCopy(ub_tensor(ub.image, blocks * kBlockBytes), gm_tensor(gm, uint64_t{blocks} * kBlockBytes),
                              blocks * kBlockBytes);
            AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID2);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID2);
            if (ub.AllFlagsSet(blocks)) break;  // blocks of one write may land in any order
        }
        if (polls == kMaxFlagPolls) {
            AscendC::printf("moe: Data-as-Flag blocks at %p never all arrived\n", static_cast<void*>(gm));
            trap();
        }
    }
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID2);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID2);
    ub.Unpack(blocks);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID2);  // the next poll refills the image
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID2);
    return polls;
}

// Zeroes `blocks` consumed blocks at `gm` (flags included), so the slot is empty when the
// double buffer comes back to it.
__aicore__ inline void clear_blocks(__gm__ uint8_t* gm, const DafUb& ub, uint32_t blocks)
{
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID3);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID3);
    AscendC::DataCopy(gm_tensor(gm, uint64_t{blocks} * kBlockBytes), ub_tensor(ub.zeros, blocks * kBlockBytes),
                      blocks * kBlockBytes);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID3);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID3);
}

// Per-core epoch words, one cache line each: `kernel` 0 dispatch, 1 combine; slots 2 and 3 are
// the combine send ring's counters (kRingProduced, kRingReleased).
__aicore__ inline __gm__ uint32_t* core_flag(const MoeTiling& t, uint32_t kernel, uint32_t core)
{
    return reinterpret_cast<__gm__ uint32_t*>(t.core_flags + (uint64_t{kernel} * 64 + core) * 64);
}

__aicore__ inline void publish_done(const MoeTiling& t, uint32_t kernel, uint32_t core)
{
    __gm__ uint32_t* f = core_flag(t, kernel, core);
    dcci(f, cache_line_t::SINGLE_CACHE_LINE);  // in step with the other cores: the store happens now
    *f = t.launch + 1;
    dcci(f, cache_line_t::SINGLE_CACHE_LINE);  // write back so other cores see it
}

__aicore__ inline void wait_done(const MoeTiling& t, uint32_t kernel, uint32_t cores)
{
    for (uint32_t c = 0; c < cores; ++c) {
        __gm__ uint32_t* f = core_flag(t, kernel, c);
        for (uint32_t polls = 1;; ++polls) {
            dcci(f, cache_line_t::SINGLE_CACHE_LINE);
            if (*f == t.launch + 1) break;
            if (polls == 50 * kMaxFlagPolls) {
                AscendC::printf("moe: core %u never published launch %u\n", c, t.launch);
                trap();
            }
        }
    }
}

// The combine send ring of each expert/writer pair: the expert counts the rows it has packed,
// the writer the rows whose puts have completed (slots it may refill). A count is tagged with
// the launch, so a previous launch's count reads as none.
__aicore__ inline uint32_t launch_count(const MoeTiling& t, uint32_t n) { return (t.launch << 20) + n; }

__aicore__ inline void publish_count(const MoeTiling& t, uint32_t counter, uint32_t core, uint32_t n)
{
    __gm__ uint32_t* f = core_flag(t, counter, core);
    dcci(f, cache_line_t::SINGLE_CACHE_LINE);
    *f = launch_count(t, n);
    dcci(f, cache_line_t::SINGLE_CACHE_LINE);
}

__aicore__ inline void wait_count(const MoeTiling& t, uint32_t counter, uint32_t core, uint32_t n)
{
    __gm__ uint32_t* f = core_flag(t, counter, core);
    for (uint32_t polls = 1;; ++polls) {
        dcci(f, cache_line_t::SINGLE_CACHE_LINE);
        if (*f >= launch_count(t, n)) return;
        if (polls == 50 * kMaxFlagPolls) {
            AscendC::printf("moe: send ring counter %u of core %u never reached %u\n", counter, core, n);
            trap();
        }
    }
}

}  // namespace moe

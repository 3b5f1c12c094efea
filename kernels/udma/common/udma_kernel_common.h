// Device helpers shared by the project's UDMA kernels (plain AscendC, as a kernel author would
// write them).
#pragma once
#include "kernel_operator.h"

namespace udma_kernel {

constexpr uint32_t COPY_CHUNK_BYTES = 64 * 1024;

// GM -> UB -> GM copy through `ub` (at least COPY_CHUNK_BYTES), waiting for each step.
__aicore__ inline void copy_gm(GM_ADDR dst, GM_ADDR src, uint64_t bytes, AscendC::LocalTensor<uint8_t>& ub)
{
    AscendC::GlobalTensor<uint8_t> in, out;
    for (uint64_t off = 0; off < bytes; off += COPY_CHUNK_BYTES) {
        const uint32_t len = static_cast<uint32_t>(bytes - off < COPY_CHUNK_BYTES ? bytes - off : COPY_CHUNK_BYTES);
        in.SetGlobalBuffer(src + off, len);
        out.SetGlobalBuffer(dst + off, len);
        AscendC::DataCopyPad(ub, in, {1, len, 0, 0, 0});
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
        AscendC::DataCopyPad(out, ub, {1, len, 0, 0, 0});
        AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
}

// Spins (dcci + load) until the 64-bit word at `flag` reaches `value`.
__aicore__ inline void wait_at_least(__gm__ uint64_t* flag, uint64_t value)
{
    for (;;) {
        dcci(flag, cache_line_t::SINGLE_CACHE_LINE);
        if (*flag >= value) {
            return;
        }
    }
}

}  // namespace udma_kernel

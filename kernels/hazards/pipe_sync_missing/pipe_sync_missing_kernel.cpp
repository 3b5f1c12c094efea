// pipe_sync_missing. A GM -> UB -> GM copy in chunks. Buggy: MTE3 copies the UB chunk out
// right after MTE2 was told to fill it, with no SetFlag/WaitFlag<MTE2_MTE3> between (and
// MTE2 refills the chunk with no <MTE3_MTE2>): the pipes run concurrently, so MTE3 reads the
// UB before the data is in it. Fixed: both flag pairs.
#include "kernel_operator.h"

namespace {
constexpr uint32_t CHUNK = 4096;

__aicore__ inline void run(GM_ADDR in, GM_ADDR out, uint32_t bytes, bool sync)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, CHUNK);
    AscendC::LocalTensor<uint8_t> ub = buf.Get<uint8_t>();
    AscendC::GlobalTensor<uint8_t> src, dst;
    for (uint32_t off = 0; off < bytes; off += CHUNK) {
        const uint32_t n = bytes - off < CHUNK ? bytes - off : CHUNK;
        src.SetGlobalBuffer(in + off, n);
        dst.SetGlobalBuffer(out + off, n);
        AscendC::DataCopy(ub, src, n);
        if (sync) {
            AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
        }
        AscendC::DataCopy(dst, ub, n);
        if (sync) {
            AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
        }
    }
}
}  // namespace

extern "C" __global__ __aicore__ void pipe_sync_missing_buggy_kernel(GM_ADDR in, GM_ADDR out, uint32_t bytes)
{
    run(in, out, bytes, false);
}

extern "C" __global__ __aicore__ void pipe_sync_missing_fixed_kernel(GM_ADDR in, GM_ADDR out, uint32_t bytes)
{
    run(in, out, bytes, true);
}

void launch_pipe_sync_missing(bool fixed, void* stream, uint8_t* in, uint8_t* out, uint32_t bytes)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(pipe_sync_missing_fixed_kernel)(1, stream, in, out, bytes);
    else
        ACLRT_LAUNCH_KERNEL(pipe_sync_missing_buggy_kernel)(1, stream, in, out, bytes);
}

// event_id_unpaired. A double-pipe copy loop in the usual AscendC shape: each iteration
// waits for the previous iteration's MTE3 read of the UB buffer (WaitFlag<MTE3_MTE2>) before
// MTE2 refills it, and signals it after (SetFlag<MTE3_MTE2>). Buggy: the last iteration's
// SetFlag is never waited after the loop, so the event is still set when the kernel ends.
// Fixed: the epilogue WaitFlag.
#include "kernel_operator.h"

namespace {
constexpr uint32_t CHUNK = 4096;

__aicore__ inline void run(GM_ADDR in, GM_ADDR out, uint32_t bytes, bool epilogue)
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
        if (off > 0) AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
        AscendC::DataCopy(ub, src, n);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID1);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID1);
        AscendC::DataCopy(dst, ub, n);
        AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
    }
    if (epilogue) AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
}
}  // namespace

extern "C" __global__ __aicore__ void event_id_unpaired_buggy_kernel(GM_ADDR in, GM_ADDR out, uint32_t bytes)
{
    run(in, out, bytes, false);
}

extern "C" __global__ __aicore__ void event_id_unpaired_fixed_kernel(GM_ADDR in, GM_ADDR out, uint32_t bytes)
{
    run(in, out, bytes, true);
}

void launch_event_id_unpaired(bool fixed, void* stream, uint8_t* in, uint8_t* out, uint32_t bytes)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(event_id_unpaired_fixed_kernel)(1, stream, in, out, bytes);
    else
        ACLRT_LAUNCH_KERNEL(event_id_unpaired_buggy_kernel)(1, stream, in, out, bytes);
}

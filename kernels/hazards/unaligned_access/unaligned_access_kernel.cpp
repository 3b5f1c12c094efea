// unaligned_access. DataCopy moves whole 32 B blocks. Buggy: a record of `bytes` (not a
// multiple of 32) is copied with DataCopy; fixed: DataCopyPad, which takes a byte length.
#include "kernel_operator.h"

namespace {
__aicore__ inline void run(GM_ADDR in, GM_ADDR out, uint32_t bytes, bool pad)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, (bytes + 31) / 32 * 32);
    AscendC::LocalTensor<uint8_t> ub = buf.Get<uint8_t>();
    AscendC::GlobalTensor<uint8_t> src, dst;
    src.SetGlobalBuffer(in, bytes);
    dst.SetGlobalBuffer(out, bytes);
    if (pad)
        AscendC::DataCopyPad(ub, src, {1, bytes, 0, 0, 0});
    else
        AscendC::DataCopy(ub, src, bytes);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    if (pad)
        AscendC::DataCopyPad(dst, ub, {1, bytes, 0, 0, 0});
    else
        AscendC::DataCopy(dst, ub, bytes);
}
}  // namespace

extern "C" __global__ __aicore__ void unaligned_access_buggy_kernel(GM_ADDR in, GM_ADDR out, uint32_t bytes)
{
    run(in, out, bytes, false);
}

extern "C" __global__ __aicore__ void unaligned_access_fixed_kernel(GM_ADDR in, GM_ADDR out, uint32_t bytes)
{
    run(in, out, bytes, true);
}

void launch_unaligned_access(bool fixed, void* stream, uint8_t* in, uint8_t* out, uint32_t bytes)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(unaligned_access_fixed_kernel)(1, stream, in, out, bytes);
    else
        ACLRT_LAUNCH_KERNEL(unaligned_access_buggy_kernel)(1, stream, in, out, bytes);
}

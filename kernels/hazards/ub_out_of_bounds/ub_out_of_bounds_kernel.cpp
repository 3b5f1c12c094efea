// ub_out_of_bounds. The kernel copies `bytes` of floats through a UB buffer it allocated for
// exactly that many bytes. Buggy: DataCopy's count is in elements, but it is given the byte
// count, so MTE2 writes four times the buffer into the Unified Buffer. Fixed: bytes / 4.
#include "kernel_operator.h"

namespace {
__aicore__ inline void run(GM_ADDR in, GM_ADDR out, uint32_t bytes, bool elements)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, bytes);
    AscendC::LocalTensor<float> ub = buf.Get<float>();
    AscendC::GlobalTensor<float> src, dst;
    src.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in));
    dst.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
    AscendC::DataCopy(ub, src, elements ? bytes / 4 : bytes);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::DataCopy(dst, ub, bytes / 4);
}
}  // namespace

extern "C" __global__ __aicore__ void ub_out_of_bounds_buggy_kernel(GM_ADDR in, GM_ADDR out, uint32_t bytes)
{
    run(in, out, bytes, false);
}

extern "C" __global__ __aicore__ void ub_out_of_bounds_fixed_kernel(GM_ADDR in, GM_ADDR out, uint32_t bytes)
{
    run(in, out, bytes, true);
}

void launch_ub_out_of_bounds(bool fixed, void* stream, uint8_t* in, uint8_t* out, uint32_t bytes)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(ub_out_of_bounds_fixed_kernel)(1, stream, in, out, bytes);
    else
        ACLRT_LAUNCH_KERNEL(ub_out_of_bounds_buggy_kernel)(1, stream, in, out, bytes);
}

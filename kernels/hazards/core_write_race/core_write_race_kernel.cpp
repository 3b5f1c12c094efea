// core_write_race. Two AIV cores each copy half of the input. Buggy: both write their half
// to the start of the output (the block offset was left out of the destination), so two
// cores store to the same GM with nothing ordering them. Fixed: each core writes its half.
// `stagger_ns`: core 1 starts that much later (other work); on the default timing core 0's
// store has then landed, and only the ordering rules show the race.
#include "kernel_operator.h"

namespace {
__aicore__ inline void spin_ns(uint32_t delay_ns)
{
    const uint64_t until = AscendC::GetSystemCycle() + delay_ns / 20;  // 50 MHz system counter
    while (AscendC::GetSystemCycle() < until) {
    }
}

__aicore__ inline void run(GM_ADDR in, GM_ADDR out, uint32_t bytes, uint32_t stagger_ns, bool offset_out)
{
    const uint32_t block = AscendC::GetBlockIdx();
    const uint32_t half = bytes / AscendC::GetBlockNum();
    if (block == 1) spin_ns(stagger_ns);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, half);
    AscendC::LocalTensor<uint8_t> ub = buf.Get<uint8_t>();
    AscendC::GlobalTensor<uint8_t> src, dst;
    src.SetGlobalBuffer(in + block * half, half);
    dst.SetGlobalBuffer(out + (offset_out ? block * half : 0), half);
    AscendC::DataCopy(ub, src, half);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::DataCopy(dst, ub, half);
}
}  // namespace

extern "C" __global__ __aicore__ void core_write_race_buggy_kernel(GM_ADDR in, GM_ADDR out, uint32_t bytes,
                                                                    uint32_t stagger_ns)
{
    run(in, out, bytes, stagger_ns, false);
}

extern "C" __global__ __aicore__ void core_write_race_fixed_kernel(GM_ADDR in, GM_ADDR out, uint32_t bytes,
                                                                    uint32_t stagger_ns)
{
    run(in, out, bytes, stagger_ns, true);
}

void launch_core_write_race(bool fixed, void* stream, uint8_t* in, uint8_t* out, uint32_t bytes, uint32_t stagger_ns)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(core_write_race_fixed_kernel)(2, stream, in, out, bytes, stagger_ns);
    else
        ACLRT_LAUNCH_KERNEL(core_write_race_buggy_kernel)(2, stream, in, out, bytes, stagger_ns);
}

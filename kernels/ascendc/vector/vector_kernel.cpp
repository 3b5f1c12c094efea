// ascendc_vector: one AIV block exercises the AscendC vector instructions of
// symsim/ascendc_vector.h on data it copies in from GM, and copies every result back out for
// the host program (main.cpp) to check. Mode 0 orders the pipes as AscendC requires; mode 1
// leaves out the MTE2->V and V->MTE3 flags (pipe_sync_missing at the two marked lines); mode 2
// is the dump build: printf and DumpTensor records go into the workspace of InitDump; mode 3
// gives the block only 64 bytes of it, so the DumpTensor records are dropped.
#include "kernel_operator.h"

constexpr uint32_t kN = 256;          // elements per float / int32 vector (1 KiB: 4 repeats)
constexpr uint32_t kTimedN = 16384;   // the timed loop's vector (64 KiB: 256 repeats)
constexpr uint32_t kTimedLoops = 100;

// Output layout (GM, kN elements each unless said): see main.cpp's kOut* offsets.
extern "C" __global__ __aicore__ void ascendc_vector_kernel(GM_ADDR in, GM_ADDR out, GM_ADDR dump, int mode)
{
    AscendC::TPipe pipe;
    if (mode >= 2) AscendC::InitDump(false, dump, mode == 3 ? 64 : 1024 * 1024);
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 160 * 1024);
    AscendC::LocalTensor<float> a = buf.GetWithOffset<float>(kN, 0);
    AscendC::LocalTensor<float> b = buf.GetWithOffset<float>(kN, 1024);
    AscendC::LocalTensor<float> f = buf.GetWithOffset<float>(16 * kN, 2048);  // 16 float results
    AscendC::LocalTensor<int32_t> ints = buf.GetWithOffset<int32_t>(8 * kN, 2048 + 16 * 1024);
    AscendC::LocalTensor<uint8_t> mask = buf.GetWithOffset<uint8_t>(64, 2048 + 24 * 1024);
    AscendC::LocalTensor<uint32_t> offsets = buf.GetWithOffset<uint32_t>(kN, 2048 + 25 * 1024);
    AscendC::LocalTensor<float> work = buf.GetWithOffset<float>(64, 2048 + 26 * 1024);
    AscendC::LocalTensor<float> timed = buf.GetWithOffset<float>(kTimedN, 64 * 1024);

    AscendC::GlobalTensor<float> gin;
    gin.SetGlobalBuffer((__gm__ float *)in);
    AscendC::GlobalTensor<float> gout;
    gout.SetGlobalBuffer((__gm__ float *)out);

    AscendC::DataCopy(a, gin, kN);
    AscendC::DataCopy(b, gin[kN], kN);
    if (mode != 1) {
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    }
    AscendC::Add(f[0 * kN], a, b, kN);  // mode 1: reads what MTE2 wrote, unordered
    AscendC::Sub(f[1 * kN], a, b, kN);
    AscendC::Mul(f[2 * kN], a, b, kN);
    AscendC::Max(f[3 * kN], a, b, kN);
    AscendC::Min(f[4 * kN], a, b, kN);
    AscendC::Adds(f[5 * kN], a, 1.5f, kN);
    AscendC::Muls(f[6 * kN], a, -2.0f, kN);
    AscendC::Duplicate(f[7 * kN], 3.25f, kN);
    AscendC::Cast(ints[0 * kN], a, AscendC::RoundMode::CAST_ROUND, kN);
    AscendC::Cast(ints[1 * kN], a, AscendC::RoundMode::CAST_FLOOR, kN);
    AscendC::Cast(ints[2 * kN], a, AscendC::RoundMode::CAST_TRUNC, kN);
    AscendC::Cast(f[8 * kN], ints[1 * kN], AscendC::RoundMode::CAST_NONE, kN);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::ReduceSum(f[9 * kN], b, work, kN);
    AscendC::ReduceMax(f[9 * kN + 8], a, work, kN, true);
    AscendC::Compare(mask, a, b, AscendC::CMPMODE::GT, kN);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Select(f[10 * kN], mask, a, b, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, kN);
    AscendC::CompareScalar(mask[32], a, 0.0f, AscendC::CMPMODE::LT, kN);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Select(f[11 * kN], mask[32], a, 0.0f, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, kN);
    // Gather reverses a (byte offsets (kN - 1 - i) * 4); Scatter puts b[i] at (i * 7 % kN).
    AscendC::CreateVecIndex(ints[3 * kN], (int32_t)0, kN);
    for (uint32_t i = 0; i < kN; ++i) offsets.SetValue(i, (kN - 1 - i) * 4);
    AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID1);
    AscendC::Gather(f[12 * kN], a, offsets, 0, kN);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID1);
    for (uint32_t i = 0; i < kN; ++i) offsets.SetValue(i, (i * 7 % kN) * 4);
    AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID1);
    AscendC::Scatter(f[13 * kN], b, offsets, 0, kN);
    AscendC::And(ints[4 * kN], ints[0 * kN], ints[3 * kN], kN);
    AscendC::Or(ints[7 * kN], ints[0 * kN], ints[3 * kN], kN);
    AscendC::Mins(ints[6 * kN], ints[3 * kN], 100, kN);
    AscendC::Div(f[14 * kN], a, f[7 * kN], kN);
    AscendC::Maxs(f[15 * kN], a, 0.5f, kN);
    AscendC::ReduceMin(f[9 * kN + 16], b, work, kN, true);

    // Timing: kTimedLoops Adds over 64 KiB, measured with GetSystemCycle once the scalar
    // pipe has waited for the vector pipe.
    AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID2);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID2);
    const uint64_t t0 = AscendC::GetSystemCycle();
    for (uint32_t i = 0; i < kTimedLoops; ++i) AscendC::Adds(timed, timed, 1.0f, kTimedN);
    AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID2);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID2);
    const uint64_t t1 = AscendC::GetSystemCycle();
    ints.SetValue(5 * kN, (int32_t)(t1 - t0));
    if (mode != 1) {  // also orders PIPE_V before MTE3, through the scalar pipe's V_S wait
        AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID3);
        AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID3);
    }

    if (mode >= 2) {
        AscendC::printf("vector results ready, %d ticks\n", (int)(t1 - t0));
        AscendC::DumpTensor(f[7 * kN], 7, 4);
        AscendC::DumpTensor(ints[3 * kN], 3, 5);
    }
    if (mode != 1) {
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    }
    AscendC::DataCopy(gout, f, 16 * kN);  // mode 1: reads what PIPE_V wrote, unordered
    AscendC::GlobalTensor<int32_t> gints;
    gints.SetGlobalBuffer((__gm__ int32_t *)(out + 16 * kN * sizeof(float)));
    AscendC::DataCopy(gints, ints, 8 * kN);
    AscendC::PipeBarrier<PIPE_ALL>();
}

void launch_ascendc_vector(void *stream, uint8_t *in, uint8_t *out, uint8_t *dump, int mode)
{
    ascendc_vector_kernel<<<1, nullptr, stream>>>(in, out, dump, mode);
}

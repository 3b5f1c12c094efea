// torn_block_consumed: a Data-as-Flag receiver, as in the MoE dispatch kernel. The send
// buffer holds 512 B blocks of 480 B payload + 32 B flag (1.0f); one put moves them all, and
// the receiver takes each block once its flag reads 1.0f, trusting the fabric to make a
// 512 B block visible at once. Buggy (that receiver): under a torn_block fault the flag can
// land before the payload and the receiver copies a torn block. Fixed: the sender uses
// put_signal (the signal lands after every byte of the data) and the receiver waits on it.
#include "kernel_operator.h"
#include "shmem.h"

namespace {
constexpr uint32_t BLOCK = 512;
constexpr uint32_t PAYLOAD = 480;
constexpr uint32_t FLAG_FLOATS = 8;  // 32 B

__aicore__ inline void copy_payloads(GM_ADDR window, GM_ADDR out, uint32_t blocks, bool poll_flags)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECIN> flag_buf, payload_buf;
    pipe.InitBuffer(flag_buf, FLAG_FLOATS * sizeof(float));
    pipe.InitBuffer(payload_buf, PAYLOAD);
    AscendC::LocalTensor<float> flag = flag_buf.Get<float>();
    AscendC::LocalTensor<uint8_t> payload = payload_buf.Get<uint8_t>();
    AscendC::GlobalTensor<float> flag_gm;
    AscendC::GlobalTensor<uint8_t> block_gm, out_gm;
    for (uint32_t k = 0; k < blocks; ++k) {
        if (poll_flags) {
            flag_gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(window + k * BLOCK + PAYLOAD), FLAG_FLOATS);
            for (;;) {
                AscendC::DataCopy(flag, flag_gm, FLAG_FLOATS);
                AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);
                AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);
                if (flag.GetValue(0) == 1.0f) break;
            }
        }
        block_gm.SetGlobalBuffer(window + k * BLOCK, PAYLOAD);
        out_gm.SetGlobalBuffer(out + k * PAYLOAD, PAYLOAD);
        AscendC::DataCopy(payload, block_gm, PAYLOAD);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID1);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID1);
        AscendC::DataCopy(out_gm, payload, PAYLOAD);
        AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID1);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID1);
    }
}
}  // namespace

extern "C" __global__ __aicore__ void data_as_flag_buggy_kernel(GM_ADDR window, GM_ADDR sendbuf, GM_ADDR out, GM_ADDR sig,
                                                                uint32_t blocks)
{
    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    {
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECOUT> buf;
        pipe.InitBuffer(buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
        __ubuf__ uint8_t* wqe_scratch = (__ubuf__ uint8_t*)buf.Get<uint8_t>().GetPhyAddr();
        aclshmemx_udma_put_nbi(window, sendbuf, wqe_scratch, blocks * BLOCK, peer);
    }
    copy_payloads(window, out, blocks, true);  // each block once its embedded flag is set
    aclshmemx_udma_quiet(peer);
    aclshmemx_barrier_all_vec();
    (void)sig;
}

extern "C" __global__ __aicore__ void data_as_flag_fixed_kernel(GM_ADDR window, GM_ADDR sendbuf, GM_ADDR out, GM_ADDR sig,
                                                                uint32_t blocks)
{
    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    __gm__ uint64_t* signal = reinterpret_cast<__gm__ uint64_t*>(sig);
    {
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECOUT> buf;
        pipe.InitBuffer(buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
        __ubuf__ uint8_t* wqe_scratch = (__ubuf__ uint8_t*)buf.Get<uint8_t>().GetPhyAddr();
        aclshmemx_udma_put_signal_nbi(window, sendbuf, blocks * BLOCK, signal, 1, peer, wqe_scratch, 0);
    }
    for (;;) {  // the signal lands after every byte of the data
        dcci(signal, cache_line_t::SINGLE_CACHE_LINE);
        if (*signal == 1) break;
    }
    copy_payloads(window, out, blocks, false);
    aclshmemx_udma_quiet(peer);
    aclshmemx_barrier_all_vec();
}

void launch_data_as_flag(bool fixed, void* stream, uint8_t* window, uint8_t* sendbuf, uint8_t* out, uint8_t* sig,
                         uint32_t blocks)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(data_as_flag_fixed_kernel)(1, stream, window, sendbuf, out, sig, blocks);
    else
        ACLRT_LAUNCH_KERNEL(data_as_flag_buggy_kernel)(1, stream, window, sendbuf, out, sig, blocks);
}

// src_reuse_before_completion. Each round the kernel packs the next input slice into one send
// buffer (MTE2 in, MTE3 out) and puts it to its neighbour. Buggy: it repacks the send buffer
// for round r + 1 right after posting round r, while the engine may still be reading it.
// Fixed: aclshmemx_udma_quiet before the send buffer is reused. `work`: 32 B reloads and
// stores (other work) between the put and the repack; with a few of them the put has completed by then on the
// default timing, and only the ordering rules show the bug.
#include "kernel_operator.h"
#include "shmem.h"

namespace {

__aicore__ inline void run(GM_ADDR dst, GM_ADDR sendbuf, GM_ADDR input, uint32_t bytes, uint32_t rounds, uint32_t work,
                           bool quiet_first)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> data_buf, wqe_buf;
    pipe.InitBuffer(data_buf, bytes);
    pipe.InitBuffer(wqe_buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
    AscendC::LocalTensor<uint8_t> data = data_buf.Get<uint8_t>();
    __ubuf__ uint8_t* wqe_scratch = (__ubuf__ uint8_t*)wqe_buf.Get<uint8_t>().GetPhyAddr();
    AscendC::GlobalTensor<uint8_t> in, send;
    send.SetGlobalBuffer(sendbuf, bytes);
    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    for (uint32_t r = 0; r < rounds; ++r) {
        if (quiet_first && r > 0) aclshmemx_udma_quiet(peer);  // the previous put has read the buffer
        in.SetGlobalBuffer(input + uint64_t{r} * bytes, bytes);
        AscendC::DataCopy(data, in, bytes);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
        AscendC::DataCopy(send, data, bytes);  // repack the send buffer
        AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
        aclshmemx_udma_put_nbi(dst + uint64_t{r} * bytes, sendbuf, wqe_scratch, bytes, peer);
        AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
        for (uint32_t k = 0; k < work; ++k) {  // other work: reload 32 B of this slice, store it back
            AscendC::DataCopy(data, in, 32);
            AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID1);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID1);
            AscendC::DataCopy(in, data, 32);
            AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID1);
            AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID1);
        }
    }
    aclshmemx_udma_quiet(peer);
    aclshmemx_barrier_all_vec();
}

}  // namespace

extern "C" __global__ __aicore__ void src_reuse_buggy_kernel(GM_ADDR dst, GM_ADDR sendbuf, GM_ADDR input, uint32_t bytes,
                                                             uint32_t rounds, uint32_t work)
{
    run(dst, sendbuf, input, bytes, rounds, work, false);
}

extern "C" __global__ __aicore__ void src_reuse_fixed_kernel(GM_ADDR dst, GM_ADDR sendbuf, GM_ADDR input, uint32_t bytes,
                                                             uint32_t rounds, uint32_t work)
{
    run(dst, sendbuf, input, bytes, rounds, work, true);
}

void launch_src_reuse(bool fixed, void* stream, uint8_t* dst, uint8_t* sendbuf, uint8_t* input, uint32_t bytes,
                      uint32_t rounds, uint32_t work)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(src_reuse_fixed_kernel)(1, stream, dst, sendbuf, input, bytes, rounds, work);
    else
        ACLRT_LAUNCH_KERNEL(src_reuse_buggy_kernel)(1, stream, dst, sendbuf, input, bytes, rounds, work);
}

// dst_write_race. Two AIV cores each drive their own QP to the same neighbour (one core per
// QP, as upstream requires) and each puts half of the buffer. Buggy: both put to the start
// of the destination (the slice offset was left out of the remote address), so two QPs
// write the same remote bytes with nothing ordering them. Fixed: each core writes its slice.
// `stagger_ns`: core 1 posts that much later (other work); on the default timing core 0's put
// has then completed, and only the ordering rules show the race (core 0's quiet tells core 0,
// not core 1).
#include "kernel_operator.h"
#include "shmem.h"

namespace {

__aicore__ inline void spin_ns(uint32_t delay_ns)
{
    const uint64_t until = AscendC::GetSystemCycle() + delay_ns / 20;  // 50 MHz system counter
    while (AscendC::GetSystemCycle() < until) {
    }
}

__aicore__ inline void run(GM_ADDR dst, GM_ADDR src, uint32_t bytes, uint32_t stagger_ns, bool offset_dst)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> buf;
    pipe.InitBuffer(buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
    __ubuf__ uint8_t* wqe_scratch = (__ubuf__ uint8_t*)buf.Get<uint8_t>().GetPhyAddr();
    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    const uint32_t block = AscendC::GetBlockIdx();
    const uint32_t slice = bytes / AscendC::GetBlockNum();
    const uint64_t src_off = uint64_t{block} * slice;
    const uint64_t dst_off = offset_dst ? src_off : 0;
    if (block == 1) spin_ns(stagger_ns);
    aclshmemx_udma_qp_put_nbi(dst + dst_off, src + src_off, wqe_scratch, slice, peer, block);
    aclshmemx_udma_qp_quiet(peer, block);
    aclshmemx_barrier_all_vec();
}

}  // namespace

extern "C" __global__ __aicore__ void dst_write_race_buggy_kernel(GM_ADDR dst, GM_ADDR src, uint32_t bytes,
                                                            uint32_t stagger_ns)
{
    run(dst, src, bytes, stagger_ns, false);
}

extern "C" __global__ __aicore__ void dst_write_race_fixed_kernel(GM_ADDR dst, GM_ADDR src, uint32_t bytes,
                                                            uint32_t stagger_ns)
{
    run(dst, src, bytes, stagger_ns, true);
}

void launch_dst_write_race(bool fixed, void* stream, uint8_t* dst, uint8_t* src, uint32_t bytes, uint32_t stagger_ns)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(dst_write_race_fixed_kernel)(2, stream, dst, src, bytes, stagger_ns);
    else
        ACLRT_LAUNCH_KERNEL(dst_write_race_buggy_kernel)(2, stream, dst, src, bytes, stagger_ns);
}

// unreaped_completions. Every put_nbi asks for a CQE (the default op config); quiet reaps
// them and returns the CQ slots. Buggy: the kernel ends without quiet, leaving its CQEs in
// the CQ (the next launches fill it up). Fixed: quiet before the end.
#include "kernel_operator.h"
#include "shmem.h"

namespace {
__aicore__ inline void run(GM_ADDR dst, GM_ADDR src, uint32_t bytes, uint32_t puts, bool quiet)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> buf;
    pipe.InitBuffer(buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
    __ubuf__ uint8_t* wqe_scratch = (__ubuf__ uint8_t*)buf.Get<uint8_t>().GetPhyAddr();
    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    const uint32_t slice = bytes / puts;
    for (uint32_t i = 0; i < puts; ++i)
        aclshmemx_udma_put_nbi(dst + i * slice, src + i * slice, wqe_scratch, slice, peer);
    if (quiet) aclshmemx_udma_quiet(peer);
    aclshmemx_barrier_all_vec();
}
}  // namespace

extern "C" __global__ __aicore__ void unreaped_buggy_kernel(GM_ADDR dst, GM_ADDR src, uint32_t bytes, uint32_t puts)
{
    run(dst, src, bytes, puts, false);
}

extern "C" __global__ __aicore__ void unreaped_fixed_kernel(GM_ADDR dst, GM_ADDR src, uint32_t bytes, uint32_t puts)
{
    run(dst, src, bytes, puts, true);
}

void launch_unreaped(bool fixed, void* stream, uint8_t* dst, uint8_t* src, uint32_t bytes, uint32_t puts)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(unreaped_fixed_kernel)(1, stream, dst, src, bytes, puts);
    else
        ACLRT_LAUNCH_KERNEL(unreaped_buggy_kernel)(1, stream, dst, src, bytes, puts);
}

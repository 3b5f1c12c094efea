// gm_out_of_bounds. A put of a `bytes`-long record. Buggy: the length is rounded up to whole
// 512 B blocks, so the put reads past the end of its source allocation and writes past the
// end of its destination allocation (into whatever the neighbouring allocation holds).
// Fixed: the exact length.
#include "kernel_operator.h"
#include "shmem.h"

namespace {
__aicore__ inline void run(GM_ADDR dst, GM_ADDR src, uint32_t bytes, bool exact)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> buf;
    pipe.InitBuffer(buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
    __ubuf__ uint8_t* wqe_scratch = (__ubuf__ uint8_t*)buf.Get<uint8_t>().GetPhyAddr();
    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    const uint32_t len = exact ? bytes : (bytes + 511) / 512 * 512;
    aclshmemx_udma_put_nbi(dst, src, wqe_scratch, len, peer);
    aclshmemx_udma_quiet(peer);
    aclshmemx_barrier_all_vec();
}
}  // namespace

extern "C" __global__ __aicore__ void gm_out_of_bounds_buggy_kernel(GM_ADDR dst, GM_ADDR src, uint32_t bytes)
{
    run(dst, src, bytes, false);
}

extern "C" __global__ __aicore__ void gm_out_of_bounds_fixed_kernel(GM_ADDR dst, GM_ADDR src, uint32_t bytes)
{
    run(dst, src, bytes, true);
}

void launch_gm_out_of_bounds(bool fixed, void* stream, uint8_t* dst, uint8_t* src, uint32_t bytes)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(gm_out_of_bounds_fixed_kernel)(1, stream, dst, src, bytes);
    else
        ACLRT_LAUNCH_KERNEL(gm_out_of_bounds_buggy_kernel)(1, stream, dst, src, bytes);
}

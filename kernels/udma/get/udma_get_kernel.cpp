// udma_get: each PE reads `bytes` from its right neighbour's source with get_nbi (READ), then
// quiet; `rounds` times into the same destination.
#include "kernel_operator.h"
#include "shmem.h"

extern "C" __global__ __aicore__ void udma_get_kernel(GM_ADDR dst, GM_ADDR src, uint64_t bytes, uint64_t rounds)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> buf;
    pipe.InitBuffer(buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
    __ubuf__ uint8_t* wqe_scratch = (__ubuf__ uint8_t*)buf.Get<uint8_t>().GetPhyAddr();
    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    for (uint64_t r = 0; r < rounds; ++r) {
        aclshmemx_udma_get_nbi(dst, src, wqe_scratch, static_cast<uint32_t>(bytes), peer);
        aclshmemx_udma_quiet(peer);
    }
    aclshmemx_barrier_all_vec();
}

void launch_udma_get(uint32_t block_dim, void* stream, uint8_t* dst, uint8_t* src, uint64_t bytes, uint64_t rounds)
{
    ACLRT_LAUNCH_KERNEL(udma_get_kernel)(block_dim, stream, dst, src, bytes, rounds);
}

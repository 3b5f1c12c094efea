// udma_allgather: every PE puts its slice to the same offset on every other PE (like CANN's
// udma demo), draining completions per destination, then a vector barrier.
#include "kernel_operator.h"
#include "shmem.h"

extern "C" __global__ __aicore__ void udma_allgather_kernel(GM_ADDR gva, uint64_t bytes)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> buf;
    pipe.InitBuffer(buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
    __ubuf__ uint8_t* wqe_scratch = (__ubuf__ uint8_t*)buf.Get<uint8_t>().GetPhyAddr();
    const int my_pe = aclshmem_my_pe();
    const int n_pes = aclshmem_n_pes();
    for (int i = 1; i < n_pes; ++i) {
        const int pe = (my_pe + i) % n_pes;  // staggered so PEs do not all hit one target
        aclshmemx_udma_put_nbi(gva + bytes * my_pe, gva + bytes * my_pe, wqe_scratch, static_cast<uint32_t>(bytes), pe);
        aclshmemx_udma_quiet(pe);
    }
    aclshmemx_barrier_all_vec();
}

void launch_udma_allgather(uint32_t block_dim, void* stream, uint8_t* gva, uint64_t bytes)
{
    ACLRT_LAUNCH_KERNEL(udma_allgather_kernel)(block_dim, stream, gva, bytes);
}

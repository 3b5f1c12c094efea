// bad_remote_addr. aclshmemx_udma_put_nbi takes a symmetric destination: an address in the
// symmetric heap that aclshmem_ptr translates to the target PE. Buggy: the destination was
// allocated with aclrtMalloc (ordinary device memory, not registered for remote access), so
// the engine rejects the WQE with an error CQE and quiet traps on it. Fixed: the destination
// comes from aclshmem_malloc. The kernel is the same; the host driver passes the buffer.
#include "kernel_operator.h"
#include "shmem.h"

extern "C" __global__ __aicore__ void bad_remote_addr_kernel(GM_ADDR dst, GM_ADDR src, uint32_t bytes)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> buf;
    pipe.InitBuffer(buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
    __ubuf__ uint8_t* wqe_scratch = (__ubuf__ uint8_t*)buf.Get<uint8_t>().GetPhyAddr();
    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    aclshmemx_udma_put_nbi(dst, src, wqe_scratch, bytes, peer);
    aclshmemx_udma_quiet(peer);
    aclshmemx_barrier_all_vec();
}

void launch_bad_remote_addr(void* stream, uint8_t* dst, uint8_t* src, uint32_t bytes)
{
    ACLRT_LAUNCH_KERNEL(bad_remote_addr_kernel)(1, stream, dst, src, bytes);
}

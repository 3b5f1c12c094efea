// udma_relay: built with ACLSHMEM_RELAY_SUPPORT (as upstream's relay build). Each round every
// PE puts its buffer to the right neighbour with relay_put_nbi through the PE `relay_offset`
// places to its right: the request leaves through the link toward the relay and the fabric
// forwards it to the target (the relay's kernel does nothing). With `get` it also reads the
// right neighbour's buffer back through the same relay with relay_get_nbi. quiet(pe) drains
// every relay path toward pe.
#include "kernel_operator.h"
#include "shmem.h"

extern "C" __global__ __aicore__ void udma_relay_kernel(GM_ADDR dst, GM_ADDR src, GM_ADDR got, uint64_t bytes,
                                                        uint32_t rounds, uint32_t relay_offset, uint32_t get)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> buf;
    pipe.InitBuffer(buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
    __ubuf__ uint8_t* wqe_scratch = (__ubuf__ uint8_t*)buf.Get<uint8_t>().GetPhyAddr();
    const int me = aclshmem_my_pe();
    const int n = aclshmem_n_pes();
    const int target = (me + 1) % n;
    const int relay = (me + static_cast<int>(relay_offset)) % n;
    for (uint32_t r = 0; r < rounds; ++r) {
        aclshmemx_udma_relay_put_nbi(dst, src, wqe_scratch, static_cast<uint32_t>(bytes), target, relay);
        if (get) {
            aclshmemx_udma_relay_get_nbi(got, src, wqe_scratch, static_cast<uint32_t>(bytes), target, relay);
        }
        aclshmemx_udma_quiet(target);
    }
    aclshmemx_barrier_all_vec();
}

void launch_udma_relay(uint32_t block_dim, void* stream, uint8_t* dst, uint8_t* src, uint8_t* got, uint64_t bytes,
                       uint32_t rounds, uint32_t relay_offset, uint32_t get)
{
    udma_relay_kernel<<<block_dim, nullptr, stream>>>(dst, src, got, bytes, rounds, relay_offset, get);
}

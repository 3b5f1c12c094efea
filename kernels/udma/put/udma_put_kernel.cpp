// udma_put: each PE puts `bytes` to its right neighbour `rounds` times with put_nbi; block b
// drives QP b with its own slice. Completions are drained every `quiet_every` rounds (0: only
// at the end), so the credit check keeps the SQ from overrunning. `pipe_s` selects the scalar
// WQE path instead of UB + MTE3.
#include "kernel_operator.h"
#include "shmem.h"

extern "C" __global__ __aicore__ void udma_put_kernel(GM_ADDR dst, GM_ADDR src, uint64_t bytes, uint64_t rounds,
                                                      uint64_t quiet_every, uint32_t pipe_s)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> buf;
    pipe.InitBuffer(buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
    __ubuf__ uint8_t* wqe_scratch = (__ubuf__ uint8_t*)buf.Get<uint8_t>().GetPhyAddr();

    const int my_pe = aclshmem_my_pe();
    const int peer = (my_pe + 1) % aclshmem_n_pes();
    const uint32_t block = AscendC::GetBlockIdx();
    const uint32_t blocks = AscendC::GetBlockNum();
    const uint64_t slice = bytes / blocks;
    const uint64_t offset = block * slice;
    const uint32_t len = static_cast<uint32_t>(block + 1 == blocks ? bytes - offset : slice);

    for (uint64_t r = 0; r < rounds; ++r) {
        if (pipe_s) {
            aclshmemx_udma_qp_put_nbi<uint8_t, PIPE_S>(dst + offset, src + offset, wqe_scratch, len, peer, block);
        } else {
            aclshmemx_udma_qp_put_nbi(dst + offset, src + offset, wqe_scratch, len, peer, block);
        }
        if (quiet_every != 0 && (r + 1) % quiet_every == 0) {
            aclshmemx_udma_qp_quiet(peer, block);
        }
    }
    aclshmemx_udma_qp_quiet(peer, block);
    aclshmemx_barrier_all_vec();
}

void launch_udma_put(uint32_t block_dim, void* stream, uint8_t* dst, uint8_t* src, uint64_t bytes, uint64_t rounds,
                     uint64_t quiet_every, uint32_t pipe_s)
{
    ACLRT_LAUNCH_KERNEL(udma_put_kernel)(block_dim, stream, dst, src, bytes, rounds, quiet_every, pipe_s);
}

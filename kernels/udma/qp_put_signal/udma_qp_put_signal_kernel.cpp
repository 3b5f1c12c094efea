// udma_qp_put_signal: multi-QP put with signal. Block i drives QP i: each round it puts its own
// slice of the round's buffer to the right neighbour with qp_put_signal_nbi on QP i, setting
// its own signal word (one per QP) to the round number; then it waits for the left
// neighbour's block i to signal the same round, copies the slice that signal announced into
// `seen`, and drains QP i with qp_quiet. If a signal could overtake its data, or a QP carried
// another block's slice, `seen` would not hold the sender's pattern.
#include "kernel_operator.h"
#include "shmem.h"
#include "kernels/udma/common/udma_kernel_common.h"

extern "C" __global__ __aicore__ void udma_qp_put_signal_kernel(GM_ADDR dst, GM_ADDR src, GM_ADDR seen, GM_ADDR sig,
                                                                uint64_t bytes, uint64_t rounds)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> wqe_buf, data_buf;
    pipe.InitBuffer(wqe_buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
    pipe.InitBuffer(data_buf, udma_kernel::COPY_CHUNK_BYTES);
    __ubuf__ uint8_t* wqe_scratch = (__ubuf__ uint8_t*)wqe_buf.Get<uint8_t>().GetPhyAddr();
    AscendC::LocalTensor<uint8_t> staging = data_buf.Get<uint8_t>();

    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    const uint32_t qp = AscendC::GetBlockIdx();
    const uint32_t blocks = AscendC::GetBlockNum();
    const uint64_t slice = bytes / blocks;
    const uint64_t offset = qp * slice;
    const uint64_t len = qp + 1 == blocks ? bytes - offset : slice;
    __gm__ uint64_t* my_signal = (__gm__ uint64_t*)sig + qp;

    for (uint64_t r = 0; r < rounds; ++r) {
        const uint64_t at = r * bytes + offset;
        aclshmemx_udma_qp_put_signal_nbi(dst + at, src + at, static_cast<uint32_t>(len), my_signal, r + 1, peer, qp,
                                         wqe_scratch);
        udma_kernel::wait_at_least(my_signal, r + 1);
        udma_kernel::copy_gm(seen + at, dst + at, len, staging);
        aclshmemx_udma_qp_quiet(peer, qp);
    }
    aclshmemx_barrier_all_vec();
}

void launch_udma_qp_put_signal(uint32_t block_dim, void* stream, uint8_t* dst, uint8_t* src, uint8_t* seen,
                               uint8_t* sig, uint64_t bytes, uint64_t rounds)
{
    udma_qp_put_signal_kernel<<<block_dim, nullptr, stream>>>(dst, src, seen, sig, bytes, rounds);
}

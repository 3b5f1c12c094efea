// udma_batch: each round, every PE puts (or gets) `bytes` to/from its right neighbour as one
// defer/submit batch of `ops` WQEs (ops - 1 deferred, staged in the UB workspace, then the
// submit, which copies the batch to the SQ ring in chunks with one doorbell each and is the
// only WQE asking for a CQE), then quiet (or, with quiet_each = 0, only after the last batch:
// then a later batch's chunk may find the SQ short of credit and drain the CQ first). `qp`
// picks the QP (qp_put_nbi / qp_get_nbi).
// `violate` breaks the batch contract on the second call, to show the error it gives:
// 1 another PE, 2 another sync_id, 3 another UB base, 4 another operation (a get).
#include "kernel_operator.h"
#include "shmem.h"

namespace {

__aicore__ inline void put_or_get(bool get, GM_ADDR dst, GM_ADDR src, __ubuf__ uint8_t* ws, uint32_t len, int peer,
                                  uint32_t qp, uint32_t sync_id, aclshmemx_defer_t defer)
{
    if (get) {
        aclshmemx_udma_qp_get_nbi(dst, src, ws, len, peer, qp, sync_id, defer);
    } else {
        aclshmemx_udma_qp_put_nbi(dst, src, ws, len, peer, qp, sync_id, defer);
    }
}

}  // namespace

extern "C" __global__ __aicore__ void udma_batch_kernel(GM_ADDR dst, GM_ADDR src, uint64_t bytes, uint32_t ops,
                                                        uint32_t rounds, uint32_t get, uint32_t qp, uint32_t violate,
                                                        uint32_t quiet_each)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> workspace;
    pipe.InitBuffer(workspace, 64 * (ops + 1));
    __ubuf__ uint8_t* ws = (__ubuf__ uint8_t*)workspace.Get<uint8_t>().GetPhyAddr();

    const int me = aclshmem_my_pe();
    const int peer = (me + 1) % aclshmem_n_pes();
    const uint32_t chunk = static_cast<uint32_t>(bytes / ops);
    for (uint32_t r = 0; r < rounds; ++r) {
        aclshmemx_submit_state_t state{};
        aclshmemx_defer_t defer(state);
        aclshmemx_submit_t submit(state);
        for (uint32_t i = 0; i + 1 < ops; ++i) {
            const bool second = i == 1;
            const int pe = second && violate == 1 ? (peer + 1) % aclshmem_n_pes() : peer;
            const uint32_t sync_id = second && violate == 2 ? 1 : 0;
            __ubuf__ uint8_t* base = second && violate == 3 ? ws + 64 : ws;
            const bool as_get = second && violate == 4 ? !get : get != 0;
            put_or_get(as_get, dst + i * chunk, src + i * chunk, base, chunk, pe, qp, sync_id, defer);
        }
        const uint64_t last = uint64_t{ops - 1} * chunk;
        if (get) {
            aclshmemx_udma_qp_get_nbi(dst + last, src + last, ws, static_cast<uint32_t>(bytes - last), peer, qp, 0,
                                      submit);
        } else {
            aclshmemx_udma_qp_put_nbi(dst + last, src + last, ws, static_cast<uint32_t>(bytes - last), peer, qp, 0,
                                      submit);
        }
        if (quiet_each) {
            aclshmemx_udma_qp_quiet(peer, qp);
        }
    }
    aclshmemx_udma_qp_quiet(peer, qp);
    aclshmemx_barrier_all_vec();
}

void launch_udma_batch(uint32_t block_dim, void* stream, uint8_t* dst, uint8_t* src, uint64_t bytes, uint32_t ops,
                       uint32_t rounds, uint32_t get, uint32_t qp, uint32_t violate, uint32_t quiet_each)
{
    udma_batch_kernel<<<block_dim, nullptr, stream>>>(dst, src, bytes, ops, rounds, get, qp, violate, quiet_each);
}

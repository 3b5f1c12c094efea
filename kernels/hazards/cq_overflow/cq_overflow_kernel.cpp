// cq_overflow. Buggy: like the MoE dispatch kernel, every hand-written WQE asks for a CQE
// (flag 0x20) and no CQE is ever polled; each launch leaves its completions in the CQ, and a
// later launch overflows it. Fixed: before it ends, the kernel reaps its launch's CQEs and
// returns the slots with the CQ doorbell.
#include "kernels/hazards/common/direct_drive.h"

using namespace hazard_dd;

namespace {
constexpr uint32_t CHUNK = 512;

__aicore__ inline void run(GM_ADDR tables, GM_ADDR dst, GM_ADDR src, uint32_t wqes, bool reap)
{
    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    const Qp q = qp_of(tables, peer, 0);
    const uint32_t head = q.sq->head;
    uint8_t wqe[64];
    for (uint32_t i = 0; i < wqes; ++i) {
        encode_write(wqe, q, reinterpret_cast<uint64_t>(aclshmem_ptr(dst + i * CHUNK, peer)),
                     reinterpret_cast<uint64_t>(src + i * CHUNK), CHUNK, true, q.mem->rmt_token_value);
        store_wqe(q, head + i, wqe);
    }
    st_dev(head + wqes, reinterpret_cast<__gm__ uint32_t*>(q.sq->db_addr), 0);
    q.sq->head = head + wqes;
    if (reap) {
        for (uint32_t i = 0; i < wqes; ++i) {
            uint8_t sub = 0;
            if (poll_cqe(q, q.cq->tail + i, &sub) != 0) trap();
        }
        q.cq->tail += wqes;
        st_dev(q.cq->tail & 0xFFFFFFu, reinterpret_cast<__gm__ uint32_t*>(q.cq->db_addr), 0);
        q.sq->tail = head + wqes;
    }
    aclshmemx_barrier_all_vec();
}
}  // namespace

extern "C" __global__ __aicore__ void cq_overflow_buggy_kernel(GM_ADDR tables, GM_ADDR dst, GM_ADDR src, uint32_t wqes)
{
    run(tables, dst, src, wqes, false);
}

extern "C" __global__ __aicore__ void cq_overflow_fixed_kernel(GM_ADDR tables, GM_ADDR dst, GM_ADDR src, uint32_t wqes)
{
    run(tables, dst, src, wqes, true);
}

void launch_cq_overflow(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t wqes)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(cq_overflow_fixed_kernel)(1, stream, tables, dst, src, wqes);
    else
        ACLRT_LAUNCH_KERNEL(cq_overflow_buggy_kernel)(1, stream, tables, dst, src, wqes);
}

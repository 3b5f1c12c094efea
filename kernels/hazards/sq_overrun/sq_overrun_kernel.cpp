// sq_overrun. Buggy: like the MoE dispatch kernel, it writes a whole batch of WQEs into the
// SQ ring by hand and rings the doorbell once, with no credit check: a batch larger than the
// ring overwrites WQEs the engine has not read yet. Fixed: it posts at most
// depth - head + tail - guard WQEs per doorbell and reaps the batch's completion before the
// next one (CANN SHMEM's credit rule).
#include "kernels/hazards/common/direct_drive.h"

using namespace hazard_dd;

namespace {
constexpr uint32_t CHUNK = 512;   // bytes per WQE
constexpr uint32_t GUARD = 10;    // ACLSHMEM_UDMA_AGGREGATE_CREDIT_GUARD
}

extern "C" __global__ __aicore__ void sq_overrun_buggy_kernel(GM_ADDR tables, GM_ADDR dst, GM_ADDR src, uint32_t wqes)
{
    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    const Qp q = qp_of(tables, peer, 0);
    const uint32_t head = q.sq->head;
    uint8_t wqe[64];
    for (uint32_t i = 0; i < wqes; ++i) {
        encode_write(wqe, q, reinterpret_cast<uint64_t>(aclshmem_ptr(dst + i * CHUNK, peer)),
                     reinterpret_cast<uint64_t>(src + i * CHUNK), CHUNK, false, q.mem->rmt_token_value);
        store_wqe(q, head + i, wqe);
    }
    st_dev(head + wqes, reinterpret_cast<__gm__ uint32_t*>(q.sq->db_addr), 0);  // one doorbell per batch
    q.sq->head = head + wqes;
    aclshmemx_barrier_all_vec();
}

extern "C" __global__ __aicore__ void sq_overrun_fixed_kernel(GM_ADDR tables, GM_ADDR dst, GM_ADDR src, uint32_t wqes)
{
    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    const Qp q = qp_of(tables, peer, 0);
    uint8_t wqe[64];
    uint32_t posted = 0;
    while (posted < wqes) {
        const uint32_t head = q.sq->head;
        const uint32_t credit = q.sq->depth - (head - q.sq->tail) - GUARD;
        const uint32_t n = wqes - posted < credit ? wqes - posted : credit;
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t k = posted + i;
            encode_write(wqe, q, reinterpret_cast<uint64_t>(aclshmem_ptr(dst + k * CHUNK, peer)),
                         reinterpret_cast<uint64_t>(src + k * CHUNK), CHUNK, i + 1 == n, q.mem->rmt_token_value);
            store_wqe(q, head + i, wqe);
        }
        st_dev(head + n, reinterpret_cast<__gm__ uint32_t*>(q.sq->db_addr), 0);
        q.sq->head = head + n;
        posted += n;
        // The batch's last WQE asked for a CQE: once it is in, every slot of the batch is free.
        uint8_t sub = 0;
        if (poll_cqe(q, q.cq->tail, &sub) != 0) trap();
        q.cq->tail += 1;
        st_dev(q.cq->tail & 0xFFFFFFu, reinterpret_cast<__gm__ uint32_t*>(q.cq->db_addr), 0);
        q.sq->tail = head + n;
    }
    aclshmemx_barrier_all_vec();
}

void launch_sq_overrun(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t wqes)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(sq_overrun_fixed_kernel)(1, stream, tables, dst, src, wqes);
    else
        ACLRT_LAUNCH_KERNEL(sq_overrun_buggy_kernel)(1, stream, tables, dst, src, wqes);
}

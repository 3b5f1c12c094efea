// cqe_error_unchecked. The kernel drives its QP by hand and reaps every CQE. Buggy: its
// poller only waits for the owner bit and returns the slot, never looking at the status, so
// an error completion (here injected by a cqe_error fault) goes unnoticed. Fixed: it checks
// status and substatus and stops the kernel on an error, as CANN SHMEM's poll_cq does.
#include "kernels/hazards/common/direct_drive.h"

using namespace hazard_dd;

namespace {
constexpr uint32_t CHUNK = 512;

__aicore__ inline void run(GM_ADDR tables, GM_ADDR dst, GM_ADDR src, uint32_t wqes, bool check_status)
{
    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    const Qp q = qp_of(tables, peer, 0);
    uint8_t wqe[64];
    for (uint32_t i = 0; i < wqes; ++i) {
        const uint32_t head = q.sq->head;
        encode_write(wqe, q, reinterpret_cast<uint64_t>(aclshmem_ptr(dst + i * CHUNK, peer)),
                     reinterpret_cast<uint64_t>(src + i * CHUNK), CHUNK, true, q.mem->rmt_token_value);
        store_wqe(q, head, wqe);
        st_dev(head + 1, reinterpret_cast<__gm__ uint32_t*>(q.sq->db_addr), 0);
        q.sq->head = head + 1;
    }
    for (uint32_t i = 0; i < wqes; ++i) {
        uint8_t sub = 0;
        const int status = poll_cqe(q, q.cq->tail, &sub);
        if (status < 0) trap();  // never completed
        if (check_status && (status != 0 || sub != 0)) {
            AscendC::printf("error CQE %u: status %d substatus %u\n", q.cq->tail, status, sub);
            trap();
        }
        q.cq->tail += 1;
        st_dev(q.cq->tail & 0xFFFFFFu, reinterpret_cast<__gm__ uint32_t*>(q.cq->db_addr), 0);
    }
    q.sq->tail = q.sq->head;  // no device barrier: a PE that stops on an error would hang its peer in it
}
}  // namespace

extern "C" __global__ __aicore__ void cqe_error_unchecked_buggy_kernel(GM_ADDR tables, GM_ADDR dst, GM_ADDR src,
                                                                       uint32_t wqes)
{
    run(tables, dst, src, wqes, false);
}

extern "C" __global__ __aicore__ void cqe_error_unchecked_fixed_kernel(GM_ADDR tables, GM_ADDR dst, GM_ADDR src,
                                                                       uint32_t wqes)
{
    run(tables, dst, src, wqes, true);
}

void launch_cqe_error_unchecked(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t wqes)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(cqe_error_unchecked_fixed_kernel)(1, stream, tables, dst, src, wqes);
    else
        ACLRT_LAUNCH_KERNEL(cqe_error_unchecked_buggy_kernel)(1, stream, tables, dst, src, wqes);
}

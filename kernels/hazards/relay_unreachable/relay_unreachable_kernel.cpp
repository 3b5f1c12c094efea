// relay_unreachable. A hand-written WQE posted on the QP toward the right neighbour but
// carrying the endpoint id of another PE (the table row was indexed with the wrong PE): the
// engine cannot reach that endpoint on this QP's path and completes it with an error CQE,
// which the kernel's poller turns into a trap. Fixed: the EID from the QP's own row.
#include "kernels/hazards/common/direct_drive.h"

using namespace hazard_dd;

namespace {
__aicore__ inline void run(GM_ADDR tables, GM_ADDR dst, GM_ADDR src, uint32_t bytes, bool right_row)
{
    const int n = aclshmem_n_pes();
    const int peer = (aclshmem_my_pe() + 1) % n;
    const Qp q = qp_of(tables, peer, 0);
    const Qp eid_row = qp_of(tables, right_row ? peer : (peer + 1) % n, 0);
    const uint32_t head = q.sq->head;
    uint8_t wqe[64];
    Qp mixed = q;
    mixed.mem = eid_row.mem;  // tpn, tid, EID and token all come from this row
    encode_write(wqe, mixed, reinterpret_cast<uint64_t>(aclshmem_ptr(dst, peer)), reinterpret_cast<uint64_t>(src), bytes,
                 true, q.mem->rmt_token_value);
    store_wqe(q, head, wqe);
    st_dev(head + 1, reinterpret_cast<__gm__ uint32_t*>(q.sq->db_addr), 0);
    q.sq->head = head + 1;
    uint8_t sub = 0;
    if (poll_cqe(q, q.cq->tail, &sub) != 0) trap();
    q.cq->tail += 1;
    st_dev(q.cq->tail & 0xFFFFFFu, reinterpret_cast<__gm__ uint32_t*>(q.cq->db_addr), 0);
    q.sq->tail = head + 1;
    aclshmemx_barrier_all_vec();
}
}  // namespace

extern "C" __global__ __aicore__ void relay_unreachable_buggy_kernel(GM_ADDR tables, GM_ADDR dst, GM_ADDR src,
                                                                     uint32_t bytes)
{
    run(tables, dst, src, bytes, false);
}

extern "C" __global__ __aicore__ void relay_unreachable_fixed_kernel(GM_ADDR tables, GM_ADDR dst, GM_ADDR src,
                                                                     uint32_t bytes)
{
    run(tables, dst, src, bytes, true);
}

void launch_relay_unreachable(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t bytes)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(relay_unreachable_fixed_kernel)(1, stream, tables, dst, src, bytes);
    else
        ACLRT_LAUNCH_KERNEL(relay_unreachable_buggy_kernel)(1, stream, tables, dst, src, bytes);
}

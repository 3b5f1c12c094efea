// token_mismatch. Like simt_write_wqe_v4 in the MoE dispatch kernel, the buggy kernel writes
// its WQE by hand with token_en set and the remote token field left 0, while the target's
// memory was registered with a non-zero token: the engine completes it with an error CQE and
// the kernel's poller (which checks the status, as upstream does) stops the kernel. Fixed:
// the token comes from the QP's memory info (rmt_token_value).
#include "kernels/hazards/common/direct_drive.h"

using namespace hazard_dd;

namespace {
__aicore__ inline void run(GM_ADDR tables, GM_ADDR dst, GM_ADDR src, uint32_t bytes, bool fill_token)
{
    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    const Qp q = qp_of(tables, peer, 0);
    const uint32_t head = q.sq->head;
    uint8_t wqe[64];
    encode_write(wqe, q, reinterpret_cast<uint64_t>(aclshmem_ptr(dst, peer)), reinterpret_cast<uint64_t>(src), bytes,
                 true, fill_token ? q.mem->rmt_token_value : 0u);
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

extern "C" __global__ __aicore__ void token_mismatch_buggy_kernel(GM_ADDR tables, GM_ADDR dst, GM_ADDR src, uint32_t bytes)
{
    run(tables, dst, src, bytes, false);
}

extern "C" __global__ __aicore__ void token_mismatch_fixed_kernel(GM_ADDR tables, GM_ADDR dst, GM_ADDR src, uint32_t bytes)
{
    run(tables, dst, src, bytes, true);
}

void launch_token_mismatch(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t bytes)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(token_mismatch_fixed_kernel)(1, stream, tables, dst, src, bytes);
    else
        ACLRT_LAUNCH_KERNEL(token_mismatch_buggy_kernel)(1, stream, tables, dst, src, bytes);
}

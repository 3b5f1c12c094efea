// qp_multi_producer. Two AIV cores post by hand, each reading the SQ head, writing its WQE
// at that slot, ringing the doorbell with head + 1 and storing the new head. Buggy: both use
// QP 0, so the read-modify-write of one head by two cores races (no atomic reservation).
// Fixed: each core drives its own QP (qp_idx = block), as upstream's multi-QP example does.
// `stagger_ns`: core 1 starts that much later (other work); on the default timing core 0 has
// then posted all its WQEs, and only the ordering rules show the race.
#include "kernels/hazards/common/direct_drive.h"

using namespace hazard_dd;

namespace {
constexpr uint32_t CHUNK = 512;

__aicore__ inline void spin_ns(uint32_t delay_ns)
{
    const uint64_t until = AscendC::GetSystemCycle() + delay_ns / 20;  // 50 MHz system counter
    while (AscendC::GetSystemCycle() < until) {
    }
}

__aicore__ inline void run(GM_ADDR tables, GM_ADDR dst, GM_ADDR src, uint32_t wqes, uint32_t stagger_ns, bool own_qp)
{
    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    const uint32_t block = AscendC::GetBlockIdx();
    const Qp q = qp_of(tables, peer, own_qp ? block : 0);
    if (block == 1) spin_ns(stagger_ns);
    uint8_t wqe[64];
    for (uint32_t i = 0; i < wqes; ++i) {
        const uint64_t off = (uint64_t{block} * wqes + i) * CHUNK;
        dcci(&q.sq->head, cache_line_t::SINGLE_CACHE_LINE);
        const uint32_t head = q.sq->head;  // a plain read: another core may hold the same value
        encode_write(wqe, q, reinterpret_cast<uint64_t>(aclshmem_ptr(dst + off, peer)),
                     reinterpret_cast<uint64_t>(src + off), CHUNK, false, q.mem->rmt_token_value);
        store_wqe(q, head, wqe);
        st_dev(head + 1, reinterpret_cast<__gm__ uint32_t*>(q.sq->db_addr), 0);
        q.sq->head = head + 1;
    }
    aclshmemx_barrier_all_vec();
}
}  // namespace

extern "C" __global__ __aicore__ void qp_multi_producer_buggy_kernel(GM_ADDR tables, GM_ADDR dst, GM_ADDR src,
                                                                     uint32_t wqes, uint32_t stagger_ns)
{
    run(tables, dst, src, wqes, stagger_ns, false);
}

extern "C" __global__ __aicore__ void qp_multi_producer_fixed_kernel(GM_ADDR tables, GM_ADDR dst, GM_ADDR src,
                                                                     uint32_t wqes, uint32_t stagger_ns)
{
    run(tables, dst, src, wqes, stagger_ns, true);
}

void launch_qp_multi_producer(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t wqes,
                              uint32_t stagger_ns)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(qp_multi_producer_fixed_kernel)(2, stream, tables, dst, src, wqes, stagger_ns);
    else
        ACLRT_LAUNCH_KERNEL(qp_multi_producer_buggy_kernel)(2, stream, tables, dst, src, wqes, stagger_ns);
}

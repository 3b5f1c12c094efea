// doorbell_regression. The doorbell carries the unmasked, monotonic 32-bit producer index.
// Buggy: the kernel rings it with head % depth (the ring slot), which jumps back to 0 when
// the head wraps; the engine ignores a doorbell that goes backwards, so the WQEs posted after
// the wrap never run. Fixed: the unmasked head.
#include "kernels/hazards/common/direct_drive.h"

using namespace hazard_dd;

namespace {
constexpr uint32_t CHUNK = 512;

__aicore__ inline void run(GM_ADDR tables, GM_ADDR dst, GM_ADDR src, uint32_t wqes, bool unmasked)
{
    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    const Qp q = qp_of(tables, peer, 0);
    uint8_t wqe[64];
    for (uint32_t i = 0; i < wqes; ++i) {
        const uint32_t head = q.sq->head;
        encode_write(wqe, q, reinterpret_cast<uint64_t>(aclshmem_ptr(dst + i * CHUNK, peer)),
                     reinterpret_cast<uint64_t>(src + i * CHUNK), CHUNK, false, q.mem->rmt_token_value);
        store_wqe(q, head, wqe);
        const uint32_t producer = unmasked ? head + 1 : (head + 1) & (q.sq->depth - 1);
        st_dev(producer, reinterpret_cast<__gm__ uint32_t*>(q.sq->db_addr), 0);
        q.sq->head = head + 1;
    }
    aclshmemx_barrier_all_vec();
}
}  // namespace

extern "C" __global__ __aicore__ void doorbell_regression_buggy_kernel(GM_ADDR tables, GM_ADDR dst, GM_ADDR src,
                                                                       uint32_t wqes)
{
    run(tables, dst, src, wqes, false);
}

extern "C" __global__ __aicore__ void doorbell_regression_fixed_kernel(GM_ADDR tables, GM_ADDR dst, GM_ADDR src,
                                                                       uint32_t wqes)
{
    run(tables, dst, src, wqes, true);
}

void launch_doorbell_regression(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* src, uint32_t wqes)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(doorbell_regression_fixed_kernel)(1, stream, tables, dst, src, wqes);
    else
        ACLRT_LAUNCH_KERNEL(doorbell_regression_buggy_kernel)(1, stream, tables, dst, src, wqes);
}

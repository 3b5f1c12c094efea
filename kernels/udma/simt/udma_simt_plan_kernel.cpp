// udma_simt_plan: the SIMT-planning pattern of MoE dispatch kernels. A VF of `threads` SIMT
// threads plans the transfer: each thread squares its index into UB, waits at a barrier and
// reads its neighbour's square (only right after the barrier is it there), then claims a
// descriptor slot with atomicAdd on a UB cursor, writes its chunk's descriptor there with one
// 32-byte store, fences, marks the slot in a UB bitmap with atomicOr and counts itself in a GM
// word with atomicAdd. Back in scalar code the block posts one put per descriptor, in slot
// order, as one defer/submit batch (doorbells are rung from scalar code: st_dev in a VF stops
// the kernel, which `doorbell_in_vf` shows).
#include "kernel_operator.h"
#include "shmem.h"
#include "simt_api/asc_simt.h"
#include "simt_api/device_sync_functions.h"

namespace {

__simt_vf__ LAUNCH_BOUND(1024) inline void plan_chunks_vf(__ubuf__ ulonglong4* table, __ubuf__ uint32_t* cursor,
                                                          __ubuf__ uint32_t* bitmap, __ubuf__ uint64_t* squares,
                                                          __gm__ uint64_t* neighbour_squares, __gm__ uint32_t* planned,
                                                          uint64_t chunk_bytes, uint32_t doorbell_in_vf,
                                                          __gm__ uint32_t* doorbell)
{
    const uint32_t tid = AscendC::Simt::GetThreadIdx<0>();
    const uint32_t n = blockDim.x;
    squares[tid] = static_cast<uint64_t>(tid) * tid;
    AscendC::Simt::ThreadBarrier();
    neighbour_squares[threadIdx.x] = squares[(tid + 1) % n];

    const uint32_t slot = atomicAdd(cursor, 1U);
    table[slot] = make_ulonglong4(tid * chunk_bytes, chunk_bytes, tid, 0);
    asc_threadfence();
    atomicOr(bitmap + slot / 32, 1U << (slot % 32));
    atomicAdd(planned, 1U);
    if (doorbell_in_vf != 0 && tid == 3) {
        st_dev(1U, doorbell, 0);
    }
}

}  // namespace

extern "C" __global__ __aicore__ void udma_simt_plan_kernel(GM_ADDR dst, GM_ADDR src, GM_ADDR neighbour_squares,
                                                            GM_ADDR planned, uint64_t bytes, uint32_t threads,
                                                            uint32_t doorbell_in_vf)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> table_buf, cursor_buf, bitmap_buf, squares_buf, wqe_buf;
    pipe.InitBuffer(table_buf, 32 * threads);
    pipe.InitBuffer(cursor_buf, 32);
    pipe.InitBuffer(bitmap_buf, 32 * ((threads + 255) / 256));
    pipe.InitBuffer(squares_buf, 8 * threads);
    pipe.InitBuffer(wqe_buf, 64 * threads);
    __ubuf__ ulonglong4* table = (__ubuf__ ulonglong4*)table_buf.Get<uint8_t>().GetPhyAddr();
    AscendC::LocalTensor<uint32_t> cursor = cursor_buf.Get<uint32_t>();
    AscendC::LocalTensor<uint32_t> bitmap = bitmap_buf.Get<uint32_t>();
    cursor.SetValue(0, 0);
    for (uint32_t w = 0; w < bitmap.GetSize(); ++w) {
        bitmap.SetValue(w, 0);
    }

    const uint64_t chunk = bytes / threads;
    AscendC::Simt::VF_CALL<plan_chunks_vf>(AscendC::Simt::Dim3{threads, 1, 1}, table, cursor.GetPhyAddr(),
                                           bitmap.GetPhyAddr(), (__ubuf__ uint64_t*)squares_buf.Get<uint8_t>().GetPhyAddr(),
                                           (__gm__ uint64_t*)neighbour_squares, (__gm__ uint32_t*)planned, chunk,
                                           doorbell_in_vf, (__gm__ uint32_t*)planned);

    // Every slot must be marked before the scalar side reads the table.
    for (uint32_t slot = 0; slot < threads; ++slot) {
        if ((bitmap.GetValue(slot / 32) >> (slot % 32) & 1U) == 0) {
            trap();
        }
    }
    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    __ubuf__ uint8_t* ws = (__ubuf__ uint8_t*)wqe_buf.Get<uint8_t>().GetPhyAddr();
    aclshmemx_submit_state_t state{};
    aclshmemx_defer_t defer(state);
    aclshmemx_submit_t submit(state);
    for (uint32_t slot = 0; slot < threads; ++slot) {
        const uint64_t offset = table[slot].x;
        const uint32_t len = static_cast<uint32_t>(table[slot].y);
        if (slot + 1 < threads) {
            aclshmemx_udma_put_nbi(dst + offset, src + offset, ws, len, peer, 0, defer);
        } else {
            aclshmemx_udma_put_nbi(dst + offset, src + offset, ws, len, peer, 0, submit);
        }
    }
    aclshmemx_udma_quiet(peer);
    aclshmemx_barrier_all_vec();
}

void launch_udma_simt_plan(uint32_t block_dim, void* stream, uint8_t* dst, uint8_t* src, uint8_t* neighbour_squares,
                           uint8_t* planned, uint64_t bytes, uint32_t threads, uint32_t doorbell_in_vf)
{
    udma_simt_plan_kernel<<<block_dim, nullptr, stream>>>(dst, src, neighbour_squares, planned, bytes, threads,
                                                          doorbell_in_vf);
}

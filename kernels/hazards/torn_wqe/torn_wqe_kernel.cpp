// torn_wqe. The kernel stages its payload into the send buffer and its WQE into the SQ ring,
// both with MTE3 copies from UB, as upstream's PIPE_MTE3 path does. Buggy: it rings the
// doorbell right after queueing the WQE copy, without SetFlag/WaitFlag<MTE3_S>: the copy is
// still behind the payload on MTE3, so the engine fetches the slot's stale bytes. Fixed: the
// MTE3 -> S flag pair before st_dev.
#include "kernels/hazards/common/direct_drive.h"

using namespace hazard_dd;

namespace {

__aicore__ inline void run(GM_ADDR tables, GM_ADDR dst, GM_ADDR sendbuf, GM_ADDR input, uint32_t bytes, bool fixed)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> data_buf, wqe_buf;
    pipe.InitBuffer(data_buf, bytes);
    pipe.InitBuffer(wqe_buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
    AscendC::LocalTensor<uint8_t> data = data_buf.Get<uint8_t>();
    AscendC::LocalTensor<uint8_t> wqe = wqe_buf.Get<uint8_t>();
    AscendC::GlobalTensor<uint8_t> in, send, ring;
    in.SetGlobalBuffer(input, bytes);
    send.SetGlobalBuffer(sendbuf, bytes);

    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    const Qp q = qp_of(tables, peer, 0);
    // Pack the payload into the send buffer (MTE2 in, MTE3 out).
    AscendC::DataCopy(data, in, bytes);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::DataCopy(send, data, bytes);
    // Build the WQE in UB and copy it into the ring slot, behind the payload on MTE3.
    const uint32_t head = q.sq->head;
    encode_write(wqe.GetPhyAddr(), q, reinterpret_cast<uint64_t>(aclshmem_ptr(dst, peer)),
                 reinterpret_cast<uint64_t>(sendbuf), bytes, true, q.mem->rmt_token_value);
    AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID1);
    ring.SetGlobalBuffer(slot_of(q, head), symsim::udma::kWqebbBytes);
    AscendC::DataCopyPad(ring, wqe, {1, symsim::udma::kWqebbBytes, 0, 0, 0});
    if (fixed) {
        AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID1);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID1);
    }
    st_dev(head + 1, reinterpret_cast<__gm__ uint32_t*>(q.sq->db_addr), 0);
    q.sq->head = head + 1;
    // Reap the completion as upstream's poll_cq does: an error CQE stops the kernel.
    uint8_t sub = 0;
    if (poll_cqe(q, q.cq->tail, &sub) != 0) trap();
    q.cq->tail += 1;
    st_dev(q.cq->tail & 0xFFFFFFu, reinterpret_cast<__gm__ uint32_t*>(q.cq->db_addr), 0);
    q.sq->tail = head + 1;
    aclshmemx_barrier_all_vec();
}

}  // namespace

extern "C" __global__ __aicore__ void torn_wqe_buggy_kernel(GM_ADDR tables, GM_ADDR dst, GM_ADDR sendbuf, GM_ADDR input,
                                                            uint32_t bytes)
{
    run(tables, dst, sendbuf, input, bytes, false);
}

extern "C" __global__ __aicore__ void torn_wqe_fixed_kernel(GM_ADDR tables, GM_ADDR dst, GM_ADDR sendbuf, GM_ADDR input,
                                                            uint32_t bytes)
{
    run(tables, dst, sendbuf, input, bytes, true);
}

void launch_torn_wqe(bool fixed, void* stream, uint8_t* tables, uint8_t* dst, uint8_t* sendbuf, uint8_t* input,
                     uint32_t bytes)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(torn_wqe_fixed_kernel)(1, stream, tables, dst, sendbuf, input, bytes);
    else
        ACLRT_LAUNCH_KERNEL(torn_wqe_buggy_kernel)(1, stream, tables, dst, sendbuf, input, bytes);
}

// Direct drive, as the MoE dispatch kernel of the seed article does it: the kernel finds a
// QP's SQ/CQ contexts in SHMEM's device tables, writes WQE bytes into the SQ ring itself (the
// layout of models/ascend/wqe_layout.h), rings the doorbell with st_dev, and polls CQEs by
// hand. Nothing here checks credits, tokens or ordering: that is the point of the buggy
// kernels that use it (the SHMEM API would have prevented their bugs).
#pragma once
#include <cstdint>
#include <cstring>

#include "kernel_operator.h"
#include "models/ascend/ring.h"
#include "models/ascend/wqe_layout.h"
#include "shmem.h"

namespace hazard_dd {

struct Qp {
  __gm__ aclshmemi_udma_wq_ctx_t* sq;
  __gm__ aclshmemi_udma_cq_ctx_t* cq;
  __gm__ aclshmemi_ubmem_info_t* mem;
};

// The QP toward `pe` with index `qp`, from the device tables at `udma_info`.
inline Qp qp_of(GM_ADDR udma_info, int pe, uint32_t qp)
{
    auto* info = reinterpret_cast<__gm__ aclshmemi_aiv_udma_info_t*>(udma_info);
    const uint64_t i = uint64_t(pe) * info->qp_num + qp;
    return {reinterpret_cast<__gm__ aclshmemi_udma_wq_ctx_t*>(info->direct.sq_ptr) + i,
            reinterpret_cast<__gm__ aclshmemi_udma_cq_ctx_t*>(info->direct.scq_ptr) + i,
            reinterpret_cast<__gm__ aclshmemi_ubmem_info_t*>(info->direct.mem_ptr) + i};
}

// A WRITE of `bytes` from `local` to `remote` (already translated to the target PE), as 64 B.
inline void encode_write(uint8_t* out, const Qp& q, uint64_t remote, uint64_t local, uint32_t bytes, bool cqe,
                         uint32_t token)
{
    symsim::udma::Wqe w;
    w.opcode = symsim::udma::kWrite;
    w.flags = static_cast<uint8_t>((cqe ? symsim::udma::flag::kCqe : 0) | symsim::udma::kOdrRelaxed);
    w.token_en = true;
    w.rmt_jetty_type = 1;
    w.tp_id = q.mem->tpn;
    w.sge_num = 1;
    w.rmt_jetty_or_seg_id = q.mem->tid;
    std::memcpy(w.rmt_eid.data(), reinterpret_cast<const void*>(q.mem->eid_addr), 16);
    w.rmt_token_value = token;
    w.remote_va = remote;
    w.len = bytes;
    w.local_va = local;
    symsim::udma::encode(w, out);
}

// The ring slot of producer index `head`.
inline __gm__ uint8_t* slot_of(const Qp& q, uint32_t head)
{
    return reinterpret_cast<__gm__ uint8_t*>(q.sq->buf_addr) +
           uint64_t{symsim::udma::ring_slot(head, q.sq->depth)} * symsim::udma::kWqebbBytes;
}

// Scalar stores of one WQEBB into the ring (PIPE_S), then dcci so the engine sees them.
inline void store_wqe(const Qp& q, uint32_t head, const uint8_t* wqe)
{
    __gm__ uint8_t* slot = slot_of(q, head);
    std::memcpy(slot, wqe, symsim::udma::kWqebbBytes);
    dcci(reinterpret_cast<__gm__ uint64_t*>(slot), cache_line_t::SINGLE_CACHE_LINE);
}

// Polls CQE `index` of `q` (dcci + owner bit) until it is ready; returns its status byte
// (0: success) and its substatus in `*substatus`, or -1 after `max_polls`.
inline int poll_cqe(const Qp& q, uint32_t index, uint8_t* substatus, uint32_t max_polls = 1000000)
{
    const __gm__ uint8_t* cqe = reinterpret_cast<const __gm__ uint8_t*>(q.cq->buf_addr) +
                                uint64_t{symsim::udma::ring_slot(index, q.cq->depth)} * symsim::udma::kCqeBytes;
    for (uint32_t i = 0; i < max_polls; ++i) {
        dcci(reinterpret_cast<const __gm__ uint64_t*>(cqe), cache_line_t::SINGLE_CACHE_LINE);
        if (symsim::udma::cqe_ready(symsim::udma::cqe_owner(cqe), index, q.cq->depth)) {
            const symsim::udma::Cqe e = symsim::udma::decode_cqe(cqe);
            *substatus = e.substatus;
            return e.status;
        }
    }
    return -1;
}

}  // namespace hazard_dd

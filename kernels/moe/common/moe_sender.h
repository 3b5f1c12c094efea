// Sends a stream of (local, remote, bytes, destination rank) writes from one writer AIV core,
// in one of three ways (moe::Variant):
//  - API: one aclshmemx_udma_qp_put_nbi each on the core's own QP, qp_quiet toward every rank
//    at the end (the library does credits and completion accounting);
//  - direct drive, closed loop: descriptors gather in UB; per batch of up to 128 a SIMT VF
//    classifies them per SQ (destination rank, this core's jetty), the scalar side checks the
//    credit of each active SQ (reaping CQEs when short), a second VF reserves one contiguous
//    head range per SQ with a single atomicAdd and writes the WQEs in parallel, then the scalar
//    side rings one doorbell per active SQ. Only the last WQE of an SQ's batch asks for a CQE;
//    the kernel reaps every CQE before it ends, so the source buffers are free for reuse;
//  - direct drive, open loop: as the article's kernel, no credit check, a CQE on every WQE and
//    no reaping (the checkers catch it after repeated launches).
#pragma once
#include <cstdint>

#include "kernel_operator.h"
#include "kernels/moe/common/moe_tiling.h"
#include "shmem.h"
#include "simt_api/asc_simt.h"
#include "simt_api/device_sync_functions.h"

namespace moe {

constexpr uint8_t kOpWrite = 3;                // UDMA_OPCODE_WRITE
constexpr uint8_t kWqeFlagCqe = 0x20;          // flag byte bit 5
constexpr uint8_t kWqeOdrRelaxed = 1;          // ACLSHMEMX_UDMA_ODR_RO
constexpr uint32_t kMaxCqePolls = 1000000;     // as CANN SHMEM's MAX_RETRY_TIMES

// The SQ, CQ and remote-memory contexts of (pe, qp) in SHMEM's device tables.
struct QpCtx {
  __gm__ aclshmemi_udma_wq_ctx_t* sq;
  __gm__ aclshmemi_udma_cq_ctx_t* cq;
  __gm__ aclshmemi_ubmem_info_t* mem;
};

__simt_callee__ inline QpCtx qp_ctx(uint64_t udma_info, uint32_t pe, uint32_t qp)
{
    auto* info = reinterpret_cast<__gm__ aclshmemi_aiv_udma_info_t*>(udma_info);
    const uint64_t i = uint64_t{pe} * info->qp_num + qp;
    return {reinterpret_cast<__gm__ aclshmemi_udma_wq_ctx_t*>(info->direct.sq_ptr) + i,
            reinterpret_cast<__gm__ aclshmemi_udma_cq_ctx_t*>(info->direct.scq_ptr) + i,
            reinterpret_cast<__gm__ aclshmemi_ubmem_info_t*>(info->direct.mem_ptr) + i};
}

// One 64 B WRITE WQE (48 B SQE + 16 B SGE) at producer index `head`, as two 32 B stores.
__simt_callee__ inline void simt_write_wqe(const QpCtx& q, uint32_t head, uint64_t local, uint64_t remote,
                                           uint32_t len, bool cqe)
{
    const uint32_t depth = q.sq->depth;
    const uint64_t flag = (cqe ? kWqeFlagCqe : 0) | kWqeOdrRelaxed;
    const uint64_t owner = (head & depth) == 0 ? 1 : 0;
    const uint64_t dw0 = flag << 16 | uint64_t{1} << 28 /* token_en */ | uint64_t{1} << 29 /* rmt jetty type */ |
                         owner << 31 | uint64_t{kOpWrite} << 40;
    const uint64_t dw1 = (q.mem->tpn & 0xFFFFFFu) | uint64_t{1} << 24 /* one SGE */ |
                         uint64_t{q.mem->tid & 0xFFFFFu} << 32;
    const auto* eid = reinterpret_cast<const __gm__ unsigned long long*>(q.mem->eid_addr);
    auto* slot = reinterpret_cast<__gm__ ulonglong4*>(q.sq->buf_addr + uint64_t{q.sq->wqe_size} * (head % depth));
    slot[0] = make_ulonglong4(dw0, dw1, eid[0], eid[1]);
    slot[1] = make_ulonglong4(q.mem->rmt_token_value, remote, len, local);
}

// VF 1: count the batch's WQEs per destination SQ and list the SQs in use.
__simt_vf__ LAUNCH_BOUND(128) inline void classify_vf(__ubuf__ ulonglong4* descs, uint32_t n,
                                                      __ubuf__ uint32_t* sq_count, __ubuf__ uint32_t* active,
                                                      __ubuf__ uint32_t* n_active)
{
    const uint32_t tid = AscendC::Simt::GetThreadIdx<0>();
    if (tid < n) {
        const uint32_t dst = static_cast<uint32_t>(descs[tid].z >> 32);
        if (atomicAdd(sq_count + dst, 1U) == 0) {
            active[atomicAdd(n_active, 1U)] = dst;
        }
    }
}

// VF 2: one atomicAdd per active SQ reserves its head range; then every thread writes its WQE.
__simt_vf__ LAUNCH_BOUND(128) inline void write_wqes_vf(__ubuf__ ulonglong4* descs, uint32_t n,
                                                        __ubuf__ uint32_t* sq_count, __ubuf__ uint32_t* sq_base,
                                                        __ubuf__ uint32_t* sq_cursor, __ubuf__ uint32_t* active,
                                                        uint32_t n_active, uint64_t udma_info, uint32_t qp,
                                                        uint32_t cqe_on_every_wqe)
{
    const uint32_t tid = AscendC::Simt::GetThreadIdx<0>();
    if (tid < n_active) {
        const uint32_t dst = active[tid];
        const QpCtx q = qp_ctx(udma_info, dst, qp);
        sq_base[dst] = atomicAdd(reinterpret_cast<__gm__ uint32_t*>(&q.sq->head), sq_count[dst]);
        sq_cursor[dst] = 0;
    }
    AscendC::Simt::ThreadBarrier();
    if (tid < n) {
        const ulonglong4 d = descs[tid];
        const uint32_t dst = static_cast<uint32_t>(d.z >> 32);
        const uint32_t offset = atomicAdd(sq_cursor + dst, 1U);
        const bool cqe = cqe_on_every_wqe != 0 || offset + 1 == sq_count[dst];
        simt_write_wqe(qp_ctx(udma_info, dst, qp), sq_base[dst] + offset, d.x, d.y,
                       static_cast<uint32_t>(d.z & 0xFFFFFFFFu), cqe);
        asc_threadfence();  // the WQE is visible before the scalar side rings the doorbell
    }
}

// The monotonic SQ tail from a CQE's 16-bit "next WQEBB" index.
inline uint32_t unwrap16(uint32_t tail, uint16_t idx)
{
    uint32_t v = (tail & 0xFFFF0000u) | idx;
    if (static_cast<int32_t>(v - tail) < 0) v += 0x10000u;
    return v;
}

// Polls every CQE requested on `q` and returns the slots: the CQ doorbell and the SQ tail.
inline void reap_cq(const QpCtx& q)
{
    uint32_t cur = q.cq->tail;
    const uint32_t target = q.sq->cqe_cnt;
    if (cur == target) return;
    uint16_t last_entry = 0;
    while (cur != target) {
        const uint32_t depth = q.cq->depth;
        const __gm__ uint8_t* cqe = reinterpret_cast<const __gm__ uint8_t*>(q.cq->buf_addr) +
                                    uint64_t{q.cq->cqe_size} * (cur % depth);
        const uint32_t phase = (cur / depth) & 1u;
        uint32_t polls = 0;
        for (;;) {
            dcci(reinterpret_cast<const __gm__ uint64_t*>(cqe), cache_line_t::SINGLE_CACHE_LINE);
            if (((cqe[0] >> 2) & 1u) != phase) break;  // owner bit flipped: the CQE is in
            if (++polls == kMaxCqePolls) {
                AscendC::printf("moe: CQE %u never arrived\n", cur);
                trap();
            }
        }
        if (cqe[3] != 0 || cqe[2] != 0) {  // status / substatus
            AscendC::printf("moe: CQE %u status %u substatus %u\n", cur, cqe[3], cqe[2]);
            trap();
        }
        last_entry = static_cast<uint16_t>(cqe[4] | cqe[5] << 8);
        ++cur;
    }
    q.cq->tail = cur;
    st_dev(cur & 0xFFFFFFu, reinterpret_cast<__gm__ uint32_t*>(q.cq->db_addr), 0);
    q.sq->tail = unwrap16(q.sq->tail, last_entry);
}

class Sender {
 public:
    // UB: descriptors (128 x 32 B), per-rank count/base/cursor words and the active list,
    // plus the API path's WQE staging area.
    static uint32_t ub_bytes(uint32_t ep) { return kVfThreads * 32 + 3 * round_up32(4 * ep) + 4 * kVfThreads + 32 + 128; }

    __aicore__ inline void Init(const MoeTiling& t, uint32_t qp, __ubuf__ uint8_t* ub)
    {
        m_t = &t;
        m_qp = qp;
        m_descs = reinterpret_cast<__ubuf__ ulonglong4*>(ub);
        ub += kVfThreads * 32;
        m_count = reinterpret_cast<__ubuf__ uint32_t*>(ub);
        ub += round_up32(4 * t.ep);
        m_base = reinterpret_cast<__ubuf__ uint32_t*>(ub);
        ub += round_up32(4 * t.ep);
        m_cursor = reinterpret_cast<__ubuf__ uint32_t*>(ub);
        ub += round_up32(4 * t.ep);
        m_active = reinterpret_cast<__ubuf__ uint32_t*>(ub);
        ub += 4 * kVfThreads;
        m_n_active = reinterpret_cast<__ubuf__ uint32_t*>(ub);
        ub += 32;
        m_wqe_ub = ub;
        for (uint32_t r = 0; r < t.ep; ++r) m_count[r] = 0;
        *m_n_active = 0;
    }

    // `remote` is the symmetric address as this PE sees it.
    __aicore__ inline void Send(uint64_t local, uint64_t remote, uint32_t bytes, uint32_t dst)
    {
        if (m_t->variant == kVariantApi) {
            aclshmemx_udma_qp_put_nbi(reinterpret_cast<__gm__ uint8_t*>(remote), reinterpret_cast<__gm__ uint8_t*>(local),
                                      m_wqe_ub, bytes, static_cast<int>(dst), m_qp, 0);
            return;
        }
        const uint64_t translated =
            reinterpret_cast<uint64_t>(aclshmem_ptr(reinterpret_cast<__gm__ void*>(remote), static_cast<int>(dst)));
        m_descs[m_n] = make_ulonglong4(local, translated, uint64_t{dst} << 32 | bytes, 0);
        if (++m_n == kVfThreads) Flush();
    }

    // Every write posted; in the closed loop every completion reaped.
    __aicore__ inline void Finish()
    {
        if (m_t->variant == kVariantApi) {
            for (uint32_t r = 0; r < m_t->ep; ++r) aclshmemx_udma_qp_quiet(static_cast<int>(r), m_qp);
            return;
        }
        Flush();
        if (m_t->variant == kVariantDirect) {
            for (uint32_t r = 0; r < m_t->ep; ++r) reap_cq(qp_ctx(m_t->udma_info, r, m_qp));
        }
    }

 private:
    __aicore__ inline void Flush()
    {
        if (m_n == 0) return;
        *m_n_active = 0;
        AscendC::Simt::VF_CALL<classify_vf>(AscendC::Simt::Dim3{kVfThreads, 1, 1}, m_descs, m_n, m_count, m_active,
                                            m_n_active);
        const uint32_t n_active = *m_n_active;
        const bool closed = m_t->variant == kVariantDirect;
        if (closed) {  // credit before reserving: head - tail + n + guard < depth, else reap
            for (uint32_t a = 0; a < n_active; ++a) {
                const QpCtx q = qp_ctx(m_t->udma_info, m_active[a], m_qp);
                if (q.sq->head - q.sq->tail + m_count[m_active[a]] + kCreditGuard >= q.sq->depth) reap_cq(q);
                if (q.sq->head - q.sq->tail + m_count[m_active[a]] + kCreditGuard >= q.sq->depth) trap();
            }
        }
        AscendC::Simt::VF_CALL<write_wqes_vf>(AscendC::Simt::Dim3{kVfThreads, 1, 1}, m_descs, m_n, m_count, m_base,
                                              m_cursor, m_active, n_active, m_t->udma_info, m_qp, closed ? 0U : 1U);
        // Doorbells from scalar code (st_dev is not callable in a VF): one per active SQ.
        for (uint32_t a = 0; a < n_active; ++a) {
            const uint32_t dst = m_active[a];
            const QpCtx q = qp_ctx(m_t->udma_info, dst, m_qp);
            st_dev(m_base[dst] + m_count[dst], reinterpret_cast<__gm__ uint32_t*>(q.sq->db_addr), 0);
            if (closed) q.sq->cqe_cnt += 1;  // only the batch's last WQE asked for a CQE
            m_count[dst] = 0;
        }
        m_n = 0;
    }

    const MoeTiling* m_t = nullptr;
    uint32_t m_qp = 0;
    uint32_t m_n = 0;
    __ubuf__ ulonglong4* m_descs = nullptr;
    __ubuf__ uint32_t* m_count = nullptr;
    __ubuf__ uint32_t* m_base = nullptr;
    __ubuf__ uint32_t* m_cursor = nullptr;
    __ubuf__ uint32_t* m_active = nullptr;
    __ubuf__ uint32_t* m_n_active = nullptr;
    __ubuf__ uint8_t* m_wqe_ub = nullptr;
};

}  // namespace moe

// The AIV-direct dispatch's counts, as the public Atlas A3 MoE dispatch operator keeps them
// (CANN ops-transformer mc2/moe_distribute_dispatch_v2: SetStatus, WaitDispatch with its status
// clear and SyncCntOnCore, GetCumSum, UpdateTokenNumsOut): one 32 B status per (expert, source
// rank), flag in element 0 and the token count in element 1, stored by the core that counted the
// expert into the expert rank's window head (moe_tiling.h, head_bytes). A receiving core polls
// its contiguous share of the statuses with one copy and one ReduceSum, then works out where its
// tokens go in the expert input from the other cores' sums. The flag is the launch's epoch
// (epoch_flags.h). Every step is charged on the pipe the operator issues it on.
#pragma once
#include <cstdint>

#include "kernels/moe/common/moe_vector_cost.h"
#include "kernels/moe/aiv_direct/aiv_direct_split.h"
#include "kernels/moe/aiv_direct/die_barrier.h"
#include "kernels/moe/aiv_direct/epoch_flags.h"

namespace moe::aiv {

constexpr uint32_t kStatusWords = kStatusBytes / 4;

// SetStatus before its SyncAll: core c counts this rank's pairs for its share of all experts
// (the slot search's five vector instructions over every pair, per expert) into statuses in UB.
__aicore__ inline void count_statuses(const MoeTiling& t, Range experts, const __ubuf__ int32_t* ids,
                                      __ubuf__ int32_t* scratch, __ubuf__ int32_t* status)
{
    const uint32_t pairs = t.tokens * t.top_k, n = experts.end - experts.begin;
    if (n == 0) return;
    vec::status_init(status, n);
    for (uint32_t e = experts.begin; e < experts.end; ++e) vec::pair_slot(ids, scratch, pairs);
    AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
    const float epoch = epoch_of(t);
    for (uint32_t i = 0; i < n * kStatusWords; ++i) status[i] = 0;
    for (uint32_t i = 0; i < n; ++i) reinterpret_cast<__ubuf__ float*>(status)[i * kStatusWords] = epoch;
    for (uint32_t p = 0; p < pairs; ++p) {
        const uint32_t e = static_cast<uint32_t>(ids[p]);
        if (e >= experts.begin && e < experts.end) ++status[(e - experts.begin) * kStatusWords + 1];
    }
}

// SetStatus after its SyncAll: each counted expert's status into its rank's window head, at
// (local expert, this rank); one 32 B MTE3 store each, this rank's own through local GM.
__aicore__ inline void send_statuses(const MoeTiling& t, Range experts, __ubuf__ int32_t* status, uint64_t window)
{
    AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID0);
    PhaseSpan put("moe put");
    for (uint32_t e = experts.begin; e < experts.end; ++e) {
        const uint32_t dst = e / t.experts_per_rank, le = e % t.experts_per_rank;
        auto* to = reinterpret_cast<__gm__ uint8_t*>(window + t.status_offset(le * t.ep + t.my_rank));
        aclshmemx_mte_put_nbi(to, reinterpret_cast<__ubuf__ uint8_t*>(status + (e - experts.begin) * kStatusWords),
                              kStatusBytes, static_cast<int>(dst), EVENT_ID3);
    }
    AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);  // this rank's own statuses, polled next
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
    put.End();
}

// WaitDispatch for the statuses `mine` (indices e * ep + s): polls them with one copy and one
// ReduceSum of their flags until every flag holds the epoch, writes each count into recv_count
// (the host's check and combine read it there), clears the statuses (a Duplicate and one store
// per run of other ranks' statuses: a core of this die stored this rank's own, and only
// barriers order two cores' stores; the epoch flags make the clear a cost, not a need), and
// stores the core's received-token sum into its cell (SyncCntOnCore). Returns that sum.
// UB of the receive side: `status` and `zero` hold a share of statuses each, `cells` one 32 B
// cell per core, `work` the vector results (32 B + a value per status or cell).
struct StatusUb {
    __ubuf__ int32_t* status;
    __ubuf__ int32_t* zero;
    __ubuf__ int32_t* cells;
    __ubuf__ int32_t* work;
};

__aicore__ inline uint32_t wait_statuses(const MoeTiling& t, uint32_t core, Range mine, const StatusUb& ub,
                                         __gm__ uint8_t* window)
{
    __ubuf__ int32_t* status = ub.status;
    __ubuf__ int32_t* work = ub.work;
    const uint32_t n = mine.end - mine.begin;
    const float epoch = epoch_of(t);
    __gm__ uint8_t* gm = window + t.status_offset(mine.begin);
    auto* flags = reinterpret_cast<__ubuf__ float*>(status);
    {
        PhaseSpan poll("moe poll");
        for (uint32_t polls = 1;; ++polls) {
            AscendC::DataCopy(ub_tensor(reinterpret_cast<__ubuf__ uint8_t*>(status), n * kStatusBytes),
                              gm_tensor(gm, uint64_t{n} * kStatusBytes), n * kStatusBytes);
            AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID1);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID1);
            vec::status_flag_sum(status, work, n);
            AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID1);
            AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID1);
            float sum = 0;
            for (uint32_t i = 0; i < n; ++i) sum += flags[i * kStatusWords];
            if (sum == epoch * static_cast<float>(n)) break;  // no flag exceeds the epoch
            AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID1);  // the next poll refills them
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID1);
            if (polls == 50 * kMaxFlagPolls) {
                AscendC::printf("moe: statuses %u..%u of launch %u never all arrived\n", mine.begin, mine.end, t.launch);
                trap();
            }
        }
        poll.End();
    }
    PhaseSpan copy("moe copy");
    auto* recv_count = reinterpret_cast<__gm__ uint32_t*>(t.recv_count);
    uint32_t received = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const auto count = static_cast<uint32_t>(status[i * kStatusWords + 1]);
        recv_count[mine.begin + i] = count;
        received += count;
    }
    __ubuf__ int32_t* zero = ub.zero;  // the clear image: the flags (and counts) zeroed
    vec::duplicate_block(zero, n);
    for (uint32_t i = 0; i < n * kStatusWords; ++i) zero[i] = 0;
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
    for (uint32_t i = mine.begin; i < mine.end;) {
        if (i % t.ep == t.my_rank) {
            ++i;
            continue;
        }
        uint32_t end = i + 1;
        while (end < mine.end && end % t.ep != t.my_rank) ++end;
        const uint32_t bytes = (end - i) * kStatusBytes;
        AscendC::DataCopy(gm_tensor(window + t.status_offset(i), bytes),
                          ub_tensor(reinterpret_cast<__ubuf__ uint8_t*>(zero), bytes), bytes);
        i = end;
    }
    vec::gather_sum(status, work, n);  // SyncCntOnCore: this core's received tokens
    __ubuf__ int32_t* cell = ub.cells;
    vec::duplicate_block(cell, 1);
    for (uint32_t i = 0; i < kStatusWords; ++i) cell[i] = static_cast<int32_t>(received);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
    AscendC::DataCopy(gm_tensor(window + t.core_sum_offset(core), kStatusBytes),
                      ub_tensor(reinterpret_cast<__ubuf__ uint8_t*>(cell), kStatusBytes), kStatusBytes);
    AscendC::PipeBarrier<PIPE_ALL>();
    copy.End();
    return received;
}

// GetCumSum after the second SyncAll: the tokens the cores before `core` received, read from
// their cells with one copy and summed (GatherMask, Sum). The operator writes each core's sum
// into 48 cells 512 B apart and reads its column with one strided copy; the shim would charge a
// strided copy's rows one MTE latency each (no source says a 910C does), so here each core
// stores one cell and the reader takes the first `core` cells with one contiguous copy: one MTE
// instruction each way, as in the operator.
__aicore__ inline uint32_t tokens_before(const MoeTiling& t, uint32_t core, const StatusUb& ub, __gm__ uint8_t* window)
{
    if (core == 0) return 0;
    __ubuf__ int32_t* cells = ub.cells;
    __ubuf__ int32_t* work = ub.work;
    PhaseSpan copy("moe copy");
    const uint32_t bytes = core * kStatusBytes;
    AscendC::DataCopy(ub_tensor(reinterpret_cast<__ubuf__ uint8_t*>(cells), bytes),
                      gm_tensor(window + t.core_sum_offset(0), bytes), bytes);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID1);
    vec::gather_sum(cells, work, core);
    AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID1);
    uint32_t before = 0;
    for (uint32_t k = 0; k < core; ++k) before += static_cast<uint32_t>(cells[k * kStatusWords]);
    copy.End();
    return before;
}

// After the copy-out (LocalWindowCopy's end): each status index's offset into the expert input
// past its tokens (the operator's sendCounts), one store of the core's share.
__aicore__ inline void store_send_counts(const MoeTiling& t, Range mine, uint32_t before, __ubuf__ uint32_t* out,
                                         __gm__ uint8_t* window)
{
    const uint32_t n = mine.end - mine.begin;
    const auto* recv_count = reinterpret_cast<const __gm__ uint32_t*>(t.recv_count);
    for (uint32_t i = 0; i < n; ++i) out[i] = before += recv_count[mine.begin + i];
    AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID1);
    AscendC::DataCopyPad(gm_tensor(window + t.send_count_offset(mine.begin), n * 4),
                         ub_tensor(reinterpret_cast<__ubuf__ uint8_t*>(out), n * 4),
                         AscendC::DataCopyExtParams{1, n * 4, 0, 0, 0});
    AscendC::PipeBarrier<PIPE_MTE3>();
}

// UpdateTokenNumsOut: with more than one expert per rank every core meets the others (the
// operator's third SyncAll), then the last core that received statuses writes the tokens per
// local expert, reading the offsets back with a clean+invalidate per value as the operator does.
__aicore__ inline void update_token_nums(const MoeTiling& t, uint32_t core, uint32_t cores, uint32_t total,
                                         __gm__ uint8_t* window)
{
    if (t.experts_per_rank > 1) die_barrier(t, core, cores, 2);
    const uint32_t statuses = t.experts_per_rank * t.ep;
    if (core != (statuses < cores ? statuses : cores) - 1) return;
    PhaseSpan copy("moe copy");
    auto* nums = reinterpret_cast<__gm__ int64_t*>(window + t.token_nums_offset(0));
    auto* sent = reinterpret_cast<__gm__ uint32_t*>(window + t.send_count_offset(0));
    nums[0] = total;
    dcci(nums, cache_line_t::SINGLE_CACHE_LINE);
    if (t.experts_per_rank > 1) {
        dcci(sent + t.ep - 1, cache_line_t::SINGLE_CACHE_LINE);
        nums[0] = sent[t.ep - 1];
        dcci(nums, cache_line_t::SINGLE_CACHE_LINE);
        for (uint32_t e = 1; e < t.experts_per_rank; ++e) {
            __gm__ uint32_t* prev = sent + t.ep * (e - 1) + t.ep - 1;
            __gm__ uint32_t* cur = sent + t.ep * e + t.ep - 1;
            dcci(prev, cache_line_t::SINGLE_CACHE_LINE);
            dcci(cur, cache_line_t::SINGLE_CACHE_LINE);
            nums[e] = *cur - *prev;
            dcci(nums + e, cache_line_t::SINGLE_CACHE_LINE);
        }
    }
    copy.End();
}

}  // namespace moe::aiv

// A barrier of every AIV core of the die, as the Atlas A3 MoE dispatch operator takes it
// (AscendC SyncAll: ops-transformer mc2/moe_distribute_dispatch_v2, after the tokens are sent,
// after the counts are in and, with more than one expert per rank, after the copy-out). Written the software way: each core stores a mark in its own
// cache line of core_flags (dispatch slot) and reads every core's line until all hold it. The
// marks grow over launches and phases, so a core that is already past the barrier (a later
// mark) still counts as arrived for the slower ones.
#pragma once
#include <cstdint>

#include "kernels/moe/common/data_as_flag.h"
#include "kernels/moe/aiv_direct/phase_span.h"

namespace moe::aiv {

constexpr uint32_t kBarriersPerLaunch = 3;  // phases 0..2 of one dispatch launch

__aicore__ inline void die_barrier(const MoeTiling& t, uint32_t core, uint32_t cores, uint32_t phase)
{
    PhaseSpan sync("moe sync");
    const uint32_t mark = kBarriersPerLaunch * t.launch + phase + 1;
    __gm__ uint32_t* mine = core_flag(t, 0, core);
    dcci(mine, cache_line_t::SINGLE_CACHE_LINE);
    *mine = mark;
    dcci(mine, cache_line_t::SINGLE_CACHE_LINE);  // write back so the other cores see it
    for (uint32_t c = 0; c < cores; ++c) {
        __gm__ uint32_t* f = core_flag(t, 0, c);
        for (uint32_t polls = 1;; ++polls) {
            dcci(f, cache_line_t::SINGLE_CACHE_LINE);
            if (*f >= mark) break;
            if (polls == 50 * kMaxFlagPolls) {
                AscendC::printf("moe: core %u never reached barrier %u of launch %u\n", c, phase, t.launch);
                trap();
            }
        }
    }
    sync.End();
}

}  // namespace moe::aiv

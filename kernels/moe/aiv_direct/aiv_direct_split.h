// How the AIV-direct variant (variant 3) shares a die's work among all of its AIV cores: every
// core sends, then receives. Work is cut in contiguous ranges, so that a core touches few
// count blocks and its items come in slot order.
#pragma once
#include <cstdint>

#include "kernels/moe/common/data_as_flag.h"
#include "shmem.h"

namespace moe::aiv {

// [begin, end) of `n` items for core `c` of `cores`.
struct Range {
    uint32_t begin;
    uint32_t end;
};
__aicore__ inline Range share(uint32_t n, uint32_t c, uint32_t cores)
{
    return {static_cast<uint32_t>(uint64_t{n} * c / cores), static_cast<uint32_t>(uint64_t{n} * (c + 1) / cores)};
}

// Stores the `blocks` Data-as-Flag blocks packed in `ub` at the symmetric address `remote` on
// rank `dst`, straight from UB through the core's MTE3 (CANN SHMEM's MTE engine, ub2gm put):
// the bytes cross the UB fabric as memory writes, no WQE and no UDMA engine. Returns once the
// image may be packed again.
__aicore__ inline void put_blocks(uint64_t remote, const DafUb& ub, uint32_t blocks, uint32_t dst)
{
    aclshmemx_mte_put_nbi(reinterpret_cast<__gm__ uint8_t*>(remote), ub.image, blocks * kBlockBytes,
                          static_cast<int>(dst), EVENT_ID3);
}

// Packs the payload in UB (after the scalar or vector work that filled it) for MTE3.
__aicore__ inline void pack_for_put(const DafUb& ub, uint32_t blocks)
{
    AscendC::SetFlag<AscendC::HardEvent::S_V>(EVENT_ID3);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(EVENT_ID3);
    ub.Pack(blocks);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID3);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID3);
}

// Every put of the image has read it: the vector pipe may pack the next one.
__aicore__ inline void image_free()
{
    AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID3);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID3);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID3);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID3);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID3);  // and MTE2 may refill it (receive)
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID3);
}

}  // namespace moe::aiv

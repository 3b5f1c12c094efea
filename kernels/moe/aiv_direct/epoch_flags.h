// Data-as-Flag blocks whose 32 B flag carries the launch's epoch (launch + 1, as a float)
// instead of a constant 1.0f: a slot written in launch L reads as empty to launch L + 2 (the
// next launch on the same window half), so the receiver never zeroes what it consumed. The
// AIV-direct kernels' windows are written by the cores of the die itself (a rank's tokens for
// its own experts) as well as by peers; with no clear, the only GM writes to a slot are its
// producer's.
#pragma once
#include <cstdint>

#include "../common/data_as_flag.h"
#include "phase_span.h"

namespace moe::aiv {

__aicore__ inline float epoch_of(const MoeTiling& t) { return static_cast<float>(t.launch + 1); }

// Sets every flag of the image to `epoch` (scalar stores; packing writes only the payload pieces).
__aicore__ inline void set_flags(const DafUb& ub, float epoch)
{
    for (uint32_t b = 0; b < ub.blocks; ++b) {
        auto* flag = reinterpret_cast<__ubuf__ float*>(ub.image + b * kBlockBytes + kBlockPayloadBytes);
        for (uint32_t i = 0; i < kFlagBytes / 4; ++i) flag[i] = epoch;
    }
}

__aicore__ inline bool all_flags(const DafUb& ub, uint32_t blocks, float epoch)
{
    for (uint32_t b = 0; b < blocks; ++b) {
        if (*reinterpret_cast<const __ubuf__ float*>(ub.image + b * kBlockBytes + kBlockPayloadBytes) != epoch) {
            return false;
        }
    }
    return true;
}

// Reads the `blocks` blocks at `gm` until every flag holds `epoch`, then unpacks the payload
// into ub.payload (moe::receive_blocks with an epoch for the flag value). The trace shows the
// polling until the last flag is seen as "moe poll"; the returned span ("moe copy", from then
// on) is the caller's to end once it has consumed the payload.
__aicore__ inline PhaseSpan receive_epoch_blocks(__gm__ uint8_t* gm, const DafUb& ub, uint32_t blocks, float epoch)
{
    __ubuf__ uint8_t* last_flag = ub.image + (blocks - 1) * kBlockBytes + kBlockPayloadBytes;
    PhaseSpan poll("moe poll");
    PhaseSpan copy("moe copy");
    for (uint32_t polls = 1;; ++polls) {
        // Spin on the last block's flag; read the whole image once it is set.
        AscendC::DataCopy(ub_tensor(last_flag, kFlagBytes),
                          gm_tensor(gm + (blocks - 1) * kBlockBytes + kBlockPayloadBytes, kFlagBytes), kFlagBytes);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID2);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID2);
        if (*reinterpret_cast<const __ubuf__ float*>(last_flag) == epoch) {
            poll.End();
            copy = PhaseSpan("moe copy");
            AscendC::DataCopy(ub_tensor(ub.image, blocks * kBlockBytes), gm_tensor(gm, uint64_t{blocks} * kBlockBytes),
                              blocks * kBlockBytes);
            AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID2);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID2);
            if (all_flags(ub, blocks, epoch)) break;  // blocks of one write may land in any order
        }
        if (polls == kMaxFlagPolls) {
            AscendC::printf("moe: Data-as-Flag blocks at %p never all arrived\n", static_cast<void*>(gm));
            trap();
        }
    }
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID2);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID2);
    ub.Unpack(blocks);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID2);  // the next poll refills the image
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID2);
    return copy;
}

// Loads the `blocks` blocks at `gm` once and unpacks their payload into ub.payload: for data a
// count block has already announced (the sender stored it and saw it land before it sent the
// count), so every flag must hold `epoch`; one that does not is a protocol error.
__aicore__ inline void load_arrived(__gm__ uint8_t* gm, const DafUb& ub, uint32_t blocks, float epoch)
{
    AscendC::DataCopy(ub_tensor(ub.image, blocks * kBlockBytes), gm_tensor(gm, uint64_t{blocks} * kBlockBytes),
                      blocks * kBlockBytes);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID2);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID2);
    if (!all_flags(ub, blocks, epoch)) {
        AscendC::printf("moe: announced Data-as-Flag blocks at %p have not all arrived\n", static_cast<void*>(gm));
        trap();
    }
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID2);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID2);
    ub.Unpack(blocks);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID2);  // the next load refills the image
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID2);
}

}  // namespace moe::aiv

// The last step of combine for one token, the same in every variant: the FP32 weighted sum is
// cast to BF16 on the vector pipe and stored into the output row with MTE3.
#pragma once
#include <cstdint>

#include "kernel_operator.h"
#include "kernels/moe/common/moe_numeric.h"
#include "kernels/moe/common/moe_tiling.h"
#include "kernels/moe/common/moe_vector_cost.h"

namespace moe {

__aicore__ inline void store_combined_row(const MoeTiling& t, uint32_t tok, const float* acc,
                                          AscendC::LocalTensor<uint16_t> out)
{
    vec::cast_out(out.GetPhyAddr(), acc, t.hidden);
    for (uint32_t i = 0; i < t.hidden; ++i) out.GetPhyAddr()[i] = f32_to_bf16(acc[i]);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID1);
    AscendC::GlobalTensor<uint16_t> out_gm;
    out_gm.SetGlobalBuffer(reinterpret_cast<__gm__ uint16_t*>(t.out) + uint64_t{tok} * t.hidden, t.hidden);
    AscendC::DataCopyPad(out_gm, out, AscendC::DataCopyExtParams{1, 2 * t.hidden, 0, 0, 0});
    AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID1);
}

}  // namespace moe

// The expert step of combine for one received token, the same in every variant: which of the
// token's top-k slots this expert is (its combine row goes there), then the expert on the row,
// charged on the vector pipe, its BF16 output written to `out_bf16`.
#pragma once
#include <cstdint>

#include "kernel_operator.h"
#include "kernels/moe/common/moe_numeric.h"
#include "kernels/moe/common/moe_tiling.h"
#include "kernels/moe/common/moe_vector_cost.h"

namespace moe {

// `token` is the token as received in the Unified Buffer: its header, then its data.
__aicore__ inline uint32_t run_expert(const MoeTiling& t, const __ubuf__ uint8_t* token, uint32_t local_expert,
                                      __ubuf__ uint8_t* out_bf16)
{
    const auto* h = reinterpret_cast<const __ubuf__ TokenHeader*>(token);
    const uint32_t expert_id = t.my_rank * t.experts_per_rank + local_expert;
    uint32_t k = 0;
    while (k < t.top_k && h->experts[k] != static_cast<int32_t>(expert_id)) ++k;
    if (k == t.top_k) trap();  // the token was not routed here
    vec::expert_row(out_bf16, token + kTokenHeaderBytes, t.hidden, t.elem_bytes);
    expert_forward(token + kTokenHeaderBytes, t.hidden, t.elem_bytes, h->scale, expert_id,
                   reinterpret_cast<__ubuf__ uint16_t*>(out_bf16));
    return k;
}

}  // namespace moe

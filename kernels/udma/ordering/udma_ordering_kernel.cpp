// udma_ordering: PE 0 writes `count` 8-byte values 1..count into one word of PE 1 as a single
// defer/submit batch, so the WQEs leave the engine back to back, with the ordering `mode` asks
// for in aclshmemx_udma_op_config_t: 0 NO, 1 RO, 2 SO (each lands after the previous), 3 NO
// with a fence on every WQE (each starts once the previous completed). The word's final value
// is the value of the WQE that landed last: `count` whenever the order is kept.
#include "kernel_operator.h"
#include "shmem.h"

namespace {

constexpr aclshmemx_udma_op_config_t DEFER_NO{0U, 0U, 0U, ACLSHMEMX_UDMA_ODR_NO};
constexpr aclshmemx_udma_op_config_t SUBMIT_NO{1U, 0U, 0U, ACLSHMEMX_UDMA_ODR_NO};
constexpr aclshmemx_udma_op_config_t DEFER_RO{0U, 0U, 0U, ACLSHMEMX_UDMA_ODR_RO};
constexpr aclshmemx_udma_op_config_t SUBMIT_RO{1U, 0U, 0U, ACLSHMEMX_UDMA_ODR_RO};
constexpr aclshmemx_udma_op_config_t DEFER_SO{0U, 0U, 0U, ACLSHMEMX_UDMA_ODR_SO};
constexpr aclshmemx_udma_op_config_t SUBMIT_SO{1U, 0U, 0U, ACLSHMEMX_UDMA_ODR_SO};
constexpr aclshmemx_udma_op_config_t DEFER_FENCE{0U, 0U, 1U, ACLSHMEMX_UDMA_ODR_NO};
constexpr aclshmemx_udma_op_config_t SUBMIT_FENCE{1U, 0U, 1U, ACLSHMEMX_UDMA_ODR_NO};

template <const aclshmemx_udma_op_config_t& DEFER, const aclshmemx_udma_op_config_t& SUBMIT>
__aicore__ inline void write_all(__gm__ uint64_t* word, __gm__ uint64_t* values, __ubuf__ uint64_t* ws,
                                 uint32_t count)
{
    aclshmemx_submit_state_t state{};
    aclshmemx_defer_t defer(state);
    aclshmemx_submit_t submit(state);
    for (uint32_t i = 0; i + 1 < count; ++i) {
        aclshmemx_udma_put_nbi<uint64_t, PIPE_MTE3, DEFER>(word, values + i, ws, 1, 1, 0, defer);
    }
    aclshmemx_udma_put_nbi<uint64_t, PIPE_MTE3, SUBMIT>(word, values + count - 1, ws, 1, 1, 0, submit);
    aclshmemx_udma_quiet(1);
}

}  // namespace

extern "C" __global__ __aicore__ void udma_ordering_kernel(GM_ADDR word, GM_ADDR values, uint32_t count,
                                                           uint32_t mode)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> workspace;
    pipe.InitBuffer(workspace, 64 * count);
    __ubuf__ uint64_t* ws = (__ubuf__ uint64_t*)workspace.Get<uint8_t>().GetPhyAddr();
    if (aclshmem_my_pe() == 0) {
        __gm__ uint64_t* w = (__gm__ uint64_t*)word;
        __gm__ uint64_t* v = (__gm__ uint64_t*)values;
        switch (mode) {
            case 0: write_all<DEFER_NO, SUBMIT_NO>(w, v, ws, count); break;
            case 1: write_all<DEFER_RO, SUBMIT_RO>(w, v, ws, count); break;
            case 2: write_all<DEFER_SO, SUBMIT_SO>(w, v, ws, count); break;
            default: write_all<DEFER_FENCE, SUBMIT_FENCE>(w, v, ws, count); break;
        }
    }
    aclshmemx_barrier_all_vec();
}

void launch_udma_ordering(uint32_t block_dim, void* stream, uint8_t* word, uint8_t* values, uint32_t count,
                          uint32_t mode)
{
    udma_ordering_kernel<<<block_dim, nullptr, stream>>>(word, values, count, mode);
}

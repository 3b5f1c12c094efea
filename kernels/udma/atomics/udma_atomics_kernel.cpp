// udma_atomics: every remote atomic of CANN SHMEM's UDMA API against the right neighbour's
// words (one word per atomic, see udma_atomic_script.h), for the integer type `type`
// (0 int32, 1 uint32, 2 int64, 3 uint64); the returned values go to `results`. Then float add
// and inc, and `contend` fetch_add(1) from every PE on one counter of PE 0, whose returned
// values go to `tickets`.
#include "kernel_operator.h"
#include "shmem.h"
#include "kernels/udma/atomics/udma_atomic_script.h"

using namespace udma_atomic_script;

namespace {

template <typename T>
__aicore__ inline __gm__ T* word(GM_ADDR words, uint32_t slot)
{
    return (__gm__ T*)(words + slot * WORD_STRIDE);
}

template <typename T>
__aicore__ inline void run_script(GM_ADDR words, GM_ADDR results, int peer)
{
    __gm__ T* out = (__gm__ T*)results;
    aclshmemx_udma_atomic_add<T>(word<T>(words, ADD), add_operand<T>(), peer);
    aclshmemx_udma_atomic_inc<T>(word<T>(words, INC), peer);
    out[R_FETCH_ADD] = aclshmemx_udma_atomic_fetch_add<T>(word<T>(words, FETCH_ADD), fetch_add_operand<T>(), peer);
    out[R_FETCH_INC] = aclshmemx_udma_atomic_fetch_inc<T>(word<T>(words, FETCH_INC), peer);
    out[R_FETCH] = aclshmemx_udma_atomic_fetch<T>(word<T>(words, FETCH), peer);
    out[R_CAS_HIT] = aclshmemx_udma_atomic_compare_swap<T>(word<T>(words, COMPARE_SWAP),
                                                            initial<T>(COMPARE_SWAP), cas_value<T>(), peer);
    out[R_CAS_MISS] = aclshmemx_udma_atomic_compare_swap<T>(word<T>(words, COMPARE_SWAP),
                                                             initial<T>(COMPARE_SWAP), static_cast<T>(0), peer);
    out[R_SWAP] = aclshmemx_udma_atomic_swap<T>(word<T>(words, SWAP), swap_value<T>(), peer);
    out[R_FETCH_AND] = aclshmemx_udma_atomic_fetch_and<T>(word<T>(words, FETCH_AND), bits<T>(MASK), peer);
    out[R_FETCH_OR] = aclshmemx_udma_atomic_fetch_or<T>(word<T>(words, FETCH_OR), bits<T>(MASK), peer);
    out[R_FETCH_XOR] = aclshmemx_udma_atomic_fetch_xor<T>(word<T>(words, FETCH_XOR), bits<T>(MASK), peer);
    aclshmemx_udma_atomic_set<T>(word<T>(words, SET), set_value<T>(), peer);
    aclshmemx_udma_atomic_and<T>(word<T>(words, AND), bits<T>(MASK), peer);
    aclshmemx_udma_atomic_or<T>(word<T>(words, OR), bits<T>(MASK), peer);
    aclshmemx_udma_atomic_xor<T>(word<T>(words, XOR), bits<T>(MASK), peer);
    aclshmemx_udma_quiet(peer);
}

}  // namespace

extern "C" __global__ __aicore__ void udma_atomics_kernel(GM_ADDR words, GM_ADDR floats, GM_ADDR counter,
                                                          GM_ADDR results, GM_ADDR tickets, uint32_t type,
                                                          uint32_t contend)
{
    const int me = aclshmem_my_pe();
    const int peer = (me + 1) % aclshmem_n_pes();
    switch (type) {
        case 0: run_script<int32_t>(words, results, peer); break;
        case 1: run_script<uint32_t>(words, results, peer); break;
        case 2: run_script<int64_t>(words, results, peer); break;
        default: run_script<uint64_t>(words, results, peer); break;
    }
    // Float add is a WRITE with reduce whose source is the AMO buffer: wait for it before the
    // next atomic reuses the buffer.
    aclshmemx_udma_atomic_add<float>((__gm__ float*)floats, FLOAT_ADDEND, peer);
    aclshmemx_udma_quiet(peer);
    aclshmemx_udma_atomic_inc<float>((__gm__ float*)floats + 1, peer);
    aclshmemx_udma_quiet(peer);

    aclshmemx_barrier_all_vec();
    __gm__ uint64_t* out = (__gm__ uint64_t*)tickets;
    for (uint32_t i = 0; i < contend; ++i) {
        out[i] = aclshmemx_udma_atomic_fetch_add<uint64_t>((__gm__ uint64_t*)counter, 1, 0);
    }
    aclshmemx_barrier_all_vec();
}

void launch_udma_atomics(uint32_t block_dim, void* stream, uint8_t* words, uint8_t* floats, uint8_t* counter,
                         uint8_t* results, uint8_t* tickets, uint32_t type, uint32_t contend)
{
    udma_atomics_kernel<<<block_dim, nullptr, stream>>>(words, floats, counter, results, tickets, type, contend);
}

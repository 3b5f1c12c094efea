// udma_generic_amo: PE 0 applies the generic CANN SHMEM atomics (aclshmem_<T>_atomic_*) to words
// of PE 1 over the UDMA transport and keeps what the fetching ones returned, in order, in
// `results` (uint64 each). PE 1's words (symmetric `words`): int32 at 0, uint64 at 8, int64 at
// 16, float at 24, uint32 at 32.
#include "kernel_operator.h"
#include "shmem.h"

extern "C" __global__ __aicore__ void udma_generic_amo_kernel(GM_ADDR words, GM_ADDR results_addr)
{
    if (aclshmem_my_pe() == 0) {
        __gm__ uint64_t* r = (__gm__ uint64_t*)results_addr;
        __gm__ int32_t* i32 = (__gm__ int32_t*)words;
        __gm__ uint64_t* u64 = (__gm__ uint64_t*)(words + 8);
        __gm__ int64_t* i64 = (__gm__ int64_t*)(words + 16);
        __gm__ float* f32 = (__gm__ float*)(words + 24);
        __gm__ uint32_t* u32 = (__gm__ uint32_t*)(words + 32);
        aclshmem_int32_atomic_add(i32, 5, 1);
        aclshmem_int32_atomic_inc(i32, 1);
        r[0] = (uint64_t)aclshmem_int32_atomic_fetch_add(i32, 10, 1);  // 6; word 16
        aclshmem_uint64_atomic_set(u64, 0xF0F0, 1);
        aclshmem_uint64_atomic_and(u64, 0xFF00, 1);                      // 0xF000
        aclshmem_uint64_atomic_or(u64, 0x000F, 1);                       // 0xF00F
        aclshmem_uint64_atomic_xor(u64, 0x1, 1);                         // 0xF00E
        r[1] = aclshmem_uint64_atomic_fetch_xor(u64, 0xF, 1);            // 0xF00E; word 0xF001
        r[2] = aclshmem_uint64_atomic_fetch_and(u64, 0xFF, 1);           // 0xF001; word 0x01
        r[3] = aclshmem_uint64_atomic_fetch_or(u64, 0x10, 1);            // 0x01; word 0x11
        r[4] = aclshmem_uint64_atomic_fetch(u64, 1);                     // 0x11
        r[5] = (uint64_t)aclshmem_int64_atomic_compare_swap(i64, 0, 42, 1);  // 0; word 42
        r[6] = (uint64_t)aclshmem_int64_atomic_compare_swap(i64, 0, 7, 1);   // 42, no swap
        r[7] = (uint64_t)aclshmem_int64_atomic_swap(i64, 9, 1);              // 42; word 9
        r[8] = (uint64_t)aclshmem_int64_atomic_fetch_inc(i64, 1);            // 9; word 10
        aclshmem_float_atomic_add(f32, 1.5f, 1);
        aclshmemx_udma_quiet(1);  // its WRITE with reduce reads the QP's AMO buffer, which the next add rewrites
        aclshmem_float_atomic_add(f32, 1.5f, 1);
        aclshmemx_udma_quiet(1);                                             // the adds landed: 3.0
        r[9] = (uint64_t)(aclshmem_float_atomic_swap(f32, 2.25f, 1) * 4.0f);  // 12; word 2.25
        aclshmem_float_atomic_set(f32, 4.5f, 1);
        for (int i = 0; i < 3; ++i) aclshmem_uint32_atomic_inc(u32, 1);
        r[10] = aclshmem_uint32_atomic_fetch_inc(u32, 1);                    // 3; word 4
        aclshmemx_udma_quiet(1);
        dcci_cachelines((__gm__ uint8_t*)r, 11 * sizeof(uint64_t));
    }
    aclshmem_barrier_all();
}

void launch_udma_generic_amo(void* stream, uint8_t* words, uint8_t* results)
{
    udma_generic_amo_kernel<<<1, nullptr, stream>>>(words, results);
}

// udma_engines: the CANN SHMEM engines beyond UDMA and MTE copies, each moving bytes the host
// programs check. `part`:
//   0  SDMA: every block puts its share of this PE's slot of `data` (`bytes` per PE) to every
//      other PE (pointer form; block 1 the GlobalTensor form), block 0 also gets the next PE's
//      slot into `gets` (GlobalTensor form), prefetches its slot (cmo_nbi) and records a
//      notify; each block then waits with aclshmemx_sdma_quiet.
//   1  RoCE: this PE's slot to every other PE (pointer form, with and without sync_id), the
//      next PE's slot into `gets` (GlobalTensor form), quiet per peer, barrier_all; results[0]
//      says whether aclshmem_roce_ptr gave aclshmem_ptr's address; sync_all at the end.
//   2  RoCE atomics (roce.xscale_atomics = 1): PE 0's block 0 on PE 1's words; fetched values in
//      results.
//   3  MTE atomic adds: every block adds to this PE's int8 / int16 / half / bfloat16 / int32 /
//      float words with the generic calls, and to PE 0's int32 word at 32 with
//      aclshmemx_mte_atomic_add (my_pe + 1 each); aclshmemx_mte_quiet.
//   4  The Ascend 950's MTE atomics (aiv.gm_atomics = 1): PE 0's block 0 on PE 1's words, and the generic
//      uint32 fetch_add on its own word; fetched values in results.
//   5  SIMT (one VF of 64 threads): this PE's slot to the next PE, the first half with
//      simt::aclshmemx_putmem_block, the second with simt::aclshmemx_int32_put_nbi_warp; the
//      previous PE's slot into `gets` with simt::aclshmemx_get64_block; thread 0 also puts a word
//      with simt::aclshmem_int32_p and reads the first word of the next PE's own slot with
//      simt::aclshmem_int32_g into results.
// Words (`words`, symmetric): int8 at 0, int16 at 2, half at 4, bfloat16 at 6, int32 at 8,
// float at 12, int32 at 32, uint64 at 40, uint32 at 48, uint64 at 56.
#include "kernel_operator.h"
#include "shmem.h"
#include "simt_api/asc_simt.h"

namespace {

__simt_vf__ inline void simt_part(__gm__ uint8_t* data, __gm__ uint8_t* gets, __gm__ uint8_t* words,
                                  __gm__ uint64_t* r, uint32_t bytes)
{
    const int me = simt::aclshmem_my_pe();
    const int n = simt::aclshmem_n_pes();
    const int next = (me + 1) % n, prev = (me + n - 1) % n;
    __gm__ uint8_t* mine = data + me * bytes;
    const uint32_t half_bytes = bytes / 2;
    simt::aclshmemx_putmem_block(mine, mine, half_bytes, next);
    simt::aclshmemx_int32_put_nbi_warp((__gm__ int32_t*)(mine + half_bytes), (__gm__ int32_t*)(mine + half_bytes),
                                       half_bytes / 4, next);
    simt::aclshmemx_get64_block(gets, data + prev * bytes, bytes / 8, prev);
    if (threadIdx.x == 0) {
        simt::aclshmem_int32_p((__gm__ int32_t*)(words + 32), 1000 + me, next);
        r[0] = (uint64_t)(uint32_t)simt::aclshmem_int32_g((__gm__ int32_t*)(data + next * bytes), next);
    }
}

}  // namespace

extern "C" __global__ __aicore__ void udma_engines_kernel(GM_ADDR data, GM_ADDR gets, GM_ADDR words,
                                                          GM_ADDR results_addr, uint32_t part, uint32_t bytes)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> mte_area, buf;
    pipe.InitBuffer(mte_area, 16 * 1024);  // the default aclshmemx_set_mte_config buffer
    pipe.InitBuffer(buf, 256);
    AscendC::LocalTensor<uint8_t> ub = buf.Get<uint8_t>();
    __ubuf__ uint8_t* ub_ptr = (__ubuf__ uint8_t*)ub.GetPhyAddr();
    const int me = aclshmem_my_pe();
    const int n = aclshmem_n_pes();
    const int next = (me + 1) % n;
    __gm__ uint64_t* r = (__gm__ uint64_t*)results_addr;
    if (part == 0) {
        const uint32_t blocks = AscendC::GetBlockNum();
        const uint32_t b = AscendC::GetBlockIdx();
        const uint32_t share = bytes / blocks;
        __gm__ uint8_t* mine = data + me * bytes + b * share;
        for (int pe = 0; pe < n; ++pe) {
            if (pe == me) continue;
            if (b == 1) {
                AscendC::GlobalTensor<uint8_t> dst, src;
                dst.SetGlobalBuffer(mine, share);
                src.SetGlobalBuffer(mine, share);
                aclshmemx_sdma_put_nbi(dst, src, ub, share, pe, EVENT_ID0);
            } else {
                aclshmemx_sdma_put_nbi(mine, mine, ub_ptr, 64, share, pe, EVENT_ID0);
            }
        }
        if (b == 0) {
            AscendC::GlobalTensor<uint8_t> dst, src;
            dst.SetGlobalBuffer(gets, bytes);
            src.SetGlobalBuffer(data + next * bytes, bytes);
            aclshmemx_sdma_get_nbi(dst, src, ub, bytes, next, EVENT_ID0);
            aclshmemx_cmo_nbi(data + me * bytes, bytes, ACLSHMEMCMOTYPE::CMO_TYPE_PREFETCH, ub_ptr, 64, EVENT_ID0);
            aclshmemx_cmo_nbi(data + me * bytes, bytes, ACLSHMEMCMOTYPE::CMO_TYPE_FLUSH, ub_ptr, 64, EVENT_ID0);
            aclshmemx_sdma_notify_record(ub_ptr, 64, EVENT_ID0);
            aclshmemx_sdma_quiet(ub, EVENT_ID0);
        } else {
            aclshmemx_sdma_quiet(ub_ptr, 64, EVENT_ID0);
        }
        aclshmemx_barrier_all_vec();
    } else if (part == 1) {
        aclshmemx_roce_barrier_all();
        __gm__ uint8_t* mine = data + me * bytes;
        for (int pe = 0; pe < n; ++pe) {
            if (pe == me) continue;
            if (pe % 2 == 0) aclshmemx_roce_put_nbi(mine, mine, ub_ptr, bytes, pe);
            else aclshmemx_roce_put_nbi(mine, mine, ub_ptr, bytes, pe, 0);
        }
        AscendC::GlobalTensor<uint8_t> dst, src;
        dst.SetGlobalBuffer(gets, bytes);
        src.SetGlobalBuffer(data + next * bytes, bytes);
        aclshmemx_roce_get_nbi(dst, src, ub, bytes, next, 0);
        aclshmemx_roce_quiet(next, ub_ptr, 0);
        r[0] = aclshmem_roce_ptr(data, next) == aclshmem_ptr(data, next) ? 1 : 0;
        aclshmemx_roce_barrier_all(ub_ptr, 0);
        aclshmemx_roce_sync_all();
    } else if (part == 2) {
        if (me == 0 && AscendC::GetBlockIdx() == 0) {
            __gm__ int32_t* i32 = (__gm__ int32_t*)(words + 32);
            __gm__ uint64_t* u64 = (__gm__ uint64_t*)(words + 40);
            __gm__ uint32_t* u32 = (__gm__ uint32_t*)(words + 48);
            aclshmemx_roce_atomic_add(i32, 5, 1);
            aclshmemx_roce_atomic_inc(i32, 1);
            r[0] = (uint64_t)aclshmemx_roce_atomic_fetch_add(i32, 10, 1);   // 6; word 16
            r[1] = (uint64_t)aclshmemx_roce_atomic_fetch_inc(i32, 1);       // 16; word 17
            r[2] = (uint64_t)aclshmemx_roce_atomic_fetch(i32, 1);           // 17
            aclshmemx_roce_atomic_set(u64, (uint64_t)0xF0F0, 1);
            aclshmemx_roce_atomic_and(u64, (uint64_t)0xFF00, 1);            // 0xF000
            aclshmemx_roce_atomic_or(u64, (uint64_t)0x000F, 1);             // 0xF00F
            aclshmemx_roce_atomic_xor(u64, (uint64_t)0x1, 1);               // 0xF00E
            r[3] = aclshmemx_roce_atomic_fetch_xor(u64, (uint64_t)0xF, 1);  // 0xF00E; word 0xF001
            r[4] = aclshmemx_roce_atomic_fetch_and(u64, (uint64_t)0xFF, 1); // 0xF001; word 0x01
            r[5] = aclshmemx_roce_atomic_fetch_or(u64, (uint64_t)0x10, 1);  // 0x01; word 0x11
            r[6] = aclshmemx_roce_atomic_compare_swap(u32, 0u, 42u, 1);     // 0; word 42
            r[7] = aclshmemx_roce_atomic_compare_swap(u32, 0u, 7u, 1);      // 42, no swap
            r[8] = aclshmemx_roce_atomic_swap(u32, 9u, 1);                  // 42; word 9
            aclshmemx_roce_quiet(1, ub_ptr, 0);
        }
        aclshmemx_roce_barrier_all();
    } else if (part == 3) {
        aclshmem_int8_atomic_add((__gm__ int8_t*)words, (int8_t)3, me);
        aclshmem_int16_atomic_add((__gm__ int16_t*)(words + 2), (int16_t)1000, me);
        aclshmem_half_atomic_add((__gm__ half*)(words + 4), (half)0.5f, me);
        aclshmem_bfloat16_atomic_add((__gm__ bfloat16_t*)(words + 6), bfloat16_t(0.25f), me);
        aclshmem_int32_atomic_add((__gm__ int32_t*)(words + 8), -7, me);
        aclshmem_float_atomic_add((__gm__ float*)(words + 12), 1.5f, me);
        aclshmemx_mte_atomic_add((__gm__ int32_t*)(words + 32), (int32_t)(me + 1), 0);
        aclshmemx_mte_quiet();
        aclshmemx_barrier_all_vec();
    } else if (part == 4) {
        if (me == 0 && AscendC::GetBlockIdx() == 0) {
            __gm__ int32_t* i32 = (__gm__ int32_t*)(words + 32);
            __gm__ uint64_t* u64 = (__gm__ uint64_t*)(words + 40);
            aclshmemx_mte_atomic_inc(i32, 1);
            r[0] = (uint64_t)aclshmemx_mte_atomic_fetch_add(i32, 10, 1);    // 1; word 11
            r[1] = (uint64_t)aclshmemx_mte_atomic_fetch_inc(i32, 1);        // 11; word 12
            r[2] = (uint64_t)aclshmemx_mte_atomic_fetch(i32, 1);            // 12
            aclshmemx_mte_atomic_set(u64, (uint64_t)77, 1);
            r[3] = aclshmemx_mte_atomic_swap(u64, (uint64_t)88, 1);         // 77; word 88
            r[4] = aclshmemx_mte_atomic_compare_swap(u64, (uint64_t)88, (uint64_t)99, 1);  // 88; word 99
            r[5] = aclshmemx_mte_atomic_compare_swap(u64, (uint64_t)1, (uint64_t)5, 1);    // 99, no swap
            r[6] = aclshmem_uint32_atomic_fetch_add((__gm__ uint32_t*)(words + 48), 4u, 0);  // own PE: 0
            r[7] = aclshmem_uint32_atomic_fetch_add((__gm__ uint32_t*)(words + 48), 4u, 0);  // 4
        }
        aclshmemx_barrier_all_vec();
    } else if (part == 5 && AscendC::GetBlockIdx() == 0) {
        AscendC::Simt::VF_CALL<simt_part>(AscendC::Simt::Dim3{64, 1, 1}, data, gets, words, r, bytes);
        aclshmemx_barrier_all_vec();
    }
}

void launch_udma_engines(void* stream, uint32_t blocks, uint8_t* data, uint8_t* gets, uint8_t* words, uint8_t* results,
                         uint32_t part, uint32_t bytes)
{
    udma_engines_kernel<<<blocks, nullptr, stream>>>(data, gets, words, results, part, bytes);
}

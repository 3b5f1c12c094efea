// udma_p2p_sync: every PE p > 0 puts a 512 B slice with signal p + 1 into PE 0's slot p, PE p
// starting p * 2 us after the others. PE 0 synchronises on the signal words with the CANN SHMEM
// point-to-point calls and writes what each returned into `results` (uint64 words, in order):
//   0  aclshmem_uint64_wait_until_any(flags, n, NULL, GT, 0): the first PE to arrive (1)
//   1  its slice was complete when the wait returned (1)
//   2  aclshmem_uint64_test(&flags[n-1], EQ, n): the last PE had not arrived yet (0)
//   3  aclshmem_uint64_wait_until_some(flags, n, indices, status = {1, 0...}, GE, 1): how many
//      had arrived (at least 1), 4: the first index it returned
//   5  aclshmem_uint64_wait_until_all(flags, n, status, NE, 0) returned (1)
//   6  aclshmem_uint64_test_all_vector(flags, n, status, EQ, {0, 2, 3, ...}) (1)
//   7  aclshmem_uint64_test_any_vector(flags, n, status, EQ, {0, 2, 3, ...}): index 1
//   8  aclshmem_uint64_test_some(flags, n, indices, NULL, LT, 2): 1 (only flags[0], still 0)
//   9  every slice complete after wait_until_all (1)
//   10 aclshmem_signal_wait_until on the int32 view of flags[1], GE 2: the value (2)
//   11 aclshmem_uint64_wait_until_any_vector with every element excluded: SIZE_MAX
//   12 (every PE) its int32 word after PE 0's aclshmemx_signal_op calls: SET 7 on PE 1, ADD 5
//      twice on PE 2, SET 1 + ADD 2 on PE 3, ADD 3 twice on itself (6, 7, 10, 3)
// All PEs then meet in aclshmem_sync(ACLSHMEM_TEAM_WORLD) and the device aclshmem_barrier_all().
#include "kernel_operator.h"
#include "shmem.h"

namespace {

constexpr uint32_t kSlice = 512;

__aicore__ inline bool slice_complete(GM_ADDR data, int p)
{
    __gm__ uint8_t* slice = data + p * kSlice;
    dcci_cachelines(slice, kSlice);
    for (uint32_t i = 0; i < kSlice; ++i) {
        if (slice[i] != (uint8_t)(p * 37 + i)) return false;
    }
    return true;
}

// What PE `pe`'s signal word ends at (results[12] on each PE).
__aicore__ inline int32_t signal_want(int pe)
{
    return pe == 0 ? 6 : pe == 1 ? 7 : pe == 2 ? 10 : 3;
}

}  // namespace

extern "C" __global__ __aicore__ void udma_p2p_sync_kernel(GM_ADDR flags_addr, GM_ADDR data, GM_ADDR src,
                                                           GM_ADDR work, GM_ADDR results_addr)
{
    util_set_ffts_config(0);
    const int me = aclshmem_my_pe();
    const int n = aclshmem_n_pes();
    __gm__ uint64_t* flags = (__gm__ uint64_t*)flags_addr;
    __gm__ int32_t* sigw = (__gm__ int32_t*)(work + 1024);  // aclshmemx_signal_op's word on every PE
    if (me != 0) {
        const uint64_t until = AscendC::GetSystemCycle() + me * 100;  // me * 2 us at 50 MHz
        while (AscendC::GetSystemCycle() < until) {
        }
        aclshmemx_udma_put_signal_nbi(data + me * kSlice, src, kSlice, flags + me, (uint64_t)me + 1, 0);
        aclshmemx_udma_quiet(0);
        __gm__ uint64_t* results = (__gm__ uint64_t*)results_addr;
        aclshmem_int32_wait_until(sigw, ACLSHMEM_CMP_EQ, signal_want(me));
        results[12] = (uint64_t)*sigw;
        dcci_cachelines((__gm__ uint8_t*)(results + 12), sizeof(uint64_t));
    } else {
        __gm__ uint64_t* results = (__gm__ uint64_t*)results_addr;
        __gm__ int* status = (__gm__ int*)work;                              // n ints
        __gm__ size_t* indices = (__gm__ size_t*)(work + 256);               // n words
        __gm__ uint64_t* expected = (__gm__ uint64_t*)(work + 512);          // n words
        for (int p = 0; p < n; ++p) {
            status[p] = p == 0 ? 1 : 0;
            expected[p] = p == 0 ? 0 : (uint64_t)p + 1;
        }
        const size_t first = aclshmem_uint64_wait_until_any(flags, n, nullptr, ACLSHMEM_CMP_GT, 0);
        results[0] = first;
        results[1] = slice_complete(data, (int)first) ? 1 : 0;
        results[2] = (uint64_t)aclshmem_uint64_test(flags + n - 1, ACLSHMEM_CMP_EQ, (uint64_t)n);
        results[3] = aclshmem_uint64_wait_until_some(flags, n, indices, status, ACLSHMEM_CMP_GE, 1);
        results[4] = indices[0];
        aclshmem_uint64_wait_until_all(flags, n, status, ACLSHMEM_CMP_NE, 0);
        results[5] = 1;
        results[6] = (uint64_t)aclshmem_uint64_test_all_vector(flags, n, status, ACLSHMEM_CMP_EQ, expected);
        results[7] = aclshmem_uint64_test_any_vector(flags, n, status, ACLSHMEM_CMP_EQ, expected);
        results[8] = aclshmem_uint64_test_some(flags, n, indices, nullptr, ACLSHMEM_CMP_LT, 2);
        bool all = true;
        for (int p = 1; p < n; ++p) all = all && slice_complete(data, p);
        results[9] = all ? 1 : 0;
        results[10] = (uint64_t)aclshmem_signal_wait_until((__gm__ int32_t*)(flags + 1), ACLSHMEM_CMP_GE, 2);
        for (int p = 0; p < n; ++p) status[p] = 1;
        results[11] = aclshmem_uint64_wait_until_any_vector(flags, n, status, ACLSHMEM_CMP_EQ, expected);
        // Signals: SET 7 on PE 1, ADD 5 twice on PE 2, SET 1 then ADD 2 on PE 3, ADD 3 twice here.
        aclshmemx_signal_op(sigw, 7, ACLSHMEM_SIGNAL_SET, 1);
        for (int p = 2; p < n; ++p) {
            aclshmemx_signal_op(sigw, p == 2 ? 5 : 1, p == 2 ? ACLSHMEM_SIGNAL_ADD : ACLSHMEM_SIGNAL_SET, p);
            aclshmemx_signal_op(sigw, p == 2 ? 5 : 2, ACLSHMEM_SIGNAL_ADD, p);
        }
        aclshmemx_signal_op(sigw, 3, ACLSHMEM_SIGNAL_ADD, 0);
        aclshmemx_signal_op(sigw, 3, ACLSHMEM_SIGNAL_ADD, 0);
        results[12] = (uint64_t)aclshmem_signal_wait_until(sigw, ACLSHMEM_CMP_EQ, signal_want(0));
        dcci_cachelines((__gm__ uint8_t*)results, 13 * sizeof(uint64_t));
    }
    aclshmem_sync(ACLSHMEM_TEAM_WORLD);
    aclshmem_barrier_all();
}

void launch_udma_p2p_sync(void* stream, uint8_t* flags, uint8_t* data, uint8_t* src, uint8_t* work, uint8_t* results)
{
    udma_p2p_sync_kernel<<<1, nullptr, stream>>>(flags, data, src, work, results);
}

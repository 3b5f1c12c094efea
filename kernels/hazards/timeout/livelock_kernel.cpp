// timeout: a ping-pong whose loop never ends. PE 0 sends round r's value to PE 1 and waits
// for it to come back; PE 1 waits for it and sends it back. Buggy: the loop steps by 2 but
// tests r != rounds, so with an odd round count it never stops; the two PEs keep the fabric
// busy (no deadlock: something is always in flight) until the time limit. Fixed: r < rounds.
#include "kernel_operator.h"
#include "shmem.h"

namespace {
__aicore__ inline void run(GM_ADDR flag, GM_ADDR value, uint32_t rounds, bool bounded)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> buf;
    pipe.InitBuffer(buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
    __ubuf__ uint8_t* wqe_scratch = (__ubuf__ uint8_t*)buf.Get<uint8_t>().GetPhyAddr();
    const int me = aclshmem_my_pe();
    const int peer = (me + 1) % aclshmem_n_pes();
    __gm__ uint64_t* f = reinterpret_cast<__gm__ uint64_t*>(flag);
    __gm__ uint64_t* v = reinterpret_cast<__gm__ uint64_t*>(value);
    for (uint32_t r = 0; bounded ? r < rounds : r != rounds; r += 2) {
        if (me == 1) {
            for (;;) {
                dcci(f, cache_line_t::SINGLE_CACHE_LINE);
                if (*f == r + 1) break;
            }
        }
        *v = r + 1;
        dcci(v, cache_line_t::SINGLE_CACHE_LINE);
        aclshmemx_udma_put_nbi(flag, value, wqe_scratch, 8, peer);
        aclshmemx_udma_quiet(peer);
        if (me == 0) {
            for (;;) {
                dcci(f, cache_line_t::SINGLE_CACHE_LINE);
                if (*f == r + 1) break;
            }
        }
    }
}
}  // namespace

extern "C" __global__ __aicore__ void livelock_buggy_kernel(GM_ADDR flag, GM_ADDR value, uint32_t rounds)
{
    run(flag, value, rounds, false);
}

extern "C" __global__ __aicore__ void livelock_fixed_kernel(GM_ADDR flag, GM_ADDR value, uint32_t rounds)
{
    run(flag, value, rounds, true);
}

void launch_livelock(bool fixed, void* stream, uint8_t* flag, uint8_t* value, uint32_t rounds)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(livelock_fixed_kernel)(1, stream, flag, value, rounds);
    else
        ACLRT_LAUNCH_KERNEL(livelock_buggy_kernel)(1, stream, flag, value, rounds);
}

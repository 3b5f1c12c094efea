// deadlock. Each PE must tell its neighbour "ready" and wait for its own "ready". Buggy: each
// PE first waits for its flag and only then sets its neighbour's, so both wait forever (a
// circular wait; on the device both cores spin until the watchdog). Fixed: set the
// neighbour's flag first, then wait.
#include "kernel_operator.h"
#include "shmem.h"

namespace {
__aicore__ inline void signal_peer(GM_ADDR flag, GM_ADDR one, int peer, __ubuf__ uint8_t* wqe_scratch)
{
    aclshmemx_udma_put_nbi(flag, one, wqe_scratch, 8, peer);
    aclshmemx_udma_quiet(peer);
}

__aicore__ inline void wait_ready(GM_ADDR flag)
{
    __gm__ uint64_t* f = reinterpret_cast<__gm__ uint64_t*>(flag);
    for (;;) {
        dcci(f, cache_line_t::SINGLE_CACHE_LINE);
        if (*f == 1) break;
    }
}

__aicore__ inline void run(GM_ADDR flag, GM_ADDR one, bool signal_first)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> buf;
    pipe.InitBuffer(buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
    __ubuf__ uint8_t* wqe_scratch = (__ubuf__ uint8_t*)buf.Get<uint8_t>().GetPhyAddr();
    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    if (signal_first) signal_peer(flag, one, peer, wqe_scratch);
    wait_ready(flag);
    if (!signal_first) signal_peer(flag, one, peer, wqe_scratch);
}
}  // namespace

extern "C" __global__ __aicore__ void deadlock_buggy_kernel(GM_ADDR flag, GM_ADDR one) { run(flag, one, false); }
extern "C" __global__ __aicore__ void deadlock_fixed_kernel(GM_ADDR flag, GM_ADDR one) { run(flag, one, true); }

void launch_deadlock(bool fixed, void* stream, uint8_t* flag, uint8_t* one)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(deadlock_fixed_kernel)(1, stream, flag, one);
    else
        ACLRT_LAUNCH_KERNEL(deadlock_buggy_kernel)(1, stream, flag, one);
}

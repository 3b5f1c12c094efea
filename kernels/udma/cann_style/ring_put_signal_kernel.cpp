// A kernel written exactly as for the NPU (CANN style: extern "C" __global__ __aicore__ entry,
// GM_ADDR arguments, <<<>>> launch), built unmodified for symsim by
// cmake/SymsimKernelLibrary.cmake. Each PE puts its slot of `data` to every other PE with
// put_signal_nbi (the signal word of the sender's slot is set to `signal`), then waits until
// every other PE's signal has arrived and quiets.
#include "kernel_operator.h"
#include "shmem.h"

extern "C" [[bisheng::core_ratio(0, 1)]] __global__ __aicore__ void ring_put_signal_kernel(
    GM_ADDR data, GM_ADDR signals, uint32_t slot_bytes, uint64_t signal)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> buf;
    pipe.InitBuffer(buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
    AscendC::LocalTensor<uint8_t> scratch = buf.GetWithOffset<uint8_t>(ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE, 0);

    const int my_pe = aclshmem_my_pe();
    const int n_pes = aclshmem_n_pes();
    GM_ADDR mine = data + static_cast<uint64_t>(slot_bytes) * my_pe;
    __gm__ uint64_t* my_signal = (__gm__ uint64_t*)signals + my_pe;
    for (int i = 1; i < n_pes; ++i) {
        const int pe = (my_pe + i) % n_pes;
        aclshmemx_udma_put_signal_nbi(mine, mine, slot_bytes, my_signal, signal, pe,
                                      (__ubuf__ uint8_t*)scratch.GetPhyAddr(), 0);
    }
    for (int pe = 0; pe < n_pes; ++pe) {
        __gm__ uint64_t* flag = (__gm__ uint64_t*)signals + pe;
        while (pe != my_pe) {
            dcci(flag, cache_line_t::SINGLE_CACHE_LINE);
            if (*flag == signal) {
                break;
            }
        }
    }
    for (int i = 1; i < n_pes; ++i) {
        aclshmemx_udma_quiet((my_pe + i) % n_pes);
    }
    aclshmemx_barrier_all_vec();
}

void launch_ring_put_signal(uint32_t block_dim, void* stream, uint8_t* data, uint8_t* signals, uint32_t slot_bytes,
                            uint64_t signal)
{
    ring_put_signal_kernel<<<block_dim, nullptr, stream>>>(data, signals, slot_bytes, signal);
}

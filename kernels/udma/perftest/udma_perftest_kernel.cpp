// udma_perftest: PE 0 puts (or gets) messages of 2^min_exp .. 2^max_exp bytes to PE 1, `loop`
// times per size after a warm-up, draining completions every `batch` operations (quiet), and
// records the cycles (AscendC::GetSystemCycle, 50 MHz) each size's timed window took in
// `cycles[size index]`. batch = loop measures bandwidth (one quiet at the end); batch = 1
// measures the latency of put + quiet.
#include "kernel_operator.h"
#include "shmem.h"

namespace {
constexpr int WARMUP = 2;
}

extern "C" [[bisheng::core_ratio(0, 1)]] __global__ __aicore__ void udma_perftest_kernel(
    GM_ADDR dst, GM_ADDR src, GM_ADDR cycles, uint32_t min_exp, uint32_t max_exp, uint32_t loop, uint32_t batch,
    uint32_t get)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> buf;
    pipe.InitBuffer(buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
    __ubuf__ uint8_t* scratch = (__ubuf__ uint8_t*)buf.Get<uint8_t>().GetPhyAddr();
    __gm__ uint64_t* out = (__gm__ uint64_t*)cycles;
    const int peer = 1;
    if (aclshmem_my_pe() == 0) {
        for (uint32_t e = min_exp; e <= max_exp; ++e) {
            const uint32_t bytes = 1U << e;
            for (int i = 0; i < WARMUP; ++i) {
                aclshmemx_udma_put_nbi(dst, src, scratch, bytes, peer);
            }
            aclshmemx_udma_quiet(peer);
            AscendC::PipeBarrier<PIPE_ALL>();
            const uint64_t start = AscendC::GetSystemCycle();
            for (uint32_t i = 0; i < loop; ++i) {
                if (get) {
                    aclshmemx_udma_get_nbi(dst, src, scratch, bytes, peer);
                } else {
                    aclshmemx_udma_put_nbi(dst, src, scratch, bytes, peer);
                }
                if ((i + 1) % batch == 0 || i + 1 == loop) {
                    aclshmemx_udma_quiet(peer);
                }
            }
            AscendC::PipeBarrier<PIPE_ALL>();
            out[e - min_exp] = AscendC::GetSystemCycle() - start;
        }
    }
    aclshmemx_barrier_all_vec();
}

void launch_udma_perftest(uint32_t block_dim, void* stream, uint8_t* dst, uint8_t* src, uint8_t* cycles,
                          uint32_t min_exp, uint32_t max_exp, uint32_t loop, uint32_t batch, uint32_t get)
{
    udma_perftest_kernel<<<block_dim, nullptr, stream>>>(dst, src, cycles, min_exp, max_exp, loop, batch, get);
}

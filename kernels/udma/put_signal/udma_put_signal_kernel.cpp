// udma_put_signal: each round, every PE puts its round-r slice to its right neighbour with
// WRITE_WITH_NOTIFY (signal = r + 1), then waits for its left neighbour's signal to reach r + 1
// and immediately copies the slice it announced into `seen`: if the signal could overtake its
// data, `seen` would hold stale bytes.
#include "kernel_operator.h"
#include "shmem.h"

namespace {
constexpr uint32_t CHUNK_BYTES = 64 * 1024;

__aicore__ inline void copy_gm(GM_ADDR dst, GM_ADDR src, uint64_t bytes, AscendC::LocalTensor<uint8_t>& ub)
{
    AscendC::GlobalTensor<uint8_t> in, out;
    for (uint64_t off = 0; off < bytes; off += CHUNK_BYTES) {
        const uint32_t len = static_cast<uint32_t>(bytes - off < CHUNK_BYTES ? bytes - off : CHUNK_BYTES);
        in.SetGlobalBuffer(src + off, len);
        out.SetGlobalBuffer(dst + off, len);
        AscendC::DataCopyPad(ub, in, {1, len, 0, 0, 0});
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
        AscendC::DataCopyPad(out, ub, {1, len, 0, 0, 0});
        AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
}
}  // namespace

extern "C" __global__ __aicore__ void udma_put_signal_kernel(GM_ADDR dst, GM_ADDR src, GM_ADDR seen, GM_ADDR sig,
                                                             uint64_t bytes, uint64_t rounds)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> wqe_buf, data_buf;
    pipe.InitBuffer(wqe_buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
    pipe.InitBuffer(data_buf, CHUNK_BYTES);
    __ubuf__ uint8_t* wqe_scratch = (__ubuf__ uint8_t*)wqe_buf.Get<uint8_t>().GetPhyAddr();
    AscendC::LocalTensor<uint8_t> staging = data_buf.Get<uint8_t>();

    const int my_pe = aclshmem_my_pe();
    const int peer = (my_pe + 1) % aclshmem_n_pes();
    __gm__ uint64_t* signal = (__gm__ uint64_t*)sig;

    for (uint64_t r = 0; r < rounds; ++r) {
        aclshmemx_udma_put_signal_nbi(dst + r * bytes, src + r * bytes, static_cast<uint32_t>(bytes), signal, r + 1,
                                      peer, wqe_scratch, 0);
        // Receiver side: spin on the signal word (dcci so each read sees memory, not cache).
        for (;;) {
            dcci(signal, cache_line_t::SINGLE_CACHE_LINE);
            if (*signal >= r + 1) break;
        }
        copy_gm(seen + r * bytes, dst + r * bytes, bytes, staging);
        aclshmemx_udma_quiet(peer);
    }
    aclshmemx_barrier_all_vec();
}

void launch_udma_put_signal(uint32_t block_dim, void* stream, uint8_t* dst, uint8_t* src, uint8_t* seen, uint8_t* sig,
                            uint64_t bytes, uint64_t rounds)
{
    ACLRT_LAUNCH_KERNEL(udma_put_signal_kernel)(block_dim, stream, dst, src, seen, sig, bytes, rounds);
}

// flag_before_data. The sender puts its data, then a flag word that tells the receiver the
// data is there; the receiver spins on the flag and then reads the data. Buggy: the flag is
// a second put right behind the data, with nothing ordering them: quiet gives completion,
// not ordering, and a relaxed-ordering WQE may land before an earlier one (here forced by a
// reorder fault on the data). Fixed: quiet after the data, then the flag.
#include "kernel_operator.h"
#include "shmem.h"

namespace {
constexpr uint32_t CHUNK = 16384;

__aicore__ inline void run(GM_ADDR data, GM_ADDR flag, GM_ADDR one, GM_ADDR src, GM_ADDR seen, uint32_t bytes,
                           bool quiet_between)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> wqe_buf, data_buf;
    pipe.InitBuffer(wqe_buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
    pipe.InitBuffer(data_buf, CHUNK);
    __ubuf__ uint8_t* wqe_scratch = (__ubuf__ uint8_t*)wqe_buf.Get<uint8_t>().GetPhyAddr();
    AscendC::LocalTensor<uint8_t> staging = data_buf.Get<uint8_t>();
    const int peer = (aclshmem_my_pe() + 1) % aclshmem_n_pes();
    // Sender: the data, then the flag that publishes it.
    aclshmemx_udma_put_nbi(data, src, wqe_scratch, bytes, peer);
    if (quiet_between) aclshmemx_udma_quiet(peer);
    aclshmemx_udma_put_nbi(flag, one, wqe_scratch, 8, peer);
    // Receiver: wait for the left neighbour's flag, then take its data.
    __gm__ uint64_t* my_flag = reinterpret_cast<__gm__ uint64_t*>(flag);
    for (;;) {
        dcci(my_flag, cache_line_t::SINGLE_CACHE_LINE);
        if (*my_flag == 1) break;
    }
    AscendC::GlobalTensor<uint8_t> in, out;
    for (uint32_t off = 0; off < bytes; off += CHUNK) {
        const uint32_t n = bytes - off < CHUNK ? bytes - off : CHUNK;
        in.SetGlobalBuffer(data + off, n);
        out.SetGlobalBuffer(seen + off, n);
        AscendC::DataCopy(staging, in, n);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
        AscendC::DataCopy(out, staging, n);
        AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
    }
    aclshmemx_udma_quiet(peer);
    aclshmemx_barrier_all_vec();
}
}  // namespace

extern "C" __global__ __aicore__ void flag_before_data_buggy_kernel(GM_ADDR data, GM_ADDR flag, GM_ADDR one, GM_ADDR src,
                                                                    GM_ADDR seen, uint32_t bytes)
{
    run(data, flag, one, src, seen, bytes, false);
}

extern "C" __global__ __aicore__ void flag_before_data_fixed_kernel(GM_ADDR data, GM_ADDR flag, GM_ADDR one, GM_ADDR src,
                                                                    GM_ADDR seen, uint32_t bytes)
{
    run(data, flag, one, src, seen, bytes, true);
}

void launch_flag_before_data(bool fixed, void* stream, uint8_t* data, uint8_t* flag, uint8_t* one, uint8_t* src,
                             uint8_t* seen, uint32_t bytes)
{
    if (fixed)
        ACLRT_LAUNCH_KERNEL(flag_before_data_fixed_kernel)(1, stream, data, flag, one, src, seen, bytes);
    else
        ACLRT_LAUNCH_KERNEL(flag_before_data_buggy_kernel)(1, stream, data, flag, one, src, seen, bytes);
}

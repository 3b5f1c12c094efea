// udma_src_race: PE 0 puts `bytes` of its source to PE 1 and rewrites the source while the put
// may still be reading it, by the path `path` names:
//   0  an MTE3 copy from UB, waited for with WaitFlag<MTE3_S> (`delay_ns` after the post);
//   1  scalar stores written back by dcci_cachelines (`delay_ns` after the post, after a ld_dev);
//   2  st_dev of every 8-byte word (`delay_ns` after the post);
//   3  nothing here: the host program copies the new bytes while the put is in flight (the
//      post waits `delay_ns` after the kernel starts);
//   4  aclshmemx_mte_put_nbi of `fresh` onto the source on this PE, in its GlobalTensor form
//      (which calls the pointer form: two nested shim calls), then aclshmemx_mte_quiet.
// `fresh` holds the new bytes. Each 512 B unit of the put must carry the source as it was when
// the engine read that unit: the old bytes before the rewrite, the new ones after.
#include "kernel_operator.h"
#include "shmem.h"

namespace {

__aicore__ inline void spin_ns(uint32_t delay_ns)
{
    const uint64_t until = AscendC::GetSystemCycle() + delay_ns / 20;  // 50 MHz system counter
    while (AscendC::GetSystemCycle() < until) {
    }
}

}  // namespace

extern "C" __global__ __aicore__ void udma_src_race_kernel(GM_ADDR dst, GM_ADDR src, GM_ADDR fresh, uint32_t bytes,
                                                           uint32_t path, uint32_t delay_ns)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> data_buf, wqe_buf;
    pipe.InitBuffer(wqe_buf, ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE);
    __ubuf__ uint8_t* wqe_scratch = (__ubuf__ uint8_t*)wqe_buf.Get<uint8_t>().GetPhyAddr();
    if (aclshmem_my_pe() == 0) {
        AscendC::LocalTensor<uint8_t> data;
        AscendC::GlobalTensor<uint8_t> src_gm, fresh_gm;
        src_gm.SetGlobalBuffer(src, bytes);
        fresh_gm.SetGlobalBuffer(fresh, bytes);
        if (path == 0 || path == 4) {  // path 0: the new bytes wait in UB; 4: the staging buffer
            pipe.InitBuffer(data_buf, path == 0 ? bytes : 4096);
            data = data_buf.Get<uint8_t>();
        }
        if (path == 0) {
            AscendC::DataCopy(data, fresh_gm, bytes);
            AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
        }
        if (path == 3) spin_ns(delay_ns);
        aclshmemx_udma_put_nbi(dst, src, wqe_scratch, bytes, 1);
        if (path != 3) spin_ns(delay_ns);
        if (path == 0) {
            AscendC::DataCopy(src_gm, data, bytes);
            AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
        } else if (path == 1) {
            (void)ld_dev((__gm__ uint64_t*)fresh, 0);
            for (uint32_t i = 0; i < bytes; ++i) src[i] = fresh[i];
            dcci_cachelines(src, bytes);
        } else if (path == 2) {
            for (uint32_t i = 0; i < bytes / 8; ++i) {
                st_dev(((__gm__ uint64_t*)fresh)[i], (__gm__ uint64_t*)src, (int)i);
            }
        } else if (path == 4) {
            aclshmemx_mte_put_nbi(src_gm, fresh_gm, data, bytes, aclshmem_my_pe(), EVENT_ID0);
            aclshmemx_mte_quiet();
        }
        aclshmemx_udma_quiet(1);
    }
    aclshmemx_barrier_all_vec();
}

void launch_udma_src_race(void* stream, uint8_t* dst, uint8_t* src, uint8_t* fresh, uint32_t bytes, uint32_t path,
                          uint32_t delay_ns)
{
    udma_src_race_kernel<<<1, nullptr, stream>>>(dst, src, fresh, bytes, path, delay_ns);
}

// udma_generic_rma: the generic CANN SHMEM RMA calls on the UDMA transport. PE 0 writes into PE
// 1's `dst` and reads PE 1's `src` into its own `got`, each region with a different call:
//   dst[0, 1000)      aclshmem_putmem (blocking)
//   dst[1024, 2048)   aclshmem_int32_put_nbi, 256 elements
//   dst[2048, 3072)   aclshmem_put64_nbi, 128 elements
//   dst[3072, 3328)   aclshmem_float_put with GlobalTensors, 64 elements (blocking)
//   dst[4096, 4608)   aclshmem_putmem_nbi after aclshmemx_set_udma_config in the kernel
//   got[0, 512)       aclshmem_getmem (blocking)
//   got[512, 1024)    aclshmem_uint16_get_nbi, 256 elements
//   got[1024, 1536)   aclshmem_get128_nbi, 32 elements
//   got[1536, 2048)   aclshmem_char_get with GlobalTensors (blocking)
//   dst[5120, 5632)   aclshmem_putmem_signal, SET 1 into PE 1's int32 at got + 4096, which PE 1
//                     waits for; then aclshmem_fence / aclshmem_quiet and the world-team queries
// The host program set the staging buffer (aclshmemx_set_udma_config) to the kernel's first
// 128 B of UB; the kernel moves it to the next 128 B half way.
#include "kernel_operator.h"
#include "shmem.h"

extern "C" __global__ __aicore__ void udma_generic_rma_kernel(GM_ADDR dst, GM_ADDR src, GM_ADDR got)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> staging;
    pipe.InitBuffer(staging, 256);
    if (aclshmem_my_pe() == 0) {
        aclshmem_putmem(dst, src, 1000, 1);
        aclshmem_int32_put_nbi((__gm__ int32_t*)(dst + 1024), (__gm__ int32_t*)(src + 1024), 256, 1);
        aclshmem_put64_nbi(dst + 2048, src + 2048, 128, 1);
        AscendC::GlobalTensor<float> fdst, fsrc;
        fdst.SetGlobalBuffer((__gm__ float*)(dst + 3072), 64);
        fsrc.SetGlobalBuffer((__gm__ float*)(src + 3072), 64);
        aclshmem_float_put(fdst, fsrc, 64, 1);
        aclshmemx_set_udma_config(128, 128, 1);
        aclshmem_putmem_nbi(dst + 4096, src + 4096, 512, 1);
        aclshmem_getmem(got, src, 512, 1);
        aclshmem_uint16_get_nbi((__gm__ uint16_t*)(got + 512), (__gm__ uint16_t*)(src + 512), 256, 1);
        aclshmem_get128_nbi(got + 1024, src + 1024, 32, 1);
        AscendC::GlobalTensor<char> cgot, csrc;
        cgot.SetGlobalBuffer((__gm__ char*)(got + 1536), 512);
        csrc.SetGlobalBuffer((__gm__ char*)(src + 1536), 512);
        aclshmem_char_get(cgot, csrc, 512, 1);
        aclshmem_fence();
        aclshmem_putmem_signal(dst + 5120, src + 5120, 512, (__gm__ int32_t*)(got + 4096), 1, ACLSHMEM_SIGNAL_SET, 1);
        aclshmem_quiet();
        if (aclshmem_team_my_pe(ACLSHMEM_TEAM_WORLD) != 0 || aclshmem_team_n_pes(ACLSHMEM_TEAM_WORLD) != 2 ||
            aclshmem_team_translate_pe(ACLSHMEM_TEAM_WORLD, 1, ACLSHMEM_TEAM_WORLD) != 1) {
            trap();
        }
    } else {
        aclshmem_int32_wait_until((__gm__ int32_t*)(got + 4096), ACLSHMEM_CMP_EQ, 1);  // the signal of the put below
    }
    aclshmem_barrier_all();
}

void launch_udma_generic_rma(void* stream, uint8_t* dst, uint8_t* src, uint8_t* got)
{
    udma_generic_rma_kernel<<<1, nullptr, stream>>>(dst, src, got);
}

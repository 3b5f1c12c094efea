// udma_device_api: the CANN SHMEM device calls beyond UDMA put/get, on 4 PEs. Every PE works
// with its neighbour peer = pe ^ 1 (symmetric buffers src (pattern), dst and got (zero)):
//   dst[0, 4)        aclshmem_int32_p      0x1000 + pe           (a scalar store into the peer's HBM)
//   dst[4, 6)        aclshmem_half_p       pe + 0.5
//   dst[8, 10)       aclshmem_bfloat16_p   2 pe + 0.25
//   got[0, 4)        aclshmem_int32_g of the peer's dst[0] (what this PE put there), after a barrier
//   dst[1024, 2024)  aclshmemx_mte_put_nbi, GM -> UB -> peer GM in 256 B chunks (MTE2 / MTE3)
//   got[1024, 2048)  aclshmemx_mte_get_nbi of the peer's src[2048, 3072), 256 int32, 512 B chunks
//   dst[3072, 3584)  aclshmemx_mte_put_nbi from UB (ub2gm), after a DataCopy of src[3072, 3584)
//   dst[3584, 3840)  aclshmem_uint8_put_nbi from UB (the ub2gm form), the same UB bytes' first 256
//   got[3072, 3328)  aclshmem_putmem to this PE itself (the MTE engine, as upstream)
//   dst[4096, ...)   aclshmem_float_iput: 64 floats, src every 3rd float, dst every 2nd
//   got[5120, ...)   aclshmem_int16_iget: 100 int16, the peer's src every 2nd, got contiguous
// (the strided calls stage in UB [16, 20 KiB), set by the host with aclshmemx_set_mte_config)
//   got[2048, ...)   aclshmem_int32_get with non_contiguous_copy_param: 4 rows of 8 int32, the peer's
//                    rows 16 apart, got's 12 apart (MTE)
//   dst[5120, ...)   aclshmem_int16_put_signal, non-contiguous: 2 rows of 4 int16, src rows 8 apart,
//                    dst rows 6 apart; then the peer's dst[7700] is SET to 9
//   dst[6144, 6400)  aclshmem_half_put_nbi, 128 halves (UDMA)
//   got[6144, 6400)  aclshmem_bfloat16_get, 128 bfloat16 (UDMA)
// Teams (made by the host program): `even` = PEs 0 and 2, `row`/`col` of a 2 x 2 split. An even
// PE p writes 7 + p into the other even PE's dst[7680] and waits in aclshmem_barrier(even); it
// then reads its own word (written by the other) into got[7680]. Every PE stores its team
// queries into got[7168, 7200) (int32: even rank, even size, translate(even, 1 -> world),
// row rank, row size, col rank, col size, pe_mapping(col, 1)).
#include "kernel_operator.h"
#include "shmem.h"

namespace {

__aicore__ inline void put_word(GM_ADDR base, uint32_t index, int32_t v) {
    aclshmem_int32_p(reinterpret_cast<__gm__ int32_t*>(base) + index, v, aclshmem_my_pe());
}

}  // namespace

extern "C" __global__ __aicore__ void udma_device_api_kernel(GM_ADDR src, GM_ADDR dst, GM_ADDR got, int even, int row,
                                                            int col)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> staging;
    pipe.InitBuffer(staging, 20480);  // [0, 1 KiB) for the MTE calls below, [16, 20 KiB) the MTE staging
    AscendC::LocalTensor<uint8_t> ub = staging.Get<uint8_t>();
    const int me = aclshmem_my_pe();
    const int peer = me ^ 1;

    aclshmem_int32_p(reinterpret_cast<__gm__ int32_t*>(dst), 0x1000 + me, peer);
    aclshmem_half_p(reinterpret_cast<__gm__ half*>(dst + 4), static_cast<half>(me + 0.5f), peer);
    aclshmem_bfloat16_p(reinterpret_cast<__gm__ bfloat16_t*>(dst + 8), bfloat16_t(2.0f * me + 0.25f), peer);
    aclshmem_barrier_all();
    put_word(got, 0, aclshmem_int32_g(reinterpret_cast<__gm__ int32_t*>(dst), peer));

    aclshmemx_mte_put_nbi(dst + 1024, src + 1024, ub.GetPhyAddr(), 256, 1000, peer, 0);
    aclshmemx_mte_get_nbi(reinterpret_cast<__gm__ int32_t*>(got + 1024), reinterpret_cast<__gm__ int32_t*>(src + 2048),
                          reinterpret_cast<__ubuf__ int32_t*>(ub.GetPhyAddr()), 512, 256, peer, 0);
    AscendC::GlobalTensor<uint8_t> part;
    part.SetGlobalBuffer(src + 3072, 512);
    AscendC::LocalTensor<uint8_t> out = ub[512];
    AscendC::DataCopy(out, part, 512);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(1);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(1);
    aclshmemx_mte_put_nbi(dst + 3072, out.GetPhyAddr(), 512, peer, 1);
    aclshmem_uint8_put_nbi(dst + 3584, out.GetPhyAddr(), 256, peer);
    aclshmem_float_iput(reinterpret_cast<__gm__ float*>(dst + 4096), reinterpret_cast<__gm__ float*>(src + 4096), 2, 3,
                        64, peer);
    aclshmem_int16_iget(reinterpret_cast<__gm__ int16_t*>(got + 5120), reinterpret_cast<__gm__ int16_t*>(src + 5120), 1,
                        2, 100, peer);
    aclshmemx_mte_quiet();
    aclshmem_putmem(got + 3072, src + 3072, 256, me);
    const non_contiguous_copy_param rows{4, 8, 16, 12};
    aclshmem_int32_get(reinterpret_cast<__gm__ int32_t*>(got + 2048), reinterpret_cast<__gm__ int32_t*>(src + 2048),
                       rows, peer);
    const non_contiguous_copy_param pairs{2, 4, 8, 6};
    aclshmem_int16_put_signal(reinterpret_cast<__gm__ int16_t*>(dst + 5120), reinterpret_cast<__gm__ int16_t*>(src + 5120),
                              pairs, reinterpret_cast<__gm__ int32_t*>(dst + 7700), 9, ACLSHMEM_SIGNAL_SET, peer);

    aclshmem_half_put_nbi(reinterpret_cast<__gm__ half*>(dst + 6144), reinterpret_cast<__gm__ half*>(src + 6144), 128,
                          peer);
    aclshmem_bfloat16_get(reinterpret_cast<__gm__ bfloat16_t*>(got + 6144),
                          reinterpret_cast<__gm__ bfloat16_t*>(src + 6144), 128, peer);
    aclshmem_quiet();

    if (even != ACLSHMEM_TEAM_INVALID) {
        const int other = aclshmem_team_translate_pe(even, 1 - aclshmem_team_my_pe(even), ACLSHMEM_TEAM_WORLD);
        aclshmem_int32_p(reinterpret_cast<__gm__ int32_t*>(dst + 7680), 7 + me, other);
        aclshmem_barrier(even);
        put_word(got, 7680 / 4, aclshmem_int32_g(reinterpret_cast<__gm__ int32_t*>(dst + 7680), me));
    }
    const int32_t queries[8] = {aclshmem_team_my_pe(even), aclshmem_team_n_pes(even),
                                aclshmem_team_translate_pe(even, 1, ACLSHMEM_TEAM_WORLD), aclshmem_team_my_pe(row),
                                aclshmem_team_n_pes(row), aclshmem_team_my_pe(col), aclshmem_team_n_pes(col),
                                aclshmem_team_pe_mapping(col, 1)};
    for (uint32_t i = 0; i < 8; ++i) put_word(got, 7168 / 4 + i, queries[i]);
    aclshmem_barrier_all();
}

void launch_udma_device_api(void* stream, uint8_t* src, uint8_t* dst, uint8_t* got, int even, int row, int col)
{
    udma_device_api_kernel<<<1, nullptr, stream>>>(src, dst, got, even, row, col);
}

// Issue 19, session 28 (s28-store): what in calib_probe mode 23's one-warp bulk-store loop costs
// ~40 ns a row more than mode 20's (153-158 ns a row against 114, the same store sequence in
// both SASS listings). Mode 23 + 64 runs this kernel; `inflight` & 7 takes one thing out of
// fresh_rows_probe's op-1 loop at a time (rows as mode 23's: row r at r x bytes, warp w of all
// takes rows w, w + warps in all, ...; two shared buffers a warp):
//   0 lane 0 waits, fences, stores, commits; then `__syncwarp()` (fresh_rows_probe's loop
//     without its per-row op dispatch; its SASS had `WARPSYNC.ALL` after lane 0's branch)
//   1 as 0 without the `__syncwarp()` (the warp reconverges where the compiler puts it)
//   2 lane 0 runs the whole loop alone (no branch a row, no sync)
//   3 as 0 with the row's address walked (an add a row, not r x bytes from `a.bytes`)
//   4 as 0 with two 4 B stores to `word` after the commit (mode 23's op 5, the words rows)
//   5 as 4 without the `__syncwarp()`
//   6 plain 16 B stores by every lane, then `__syncwarp()` (mode 23's op 2: the same loop read 241.6 ns
//     a row in fresh_rows_probe and 314.7 in store_order_probe, session 27's call A)
//   7 as 6 without the `__syncwarp()`
// A kernel of its own, so that fresh_rows_probe's and store_order_probe's rows keep their code.
// Thread 0 of each CTA times its CTA with clock64.
#include "kernels/nvlink/calib/calib_probe.cuh"
#include "symsim_launch.cuh"
#include "symsim_ptx.cuh"

namespace {

template <int kVariant>
__device__ void store_row(const CalibProbeArgs& a, uint8_t* row, const uint8_t* buf, int r) {
  ptx::tma_store_wait<1>();
  ptx::tma_store_fence();
  ptx::tma_store_1d(row, buf, a.bytes);
  ptx::tma_store_commit();
  if (kVariant == 4 || kVariant == 5) {
    ptx::st_na(a.word + 2 * r, 0);
    ptx::st_na(a.word + 2 * r + 1, r);
  }
}


template <int kVariant>
__global__ void store_chain_probe(CalibProbeArgs a) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  const uint32_t thread = threadIdx.x, lane = thread % 32, warp = thread / 32;
  const int warps_all = static_cast<int>(gridDim.x * (blockDim.x / 32));
  const int me = static_cast<int>(blockIdx.x * (blockDim.x / 32) + warp);
  const uint8_t* bufs = smem + kCalibProbeMbarBytes + static_cast<size_t>(warp) * 2 * a.bytes;
  constexpr bool kRowSync = kVariant == 0 || kVariant == 3 || kVariant == 4 || kVariant == 6;
  __syncthreads();
  const long long t0 = clock64();
  // Lane 0's code from one bulk store to the next in each variant's SASS (v0 to v5 in order): stall
  // cycles a store; all but v2 wait for the CTA id's S2UR / S2R 25 cycles after its issue, every one
  // for its MEMBAR 6 cycles after (tools/sass-store/store_loop_cycles.txt). v6 and v7 issue none.
  if (kVariant == 0) ptx::store_loop_code(117, {25}, {6});
  if (kVariant == 1) ptx::store_loop_code(125, {25}, {6});
  if (kVariant == 2) ptx::store_loop_code(102, {}, {6});
  if (kVariant == 3) ptx::store_loop_code(130, {25}, {6});
  if (kVariant == 4) ptx::store_loop_code(130, {25}, {6});
  if (kVariant == 5) ptx::store_loop_code(138, {25}, {6});
  if (kVariant == 2) {
    if (lane == 0) {
      int k = 0;
      for (int r = me; r < a.per_thread; r += warps_all, ++k)
        store_row<kVariant>(a, a.buf + static_cast<uint64_t>(r) * a.bytes, bufs + (k & 1) * a.bytes, r);
    }
  } else if (kVariant == 3) {
    const uint64_t step = static_cast<uint64_t>(warps_all) * a.bytes;
    uint8_t* row = a.buf + static_cast<uint64_t>(me) * a.bytes;
    int k = 0;
    for (int r = me; r < a.per_thread; r += warps_all, ++k, row += step) {
      if (lane == 0) store_row<kVariant>(a, row, bufs + (k & 1) * a.bytes, r);
      ptx::syncwarp_all();  // WARPSYNC.ALL in the SASS
    }
  } else if (kVariant >= 6) {
    for (int r = me; r < a.per_thread; r += warps_all) {
      uint8_t* row = a.buf + static_cast<uint64_t>(r) * a.bytes;
      const int4 v = make_int4(r, 1, 2, static_cast<int>(lane));
      for (uint32_t i = lane * 16; i < a.bytes; i += 32 * 16) ptx::st_na(reinterpret_cast<int4*>(row + i), v);
      if (kRowSync) __syncwarp();
    }
  } else {
    int k = 0;
    for (int r = me; r < a.per_thread; r += warps_all, ++k) {
      if (lane == 0) store_row<kVariant>(a, a.buf + static_cast<uint64_t>(r) * a.bytes, bufs + (k & 1) * a.bytes, r);
      if (kRowSync) ptx::syncwarp_all();  // WARPSYNC.ALL in v0's and v4's SASS (v1, v5: BSSY / BSYNC)
    }
  }
  ptx::store_loop_code_end();
  if (lane == 0) ptx::tma_store_wait<0>();
  __syncthreads();
  if (thread == 0) a.cycles[blockIdx.x] = static_cast<unsigned long long>(clock64() - t0);
}

}  // namespace

int launch_store_chain_probe(int ctas, int threads, int smem_bytes, const CalibProbeArgs& args) {
  const dim3 grid(ctas), block(threads);
  const auto smem = static_cast<size_t>(smem_bytes);
  switch (args.inflight & 7) {
    case 0: return SYMSIM_LAUNCH(store_chain_probe<0>, grid, block, smem, nullptr, args);
    case 1: return SYMSIM_LAUNCH(store_chain_probe<1>, grid, block, smem, nullptr, args);
    case 2: return SYMSIM_LAUNCH(store_chain_probe<2>, grid, block, smem, nullptr, args);
    case 3: return SYMSIM_LAUNCH(store_chain_probe<3>, grid, block, smem, nullptr, args);
    case 4: return SYMSIM_LAUNCH(store_chain_probe<4>, grid, block, smem, nullptr, args);
    case 5: return SYMSIM_LAUNCH(store_chain_probe<5>, grid, block, smem, nullptr, args);
    case 6: return SYMSIM_LAUNCH(store_chain_probe<6>, grid, block, smem, nullptr, args);
    case 7: return SYMSIM_LAUNCH(store_chain_probe<7>, grid, block, smem, nullptr, args);
  }
  return cudaErrorInvalidValue;
}

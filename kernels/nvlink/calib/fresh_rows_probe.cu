// Issue 19, eighth pass: what writing or reading rows of memory costs by the memory's state
// (calib_probe mode 23): `count` rows of `bytes`, each once, row r at r x bytes of the window,
// spread over every warp of every CTA (warp w of all takes rows w, w + warps in all, ...). The
// host leaves the window never written (fresh cudaMalloc memory), written just before (in L2),
// or written and then pushed out of L2 (`hot` 0, 1, 2). `inflight` picks the operation:
//   1 bulk stores (lane 0, one left in flight per warp, as dispatch's send step),
//   2 plain 16 B stores by the warp's lanes, 3 bulk loads (the warp waits on the mbarrier),
//   4 plain 16 B loads by the warp's lanes, 5 bulk stores each followed by two plain 4 B stores
//   to `word` (pull's source words right after its row's store); + 8: the shared buffers the
//   bulk stores send are filled with varied bytes first (else never written). + 16 or + 32:
//   store_order_probe below. + 64: store_chain_probe.cu's variants of the op-1 loop.
// Thread 0 of each CTA times its CTA with clock64.
#include "kernels/nvlink/calib/calib_probe.cuh"
#include "symsim_launch.cuh"
#include "symsim_ptx.cuh"

namespace {

__global__ void fresh_rows_probe(CalibProbeArgs a) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  const uint32_t thread = threadIdx.x, lane = thread % 32, warp = thread / 32;
  const int warps_all = static_cast<int>(gridDim.x * (blockDim.x / 32));
  const int me = static_cast<int>(blockIdx.x * (blockDim.x / 32) + warp);
  uint64_t* mbar = reinterpret_cast<uint64_t*>(smem) + warp;
  uint8_t* bufs = smem + kCalibProbeMbarBytes + static_cast<size_t>(warp) * 2 * a.bytes;
  if (lane == 0) ptx::mbarrier_init_with_fence(mbar, 1);
  if (a.inflight & 8)  // the bulk stores' data varied, not zeros
    for (uint32_t i = lane * 4; i < 2 * a.bytes; i += 32 * 4) *reinterpret_cast<uint32_t*>(bufs + i) = (i + 1) * 2654435761u;
  __syncthreads();
  const long long t0 = clock64();
  const int op = a.inflight & 7;
  uint32_t phase = 0;
  int4 sum = make_int4(0, 0, 0, 0);
  int k = 0;
  // Lane 0's code from one bulk store to the next (ops 1 and 5) in the SASS: 43 instructions, 170
  // stall cycles (0x860-0x8e0, 0x1470-0x1820: the op dispatch, the row's LDC-fed address, the fence,
  // the uniformity check, the words' predicated code, WARPSYNC.ALL), `a.bytes`'s LDC waited 6 cycles
  // after its issue, the MEMBAR 6 (tools/sass-store/store_loop_cycles.txt).
  // Of the 170, 102 from the loop's head to the store (0x860-0x8e0, 0x1470-0x1590): the first store runs them,
  // with the LDC and MEMBAR waits, in place of the host count (sm.store_loop_first_store_head; s36-store).
  ptx::store_loop_code(170, {6}, {6}, 1, 102);
  for (int r = me; r < a.per_thread; r += warps_all, ++k) {
    uint8_t* row = a.buf + static_cast<uint64_t>(r) * a.bytes;
    uint8_t* buf = bufs + (k & 1) * a.bytes;
    if (op == 1 || op == 5) {
      if (lane == 0) {
        ptx::tma_store_wait<1>();
        ptx::tma_store_fence();
        ptx::tma_store_1d(row, buf, a.bytes);
        ptx::tma_store_commit();
        if (op == 5) {
          ptx::st_na(a.word + 2 * r, 0);
          ptx::st_na(a.word + 2 * r + 1, r);
        }
      }
    } else if (op == 2) {
      const int4 v = make_int4(r, 1, 2, static_cast<int>(lane));
      for (uint32_t i = lane * 16; i < a.bytes; i += 32 * 16) ptx::st_na(reinterpret_cast<int4*>(row + i), v);
    } else if (op == 3) {
      if (lane == 0) {
        ptx::tma_load_1d(buf, row, mbar, a.bytes);
        ptx::mbarrier_arrive_and_set_tx(mbar, a.bytes);
      }
      ptx::mbarrier_wait_and_flip_phase(mbar, phase);
    } else {
      // The SASS (s19b) issues this loop's loads 4 before their first use, the tail 2 then 1.
      const ptx::LoadsBeforeUse unrolled(4);
      for (uint32_t i = lane * 16; i < a.bytes; i += 32 * 16) {
        const int4 v = ptx::ld_weak(reinterpret_cast<const int4*>(row + i));
        sum.x += v.x, sum.y += v.y, sum.z += v.z, sum.w += v.w;
      }
    }
    ptx::syncwarp_all();  // WARPSYNC.ALL in the SASS (0x1640; tools/sass-store/store_loops.py)
  }
  ptx::store_loop_code_end();
  if (lane == 0) ptx::tma_store_wait<0>();
  if (sum.x + sum.y + sum.z + sum.w == 0x12345678) a.cycles[gridDim.x] = 1;
  __syncthreads();
  if (thread == 0) a.cycles[blockIdx.x] = static_cast<unsigned long long>(clock64() - t0);
}

// Session 25's device questions on one warp's stores (mode 23 with `inflight` + 16 or + 32; a
// kernel of its own, so that fresh_rows_probe's rows keep their code): `inflight` & 7 is 1, 2 or
// 5 as there. + 16: no `__syncwarp` after each row (does the GPU's WARPSYNC wait for the warp's
// stores to land? rows fresh.plain_store.*.c1w1, fresh.bulk_store_words.*.c1w1); + 32 (bulk
// stores): mode 20's order, every lane waits, `__syncwarp`, lane 0 fences and stores, every lane
// commits (rows shim.store_round_warp.l2.7168.c1w1.n512 114 ns a row, fresh.bulk_store.*.c1w1 153);
// with `inflight` & 7 of 2 or 5, + 32 runs fresh_rows_probe's loop here (this kernel's control).
// Session 37's question (s37-warp): the words rows' one-time ~38 ns (session 31's call D2: 7168 B words
// - bulk +2 ns at one row, +40 at two, +3.6 a row after; 1 KiB +38 at one row) is either the first
// touch of the words' line or page, or the next row's proxy fence (MEMBAR.ALL.CTA) waiting for the
// words to land. + 128 (op 5): before the timed loop lane 0 stores its first row's two words once
// (the same line); + 128 + 8: two words 1 KiB further (another line of the same 4 KiB; the host
// allocates 4 KiB of words then). A touch removes the jump, a fence wait keeps it.
__global__ void store_order_probe(CalibProbeArgs a) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  const uint32_t thread = threadIdx.x, lane = thread % 32, warp = thread / 32;
  const int warps_all = static_cast<int>(gridDim.x * (blockDim.x / 32));
  const int me = static_cast<int>(blockIdx.x * (blockDim.x / 32) + warp);
  const uint8_t* bufs = smem + kCalibProbeMbarBytes + static_cast<size_t>(warp) * 2 * a.bytes;
  const bool row_sync = !(a.inflight & 16), round_order = a.inflight & 32;
  const int op = a.inflight & 7;
  if ((a.inflight & 128) && op == 5 && lane == 0) {
    int* touched = a.word + ((a.inflight & 8) ? 256 : 0) + 2 * me;
    ptx::st_na(touched, -1);
    ptx::st_na(touched + 1, -1);
    ptx::fence_acq_rel_gpu();  // landed before the timed loop
  }
  __syncthreads();
  const long long t0 = clock64();
  int k = 0;
  for (int r = me; r < a.per_thread; r += warps_all, ++k) {
    uint8_t* row = a.buf + static_cast<uint64_t>(r) * a.bytes;
    const uint8_t* buf = bufs + (k & 1) * a.bytes;
    if (op == 2) {
      const int4 v = make_int4(r, 1, 2, static_cast<int>(lane));
      for (uint32_t i = lane * 16; i < a.bytes; i += 32 * 16) ptx::st_na(reinterpret_cast<int4*>(row + i), v);
    } else if (round_order && op == 1) {
      ptx::tma_store_wait<1>();
      __syncwarp();
      if (lane == 0) {
        ptx::tma_store_fence();
        ptx::tma_store_1d(row, buf, a.bytes);
      }
      ptx::tma_store_commit();
    } else if (lane == 0) {
      ptx::tma_store_wait<1>();
      ptx::tma_store_fence();
      ptx::tma_store_1d(row, buf, a.bytes);
      ptx::tma_store_commit();
      if (op == 5) {
        ptx::st_na(a.word + 2 * r, 0);
        ptx::st_na(a.word + 2 * r + 1, r);
      }
    }
    if (row_sync) __syncwarp();
  }
  if (lane == 0) ptx::tma_store_wait<0>();
  __syncthreads();
  if (thread == 0) a.cycles[blockIdx.x] = static_cast<unsigned long long>(clock64() - t0);
}

}  // namespace

int launch_fresh_rows_probe(int ctas, int threads, int smem_bytes, const CalibProbeArgs& args) {
  if (args.inflight & 64) return launch_store_chain_probe(ctas, threads, smem_bytes, args);  // store_chain_probe.cu
  if (args.inflight & 48)
    return SYMSIM_LAUNCH(store_order_probe, dim3(ctas), dim3(threads), static_cast<size_t>(smem_bytes), nullptr, args);
  return SYMSIM_LAUNCH(fresh_rows_probe, dim3(ctas), dim3(threads), static_cast<size_t>(smem_bytes), nullptr, args);
}

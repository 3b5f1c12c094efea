// PTX-style device wrappers in the style of DeepEP's common/ptx.cuh and DeepGEMM's ptx/*.cuh,
// written from the PTX ISA: typed loads and stores with their semantics and scope, reductions
// and atomics, fences, 1D TMA bulk copies with mbarrier completion and bulk groups, elect.
// Built by nvcc these are inline PTX; built by the host compiler they run on the simulator's
// models (symsim/cuda/intrinsics.h), with the caller's source line recorded.
#pragma once
#include <cstdint>
#include <initializer_list>

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#define SYMSIM_SITE_PARAM
#define SYMSIM_SITE_ONLY
#else
#include "cuda_runtime.h"
#define SYMSIM_SITE_PARAM , ::symsim::nv::Site site_ = SYMSIM_HERE
#define SYMSIM_SITE_ONLY ::symsim::nv::Site site_ = SYMSIM_HERE
#define SYMSIM_LD(T, p, sem, scope) ::symsim::cuda::ld<T>(p, ::symsim::nv::Sem::sem, ::symsim::nv::Scope::scope, site_)
#define SYMSIM_ST(T, p, v, sem, scope) ::symsim::cuda::st<T>(p, v, ::symsim::nv::Sem::sem, ::symsim::nv::Scope::scope, site_)
#define SYMSIM_ATOM(T, p, op, v, sem, scope, result) \
  ::symsim::cuda::atom<T>(p, ::symsim::nv::AtomicOp::op, v, T{}, ::symsim::nv::Sem::sem, ::symsim::nv::Scope::scope, result, site_)
#endif

namespace ptx {

#if defined(__CUDACC__)
__device__ __forceinline__ uint32_t smem_addr(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }
#endif

// ---- loads ----------------------------------------------------------------------------
__device__ __forceinline__ int ld_acquire_sys(const int* p SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  int r;
  asm volatile("ld.acquire.sys.global.b32 %0, [%1];" : "=r"(r) : "l"(p) : "memory");
  return r;
#else
  return SYMSIM_LD(int, p, Acquire, Sys);
#endif
}
__device__ __forceinline__ int64_t ld_acquire_sys(const int64_t* p SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  int64_t r;
  asm volatile("ld.acquire.sys.global.b64 %0, [%1];" : "=l"(r) : "l"(p) : "memory");
  return r;
#else
  return SYMSIM_LD(int64_t, p, Acquire, Sys);
#endif
}
__device__ __forceinline__ uint64_t ld_acquire_sys(const uint64_t* p SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  uint64_t r;
  asm volatile("ld.acquire.sys.global.b64 %0, [%1];" : "=l"(r) : "l"(p) : "memory");
  return r;
#else
  return SYMSIM_LD(uint64_t, p, Acquire, Sys);
#endif
}
__device__ __forceinline__ int ld_acquire_gpu(const int* p SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  int r;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(r) : "l"(p) : "memory");
  return r;
#else
  return SYMSIM_LD(int, p, Acquire, Gpu);
#endif
}
__device__ __forceinline__ uint32_t ld_acquire_gpu(const uint32_t* p SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  uint32_t r;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(r) : "l"(p) : "memory");
  return r;
#else
  return SYMSIM_LD(uint32_t, p, Acquire, Gpu);
#endif
}
__device__ __forceinline__ int ld_relaxed_sys(const int* p SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  int r;
  asm volatile("ld.relaxed.sys.global.b32 %0, [%1];" : "=r"(r) : "l"(p) : "memory");
  return r;
#else
  return SYMSIM_LD(int, p, Relaxed, Sys);
#endif
}
__device__ __forceinline__ int ld_relaxed_gpu(const int* p SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  int r;
  asm volatile("ld.relaxed.gpu.global.b32 %0, [%1];" : "=r"(r) : "l"(p) : "memory");
  return r;
#else
  return SYMSIM_LD(int, p, Relaxed, Gpu);
#endif
}
__device__ __forceinline__ int ld_volatile(const int* p SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  int r;
  asm volatile("ld.volatile.global.b32 %0, [%1];" : "=r"(r) : "l"(p) : "memory");
  return r;
#else
  return SYMSIM_LD(int, p, Relaxed, Sys);  // .volatile is .relaxed.sys
#endif
}
__device__ __forceinline__ uint64_t ld_volatile(const uint64_t* p SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  uint64_t r;
  asm volatile("ld.volatile.global.b64 %0, [%1];" : "=l"(r) : "l"(p) : "memory");
  return r;
#else
  return SYMSIM_LD(uint64_t, p, Relaxed, Sys);
#endif
}
__device__ __forceinline__ uint16_t ld_volatile(const uint16_t* p SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  uint16_t r;
  asm volatile("ld.volatile.global.b16 %0, [%1];" : "=h"(r) : "l"(p) : "memory");
  return r;
#else
  return SYMSIM_LD(uint16_t, p, Relaxed, Sys);
#endif
}
// Non-coherent data loads (ld.global.nc): weak.
__device__ __forceinline__ int4 ldg(const int4* p SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  int4 r;
  asm volatile("ld.global.nc.L1::no_allocate.v4.s32 {%0, %1, %2, %3}, [%4];"
               : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
  return r;
#else
  return SYMSIM_LD(int4, p, Weak, Gpu);
#endif
}
__device__ __forceinline__ int ldg(const int* p SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  int r;
  asm volatile("ld.global.nc.L1::no_allocate.b32 %0, [%1];" : "=r"(r) : "l"(p));
  return r;
#else
  return SYMSIM_LD(int, p, Weak, Gpu);
#endif
}
// A weak (plain) global load.
__device__ __forceinline__ int4 ld_weak(const int4* p SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  int4 r;
  asm volatile("ld.global.v4.s32 {%0, %1, %2, %3}, [%4];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
  return r;
#else
  return SYMSIM_LD(int4, p, Weak, Gpu);
#endif
}
__device__ __forceinline__ int ld_weak(const int* p SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  int r;
  asm volatile("ld.global.b32 %0, [%1];" : "=r"(r) : "l"(p));
  return r;
#else
  return SYMSIM_LD(int, p, Weak, Gpu);
#endif
}

// How many 16 B loads the compiled loop around it issues before it uses the first, as the
// loop's SASS has them (tools/sass-loads/loads_before_use.py): declared in the loop's scope, it
// tells the model this loop's count instead of sm.loads_before_use. Nothing on the GPU.
struct LoadsBeforeUse {
#if defined(__CUDACC__)
  __device__ explicit LoadsBeforeUse(int) {}
#else
  explicit LoadsBeforeUse(int n) : had_(::symsim::nv::swap_loads_before_use(static_cast<uint8_t>(n))) {}
  ~LoadsBeforeUse() { ::symsim::nv::swap_loads_before_use(had_); }
  LoadsBeforeUse(const LoadsBeforeUse&) = delete;
  LoadsBeforeUse& operator=(const LoadsBeforeUse&) = delete;

 private:
  uint8_t had_;
#endif
};

// A loop over the lanes' values by shuffles of one register (dispatch's loop keeping each rank
// once) that the loop's SASS unrolls, as nvcc does when its trip count is a compile-time constant:
// the shuffles go out back to back into registers of their own and the compares between them run
// under them. Called right before the loop with `unrolled` true (the trip count is a constant
// there), it tells the model to charge the code between the thread's next shuffles of the same
// operands as independent instructions (sm.code_indep_insn_ns), not as a chain waiting for each
// shuffle, up to its first other operation. A rolled loop (a run-time trip count: nvcc unrolls
// it by 4 into one register, each compare waiting for its shuffle) is left as it is. A call, not
// a scoped object: a destructor would give the loop's calls cleanup edges and change the host
// build's counted code (tools/code-weights/as). Nothing on the GPU.
__device__ __forceinline__ void unrolled_shuffles(bool unrolled) noexcept {
#if !defined(__CUDACC__)
  ::symsim::nv::set_unrolled_shuffles(unrolled);
#else
  (void)unrolled;
#endif
}

// A bulk-store loop's __syncwarp that its SASS runs as an unguarded WARPSYNC.ALL (lane 0's store
// branch reconverged there; the plain form is a BRA.DIV-guarded WARPSYNC). Where the SASS has it is
// read by tools/sass-store/store_loops.py, and tests/source/test_sass_store_loops.py checks every
// kernel with a stored listing marks it there and nowhere else. A lane that issued a bulk store since
// its last __syncwarp makes it cost the warp sm.warpsync_all_ns (session 28's D2: store_chain v0 - v1)
// and not wait for the lanes' stores to land (D1). On the GPU: __syncwarp. In the host build the same
// __syncwarp call after a mark, so the kernel's counted code stays the plain call's.
__device__ __forceinline__ void syncwarp_all(SYMSIM_SITE_ONLY) {
#if defined(__CUDACC__)
  __syncwarp();
#else
  ::symsim::nv::next_syncwarp_all();
  __syncwarp(0xffffffffu, site_);
#endif
}

// A bulk-store loop's code from one store to the next as its SASS runs it, as
// tools/sass-store/store_loops.py reads it off the loop's listing (its table:
// tools/sass-store/store_loop_cycles.txt; tests/source/test_sass_store_loops.py checks each
// kernel's figures against the stored listings): `cycles` the static issue and stall cycles a
// store (the control words' stall counts on the issuing lane's path), `const_waits` the static
// cycles between each constant or special-register load on that path (LDC, S2UR, S2R) and the
// first instruction that waits for its result, `fence_waits` the same for a MEMBAR and the fence
// waiting for it, `stores` the bulk stores on the path (a loop unrolled by 4: 4). Declared around
// the loop, it tells the model: once the thread issued a bulk store here, its code is this at each
// store, not the host build's count, which misses the SASS's op dispatch, constant loads, uniform
// checks and wraps (docs/hw-accuracy.md, thirty-sixth pass (s30-chain)). Nothing on the GPU.
__device__ __forceinline__ void store_loop_code(float cycles, std::initializer_list<int> const_waits,
                                                std::initializer_list<int> fence_waits, int stores = 1, float pre_cycles = 0) noexcept {
#if !defined(__CUDACC__)
  ::symsim::nv::set_store_loop_code(cycles, const_waits, fence_waits, stores, pre_cycles);
#endif
}
// After the loop: the thread's code is the host build's count again.
__device__ __forceinline__ void store_loop_code_end() noexcept {
#if !defined(__CUDACC__)
  ::symsim::nv::set_store_loop_code(0, {}, {}, 1);
#endif
}

// A loop nested in a bulk-store loop between two of its stores, as tools/sass-store/store_loops.py
// reads it off the listing (its `inner` figures in tools/sass-store/store_loop_cycles.txt; the
// test checks each kernel's figures): `cycles` / `insns` an iteration's static issue and stall
// cycles and instructions, `entry_cycles` / `entry_insns` what entering it adds (run only when
// `iterations` >= 1), `iterations` this pass's count. Declared before the loop, with
// store_loop_inner_code_end() after it: the model counts the loop's code so, where it runs, not
// the host build's count of it (docs/hw-accuracy.md, thirty-seventh pass (s31-store)). Nothing on
// the GPU.
__device__ __forceinline__ void store_loop_inner_code(float cycles, int insns, float entry_cycles, int entry_insns,
                                                      int iterations) noexcept {
#if !defined(__CUDACC__)
  ::symsim::nv::begin_store_loop_inner(cycles, insns, entry_cycles, entry_insns, iterations);
#endif
}
__device__ __forceinline__ void store_loop_inner_code_end() noexcept {
#if !defined(__CUDACC__)
  ::symsim::nv::end_store_loop_inner();
#endif
}

// ---- stores -------------------------------------------------------------------------------
__device__ __forceinline__ void st_relaxed_sys(int* p, int v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("st.relaxed.sys.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
#else
  SYMSIM_ST(int, p, v, Relaxed, Sys);
#endif
}
__device__ __forceinline__ void st_relaxed_sys(uint64_t* p, uint64_t v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("st.relaxed.sys.global.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
#else
  SYMSIM_ST(uint64_t, p, v, Relaxed, Sys);
#endif
}
__device__ __forceinline__ void st_relaxed_sys(int64_t* p, int64_t v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("st.relaxed.sys.global.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
#else
  SYMSIM_ST(int64_t, p, v, Relaxed, Sys);
#endif
}
__device__ __forceinline__ void st_relaxed_gpu(int* p, int v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("st.relaxed.gpu.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
#else
  SYMSIM_ST(int, p, v, Relaxed, Gpu);
#endif
}
__device__ __forceinline__ void st_volatile(int* p, int v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("st.volatile.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
#else
  SYMSIM_ST(int, p, v, Relaxed, Sys);  // .volatile is .relaxed.sys
#endif
}
__device__ __forceinline__ void st_release_sys(int* p, int v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("st.release.sys.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
#else
  SYMSIM_ST(int, p, v, Release, Sys);
#endif
}
__device__ __forceinline__ void st_release_gpu(int* p, int v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("st.release.gpu.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
#else
  SYMSIM_ST(int, p, v, Release, Gpu);
#endif
}
__device__ __forceinline__ void st_release_gpu(uint32_t* p, uint32_t v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("st.release.gpu.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
#else
  SYMSIM_ST(uint32_t, p, v, Release, Gpu);
#endif
}
// Weak stores (st.global, L1 no-allocate): data.
__device__ __forceinline__ void st_na(int4* p, const int4& v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("st.global.L1::no_allocate.v4.s32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w));
#else
  SYMSIM_ST(int4, p, v, Weak, Gpu);
#endif
}
__device__ __forceinline__ void st_na(int* p, int v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("st.global.L1::no_allocate.b32 [%0], %1;" ::"l"(p), "r"(v));
#else
  SYMSIM_ST(int, p, v, Weak, Gpu);
#endif
}
__device__ __forceinline__ void st_na(uint64_t* p, uint64_t v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("st.global.L1::no_allocate.b64 [%0], %1;" ::"l"(p), "l"(v));
#else
  SYMSIM_ST(uint64_t, p, v, Weak, Gpu);
#endif
}

// ---- reductions and atomics ---------------------------------------------------------------
__device__ __forceinline__ void red_add(int* p, int v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("red.relaxed.gpu.global.add.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
#else
  SYMSIM_ATOM(int, p, Add, v, Relaxed, Gpu, false);
#endif
}
__device__ __forceinline__ void red_add(uint64_t* p, uint64_t v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("red.relaxed.gpu.global.add.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
#else
  SYMSIM_ATOM(uint64_t, p, Add, v, Relaxed, Gpu, false);
#endif
}
__device__ __forceinline__ void red_add_rel_gpu(int* p, int v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("red.release.gpu.global.add.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
#else
  SYMSIM_ATOM(int, p, Add, v, Release, Gpu, false);
#endif
}
__device__ __forceinline__ void red_add_rel_sys(int* p, int v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("red.release.sys.global.add.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
#else
  SYMSIM_ATOM(int, p, Add, v, Release, Sys, false);
#endif
}
__device__ __forceinline__ int atomic_add_sys(int* p, int v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  int r;
  asm volatile("atom.relaxed.sys.global.add.s32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");
  return r;
#else
  return SYMSIM_ATOM(int, p, Add, v, Relaxed, Sys, true);
#endif
}
__device__ __forceinline__ uint64_t atomic_add_sys(uint64_t* p, uint64_t v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  uint64_t r;
  asm volatile("atom.relaxed.sys.global.add.u64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(v) : "memory");
  return r;
#else
  return SYMSIM_ATOM(uint64_t, p, Add, v, Relaxed, Sys, true);
#endif
}
// red.relaxed.sys.add: a signal without its release (calib_probe's sync_probe.cu).
__device__ __forceinline__ void red_add_sys(int* p, int v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("red.relaxed.sys.global.add.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
#else
  SYMSIM_ATOM(int, p, Add, v, Relaxed, Sys, false);
#endif
}
// atom.relaxed.gpu.add: the grid-barrier arrival without its release (sync_probe.cu).
__device__ __forceinline__ uint32_t atomic_add(uint32_t* p, uint32_t v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  uint32_t r;
  asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");
  return r;
#else
  return SYMSIM_ATOM(uint32_t, p, Add, v, Relaxed, Gpu, true);
#endif
}
// atom.release.gpu.add: the grid-barrier arrival.
__device__ __forceinline__ uint32_t atomic_add_rel(uint32_t* p, uint32_t v SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  uint32_t r;
  asm volatile("atom.release.gpu.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");
  return r;
#else
  return SYMSIM_ATOM(uint32_t, p, Add, v, Release, Gpu, true);
#endif
}

// ---- fences ---------------------------------------------------------------------------------
__device__ __forceinline__ void fence_acq_rel_sys(SYMSIM_SITE_ONLY) {
#if defined(__CUDACC__)
  asm volatile("fence.acq_rel.sys;" ::: "memory");
#else
  ::symsim::nv::fence(::symsim::nv::Sem::AcqRel, ::symsim::nv::Scope::Sys, site_);
#endif
}
__device__ __forceinline__ void fence_acq_rel_gpu(SYMSIM_SITE_ONLY) {
#if defined(__CUDACC__)
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
#else
  ::symsim::nv::fence(::symsim::nv::Sem::AcqRel, ::symsim::nv::Scope::Gpu, site_);
#endif
}
__device__ __forceinline__ void fence_sc_sys(SYMSIM_SITE_ONLY) {
#if defined(__CUDACC__)
  asm volatile("fence.sc.sys;" ::: "memory");
#else
  ::symsim::nv::fence(::symsim::nv::Sem::Sc, ::symsim::nv::Scope::Sys, site_);
#endif
}

// ---- TMA and mbarriers ----------------------------------------------------------------------
__device__ __forceinline__ void mbarrier_init(uint64_t* mbar, uint32_t arrivals) {
#if defined(__CUDACC__)
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(mbar)), "r"(arrivals) : "memory");
#else
  ::symsim::nv::mbar_init(mbar, arrivals);
#endif
}
__device__ __forceinline__ void mbarrier_init_with_fence(uint64_t* mbar, uint32_t arrivals) {
  mbarrier_init(mbar, arrivals);
#if defined(__CUDACC__)
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#else
  ::symsim::nv::mbar_init_fence();
#endif
}
__device__ __forceinline__ void mbarrier_arrive(uint64_t* mbar SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(mbar)) : "memory");
#else
  ::symsim::nv::mbar_arrive(mbar, 1, 0, site_);
#endif
}
// Arrives once and adds `bytes` to the transaction bytes the phase waits for.
__device__ __forceinline__ void mbarrier_arrive_and_set_tx(uint64_t* mbar, uint32_t bytes SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(mbar)), "r"(bytes) : "memory");
#else
  ::symsim::nv::mbar_arrive(mbar, 1, bytes, site_);
#endif
}
__device__ __forceinline__ void mbarrier_wait(uint64_t* mbar, uint32_t phase SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile(
      "{\n .reg .pred p;\n WAIT_%=:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra WAIT_%=;\n}" ::"r"(
          smem_addr(mbar)),
      "r"(phase)
      : "memory");
#else
  ::symsim::nv::mbar_wait(mbar, phase, site_);
#endif
}
__device__ __forceinline__ void mbarrier_wait_and_flip_phase(uint64_t* mbar, uint32_t& phase SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  mbarrier_wait(mbar, phase);
#else
  mbarrier_wait(mbar, phase, site_);
#endif
  phase ^= 1;
}
// 1D bulk copy global -> shared, completing `bytes` transaction bytes on `mbar`.
__device__ __forceinline__ void tma_load_1d(void* smem_dst, const void* gmem_src, uint64_t* mbar, uint32_t bytes SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   smem_addr(smem_dst)),
               "l"(gmem_src), "r"(bytes), "r"(smem_addr(mbar))
               : "memory");
#else
  ::symsim::nv::tma_load(smem_dst, gmem_src, bytes, mbar, site_);
#endif
}
// 1D bulk copy shared -> global (local or a peer's memory) in the current bulk group: weak.
__device__ __forceinline__ void tma_store_1d(void* gmem_dst, const void* smem_src, uint32_t bytes SYMSIM_SITE_PARAM) {
#if defined(__CUDACC__)
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(gmem_dst), "r"(smem_addr(smem_src)),
               "r"(bytes)
               : "memory");
#else
  ::symsim::nv::tma_store(gmem_dst, smem_src, bytes, site_);
#endif
}
__device__ __forceinline__ void tma_store_commit() {
#if defined(__CUDACC__)
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
#else
  ::symsim::nv::tma_commit();
#endif
}
// Blocks until at most N bulk groups of this thread are in flight (their writes complete).
template <int N = 0>
__device__ __forceinline__ void tma_store_wait(SYMSIM_SITE_ONLY) {
#if defined(__CUDACC__)
  asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory");
#else
  ::symsim::nv::tma_wait(N, site_);
#endif
}
// Orders this thread's generic shared-memory writes before later TMA reads of them.
__device__ __forceinline__ void tma_store_fence() {
#if defined(__CUDACC__)
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#else
  ::symsim::nv::work(1);  // the model's TMA reads shared memory at issue: ordered already
#endif
}

// ---- warp helpers ---------------------------------------------------------------------------
__device__ __forceinline__ uint32_t get_lane_idx() {
#if defined(__CUDACC__)
  uint32_t lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
#else
  return ((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) % 32;
#endif
}
// True in exactly one lane of the (converged) warp.
__device__ __forceinline__ bool elect_one_sync(SYMSIM_SITE_ONLY) {
#if defined(__CUDACC__)
  uint32_t pred = 0;
  asm volatile(
      "{\n .reg .b32 rx;\n .reg .pred px;\n elect.sync rx|px, %1;\n @px mov.s32 %0, 1;\n}" : "+r"(pred) : "r"(0xffffffffu));
  return pred != 0;
#else
  const unsigned votes = __ballot_sync(__activemask(), 1, site_);
  return static_cast<int>(get_lane_idx()) == __ffs(static_cast<int>(votes)) - 1;
#endif
}

}  // namespace ptx

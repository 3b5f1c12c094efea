// The kernels' own code between shim calls (address arithmetic, loop control, decoding): the
// kernel translation units are compiled with -fsanitize-coverage=trace-pc and assembled through
// tools/code-weights/as, which turns each basic block's coverage call into a call of
// __symsim_code_insns with the block's instruction count. The CUDA shim adds those counts up,
// and the next model call of the running thread (this_thread()) charges them as issue time of
// the warp on its SM, like any other warp instruction: max(one warp's time, warps x the SM's
// slot per instruction), one warp's time being sm.code_insn_ns an instruction and
// sm.code_jump_ns a jump. The code right after a bulk wait_group that waited costs up to
// sm.code_after_bulk_wait_ns less: the stores' fitted landing holds a loop's code after its wait.
// Code between two plain global stores, or two 16 B data loads, of one thread (nothing else
// between) is a loop over memory whose iterations do not wait for each other: the GPU's
// compiler unrolls it and issues its instructions back to back, sm.code_indep_insn_ns each,
// jumps included (row code.imad_indep8.w1_ns), not at the dependent chains' rates.
#pragma once
#include <cstdint>
#include <initializer_list>

#include "models/nvidia/cuda_thread.h"

namespace symsim::nv {

// Instructions of the kernel code run since the last charge. Fibers switch only inside model
// calls, so what accumulates here between two model calls is the running thread's.
extern uint64_t g_code_insns;
// Of those, integer divisions by a run-time value: the GPU has no divide instruction and runs
// a dependent sequence of its own for each (rows shim.dispatch_phases.rtexperts.*).
extern uint64_t g_code_divs;
// Of those, jumps (the GPU's branches: sm.code_jump_ns each, not sm.code_insn_ns).
extern uint64_t g_code_jumps;

// Code counted from a loop's SASS in place of the host count (begin_store_loop_inner): its time
// one warp alone, ns, and its instructions.
extern double g_code_sass_ns;
extern uint64_t g_code_sass_insns;

// A block of an object compiled without tools/code-weights/as (plain trace-pc: the count of
// its instructions is unknown) counts as the calibration loop's block: 5 instructions, one of
// them its jump (kernels/nvlink/calib/code_probe.cu, tests/nvidia/test_code_cost.cpp).
constexpr uint64_t kUnweighedBlockInsns = 5;

// What a thread's model operation is to the code before it (CudaThread::code_op).
enum CodeOp : uint8_t { kCodeOpOther = 0, kCodeOpPlainStore = 1, kCodeOpDataLoad = 2, kCodeOpShuffle = 3 };

// Moves the counted instructions onto `t`'s local time; `independent`: at
// sm.code_indep_insn_ns an instruction.
void charge_code_blocks(CudaThread& t, bool independent = false);
// Sets the running thread's loads before first use (CudaThread::loads_before_use) and returns
// the one it had; outside a CUDA thread nothing. No model call, so no code is charged; out of
// line, so the kernel's code count (tools/code-weights/as) sees only a call.
uint8_t swap_loads_before_use(uint8_t n);
// Marks the running thread's next run of shuffles of the same operands as a loop its SASS unrolls
// (ptx::unrolled_shuffles); outside a CUDA thread nothing. Out of line, as swap_loads_before_use.
void set_unrolled_shuffles(bool on) noexcept;
// The running thread's bulk-store loop code (ptx::store_loop_code): its time a store from the
// SASS's figures (sm.store_loop_cycle_ns a cycle; each wait for a constant load's result
// sm.store_loop_const_cycles, for a MEMBAR's sm.store_loop_fence_cycles, from its issue); the
// thread's stores start afresh. `cycles` 0: none (the host count).
void set_store_loop_code(float cycles, std::initializer_list<int> const_waits, std::initializer_list<int> fence_waits, int stores,
                         float pre_cycles = 0);
// A loop nested in a bulk-store loop, between two of its stores, that names its SASS's code
// (ptx::store_loop_inner_code, tools/sass-store/store_loops.py's `inner` figures): for `iterations`
// >= 1, from begin to end the host build's count of the running thread's code (the loop, its guard)
// is dropped and the SASS's entry and iterations counted in its place (dependent code: sm.store_loop_cycle_ns a
// cycle, one warp alone; its instructions for the SM's issue slots). Charged where the loop runs,
// with the rest of the thread's code. sm.store_loop_cycle_ns 0: the host count.
void begin_store_loop_inner(float cycles, int insns, float entry_cycles, int entry_insns, int iterations);
void end_store_loop_inner();
// Forgets code counted outside a CUDA thread (host code and static initialisers of a kernel
// translation unit).
inline void drop_code_blocks() { g_code_insns = 0, g_code_divs = 0, g_code_jumps = 0, g_code_sass_ns = 0, g_code_sass_insns = 0; }

}  // namespace symsim::nv

// Operational, seeded PTX memory-ordering model. Each step picks (with the seeded RNG) a
// runnable thread and runs its next instruction; a load picks which message it reads
// among those its view allows, a store where it lands in modification order. The same
// seed always gives the same run.
//
// Semantics follow the PTX 7.5 formal model (the Dat3M cat version the verdicts come
// from): views for causality order, release/acquire patterns (stores, fences, RMW chains)
// restricted to morally strong pairs, fence.sc ordering morally strong fence.sc pairs,
// CTA barriers, and proxy-preserved causality for surface/texture/constant proxies and
// aliases. A thread may run a later store or relaxed RMW early, past earlier independent
// accesses to other locations (load buffering), as the model's no-thin-air rule allows.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "models/ptx/ptx_barrier.h"
#include "models/ptx/ptx_memory.h"
#include "models/ptx/ptx_program.h"
#include "models/ptx/ptx_rng.h"
#include "models/ptx/ptx_thread.h"

namespace symsim::ptx {

enum class RunStatus { Finished, Deadlock, StepLimit };

struct RunResult {
  RunStatus status = RunStatus::Finished;
  std::vector<std::map<int, int64_t>> regs;  // per thread
  std::map<int, int64_t> memory;             // final value per physical address id
  uint64_t steps = 0;
};

class Machine {
 public:
  Machine(const Program& program, uint64_t seed);
  RunResult run(uint64_t max_steps);

 private:
  bool runnable(const ThreadState& t) const;
  void step(int thread);
  void execute(ThreadState& t, const Instr& in, size_t& next);
  // Index of a later instruction the thread may run now, out of order; 0 if none.
  size_t early_candidate(const ThreadState& t);
  bool may_run_early(const ThreadState& t, size_t j) const;
  void skip_ran_early(ThreadState& t) const;

  // One instruction each; defined in ptx_access.cpp (memory) and ptx_machine.cpp (rest).
  void do_load(ThreadState& t, const Instr& in);
  void do_store(ThreadState& t, const Instr& in);
  void do_rmw(ThreadState& t, const Instr& in);
  void do_fence_acq_rel(ThreadState& t, const Instr& in);
  void do_fence_sc(ThreadState& t, const Instr& in);
  void do_barrier(ThreadState& t, const Instr& in);

  int64_t value_of(const ThreadState& t, const Operand& op) const;
  AccessClass class_of(const ThreadState& t, const Instr& in) const;
  AccessInfo info_of(const ThreadState& t, const Instr& in, Sem sem) const;
  // Strong writes carry the thread's pending releases (fences, earlier release stores).
  std::vector<Release> releases_for_write(ThreadState& t, const Instr& in, Sem sem);
  void observe(ThreadState& t, const Instr& in, Sem sem, const Message& m);
  void acquire(ThreadState& t, const std::vector<Release>& releases, Scope scope);
  // Which of `n` allowed messages (oldest first) a read takes, following read_bias_.
  size_t pick_read(size_t n);

  struct ScFence {
    Placement place;
    Scope scope;
    View view;
  };

  const Program& program_;
  Rng rng_;
  Memory memory_;
  Barriers barriers_;
  std::vector<ThreadState> threads_;
  std::vector<ScFence> sc_fences_;  // in execution order = fence-SC order
  // Per-run exploration knobs drawn from the seed: how often the scheduler keeps the
  // same thread, and how often a thread runs an independent later instruction first.
  int stick_percent_ = 0;
  int early_percent_ = 0;
  int read_bias_ = 0;  // 0: uniform; +1: mostly the newest allowed message; -1: mostly the oldest
};

// Value an atom/red operation writes, given the value it read.
int64_t rmw_result(AluOp op, int64_t old_value, int64_t a, int64_t b);
int64_t alu_result(AluOp op, int64_t a, int64_t b);
bool compare(CmpOp op, int64_t a, int64_t b);

}  // namespace symsim::ptx

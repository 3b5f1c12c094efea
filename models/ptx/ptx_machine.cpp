#include "models/ptx/ptx_machine.h"

#include <stdexcept>

namespace symsim::ptx {

Machine::Machine(const Program& program, uint64_t seed)
    : program_(program), rng_(seed), barriers_(program) {
  static const int kStick[] = {0, 50, 80, 95};
  static const int kEarly[] = {0, 10, 30};
  stick_percent_ = kStick[rng_.below(4)];
  early_percent_ = kEarly[rng_.below(3)];
  read_bias_ = static_cast<int>(rng_.below(3)) - 1;
  for (size_t a = 0; a < program.addrs.size(); ++a) {
    if (program.addrs[a].physical != static_cast<int>(a)) continue;  // aliases share storage
    auto init = program.init_value.find(static_cast<int>(a));
    memory_.add_location(static_cast<int>(a), init == program.init_value.end() ? 0 : init->second);
  }
  for (const ThreadCode& tc : program.threads) {
    ThreadState t;
    t.place = tc.place;
    t.place.thread = static_cast<int>(threads_.size());  // thread ids index threads_
    t.regs = tc.reg_init;
    t.done = tc.code.empty();
    threads_.push_back(std::move(t));
  }
}

RunResult Machine::run(uint64_t max_steps) {
  RunResult result;
  std::vector<int> ready;
  int last = -1;
  while (true) {
    ready.clear();
    bool all_done = true;
    for (size_t i = 0; i < threads_.size(); ++i) {
      all_done = all_done && threads_[i].done;
      if (runnable(threads_[i])) ready.push_back(static_cast<int>(i));
    }
    if (all_done) break;
    if (ready.empty()) {
      result.status = RunStatus::Deadlock;
      break;
    }
    if (result.steps >= max_steps) {
      result.status = RunStatus::StepLimit;
      break;
    }
    const bool stay = last >= 0 && runnable(threads_[last]) && rng_.coin(stick_percent_);
    last = stay ? last : ready[rng_.below(ready.size())];
    step(last);
    ++result.steps;
  }
  for (const ThreadState& t : threads_) result.regs.push_back(t.regs);
  for (size_t a = 0; a < program_.addrs.size(); ++a) {
    const int phys = program_.addrs[a].physical;
    result.memory[phys] = memory_.final_value(phys);
  }
  return result;
}

bool Machine::runnable(const ThreadState& t) const {
  if (t.done) return false;
  if (!t.arrived_at_barrier) return true;
  const Instr& in = program_.threads[t.place.thread].code[t.pc];
  return barriers_.can_pass(t.place.thread, t.pc, value_of(t, in.b), value_of(t, in.c));
}

int64_t Machine::value_of(const ThreadState& t, const Operand& op) const {
  if (!op.is_reg) return op.imm;
  auto it = t.regs.find(op.reg);
  return it == t.regs.end() ? 0 : it->second;
}

void Machine::step(int thread) {
  ThreadState& t = threads_[thread];
  const std::vector<Instr>& code = program_.threads[thread].code;
  if (const size_t j = early_candidate(t)) {
    size_t ignored = j + 1;  // stores and RMWs do not branch
    execute(t, code[j], ignored);
    t.ran_early.insert(j);
    return;
  }
  size_t next = t.pc + 1;
  execute(t, code[t.pc], next);
  t.pc = next;
  skip_ran_early(t);
}

void Machine::execute(ThreadState& t, const Instr& in, size_t& next) {
  switch (in.kind) {
    case OpKind::Load: do_load(t, in); break;
    case OpKind::Store: do_store(t, in); break;
    case OpKind::Atom:
    case OpKind::Red: do_rmw(t, in); break;
    case OpKind::Fence: do_fence_acq_rel(t, in); break;
    case OpKind::FenceSc: do_fence_sc(t, in); break;
    case OpKind::ProxyFence: t.view.proxy_fence(in.proxy, t.place.cta_uid()); break;
    case OpKind::AliasFence:
      t.view.alias_fence([this](int generic) { return program_.addrs.at(generic).physical; });
      break;
    case OpKind::Barrier:
      do_barrier(t, in);
      if (t.arrived_at_barrier) next = t.pc;  // still waiting
      break;
    case OpKind::Move: t.regs[in.dst] = value_of(t, in.a); break;
    case OpKind::Alu: t.regs[in.dst] = alu_result(in.alu, value_of(t, in.a), value_of(t, in.b)); break;
    case OpKind::Branch:
      if (compare(in.cmp, value_of(t, in.a), value_of(t, in.b))) next = static_cast<size_t>(in.target);
      break;
    case OpKind::Jump: next = static_cast<size_t>(in.target); break;
  }
}

void Machine::do_fence_acq_rel(ThreadState& t, const Instr& in) {
  // Acquire half: releases observed by earlier strong reads; release half: remembered
  // for later strong writes.
  acquire(t, t.observed, in.scope);
  t.fence_release[static_cast<int>(in.scope)] = t.view;
}

void Machine::do_fence_sc(ThreadState& t, const Instr& in) {
  // Morally strong fence.sc pairs are totally ordered (here: by execution) and the
  // earlier synchronises with the later. As in the formal model, fence.sc is not an
  // acq_rel fence for release/acquire patterns.
  for (const ScFence& f : sc_fences_) {
    const Scope needed = common_scope(f.place, t.place);
    const bool same_thread = f.place.thread == t.place.thread;
    if (same_thread || (f.scope >= needed && in.scope >= needed)) t.view.join(f.view);
  }
  sc_fences_.push_back(ScFence{t.place, in.scope, t.view});
}

void Machine::do_barrier(ThreadState& t, const Instr& in) {
  const int64_t id = value_of(t, in.b);
  if (!t.arrived_at_barrier) {
    barriers_.arrive(t.place.thread, t.pc, id, t.view);
    t.arrived_at_barrier = !in.bar_arrive;  // arrive never waits
    if (in.bar_arrive) return;
  }
  if (!barriers_.can_pass(t.place.thread, t.pc, id, value_of(t, in.c))) return;
  t.view.join(barriers_.partners_view(t.place.thread, t.pc, id));
  t.arrived_at_barrier = false;
}

int64_t alu_result(AluOp op, int64_t a, int64_t b) {
  switch (op) {
    case AluOp::Add: return a + b;
    case AluOp::Sub: return a - b;
    case AluOp::Mul: return a * b;
    case AluOp::Div: return b == 0 ? 0 : a / b;
    case AluOp::And: return a & b;
    case AluOp::Or: return a | b;
    case AluOp::Xor: return a ^ b;
    case AluOp::Min: return a < b ? a : b;
    case AluOp::Max: return a > b ? a : b;
    case AluOp::Exch: return b;
    case AluOp::Inc: return a >= b ? 0 : a + 1;
    case AluOp::Dec: return (a == 0 || a > b) ? b : a - 1;
    case AluOp::Cas: break;
  }
  throw std::logic_error("cas is not a two-operand operation");
}

int64_t rmw_result(AluOp op, int64_t old_value, int64_t a, int64_t b) {
  // cas writes back the old value when the comparison fails (a conditional move), as the
  // formal model does.
  if (op == AluOp::Cas) return old_value == a ? b : old_value;
  return alu_result(op, old_value, a);
}

bool compare(CmpOp op, int64_t a, int64_t b) {
  switch (op) {
    case CmpOp::Eq: return a == b;
    case CmpOp::Ne: return a != b;
    case CmpOp::Lt: return a < b;
    case CmpOp::Le: return a <= b;
    case CmpOp::Gt: return a > b;
    case CmpOp::Ge: return a >= b;
  }
  return false;
}

}  // namespace symsim::ptx

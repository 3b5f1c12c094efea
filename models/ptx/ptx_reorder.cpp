// Load buffering: a thread may run a later store or relaxed RMW before earlier
// instructions when nothing orders them. Allowed only past a straight run of weak/relaxed
// loads, stores and RMWs to other physical locations and register moves/arithmetic, with
// no register dependency either way. Fences, barriers, acquire/release accesses and
// branches stop the window, so no dependency or synchronisation is ever bypassed and the
// no-thin-air rule (acyclic rf + dependencies) holds.
#include "models/ptx/ptx_machine.h"

namespace symsim::ptx {

namespace {

constexpr size_t kWindow = 4;  // how far ahead a thread may look

bool is_memory(const Instr& in) {
  return in.kind == OpKind::Load || in.kind == OpKind::Store || in.kind == OpKind::Atom || in.kind == OpKind::Red;
}

bool unordered_sem(Sem s) { return s == Sem::Weak || s == Sem::Relaxed; }

bool reads_reg(const Instr& in, int reg) {
  return (in.a.is_reg && in.a.reg == reg) || (in.b.is_reg && in.b.reg == reg) || (in.c.is_reg && in.c.reg == reg);
}

bool writes_reg(const Instr& in) {
  return in.dst >= 0 && (in.kind == OpKind::Load || in.kind == OpKind::Atom || in.kind == OpKind::Move ||
                         in.kind == OpKind::Alu);
}

}  // namespace

bool Machine::may_run_early(const ThreadState& t, size_t j) const {
  const std::vector<Instr>& code = program_.threads[t.place.thread].code;
  const Instr& late = code[j];
  const bool movable = (late.kind == OpKind::Store || late.kind == OpKind::Atom || late.kind == OpKind::Red) &&
                       late.proxy == Proxy::Generic && unordered_sem(late.sem);
  if (!movable || t.ran_early.count(j)) return false;
  const int late_phys = program_.addrs.at(late.addr).physical;
  for (size_t k = t.pc; k < j; ++k) {
    const Instr& in = code[k];
    const bool passable = is_memory(in) ? unordered_sem(in.sem) : (in.kind == OpKind::Move || in.kind == OpKind::Alu);
    if (!passable) return false;
    if (is_memory(in) && program_.addrs.at(in.addr).physical == late_phys) return false;
    if (writes_reg(in) && reads_reg(late, in.dst)) return false;                        // late needs its result
    if (writes_reg(late) && (reads_reg(in, late.dst) || in.dst == late.dst)) return false;  // in needs the old value
  }
  return true;
}

size_t Machine::early_candidate(const ThreadState& t) {
  if (early_percent_ == 0 || t.arrived_at_barrier || !rng_.coin(early_percent_)) return 0;
  const std::vector<Instr>& code = program_.threads[t.place.thread].code;
  std::vector<size_t> options;
  for (size_t j = t.pc + 1; j < code.size() && j <= t.pc + kWindow; ++j) {
    if (may_run_early(t, j)) options.push_back(j);
  }
  return options.empty() ? 0 : options[rng_.below(options.size())];
}

void Machine::skip_ran_early(ThreadState& t) const {
  const size_t size = program_.threads[t.place.thread].code.size();
  while (t.pc < size && t.ran_early.erase(t.pc)) ++t.pc;
  t.done = t.pc >= size;
}

}  // namespace symsim::ptx

#include "models/ptx/ptx_barrier.h"

#include <stdexcept>

namespace symsim::ptx {

Barriers::Barriers(const Program& program) {
  for (size_t t = 0; t < program.threads.size(); ++t) {
    const ThreadCode& tc = program.threads[t];
    for (size_t pc = 0; pc < tc.code.size(); ++pc) {
      const Instr& in = tc.code[pc];
      if (in.kind != OpKind::Barrier) continue;
      GroupKey key{tc.place.cta_uid(), in.bar_instance, in.bar_named};
      std::vector<Member>& members = groups_[key];
      Member m;
      m.thread = static_cast<int>(t);
      m.pc = pc;
      m.instr = &in;
      where_[{m.thread, pc}] = Where{key, members.size()};
      members.push_back(m);
    }
  }
}

const Barriers::Where& Barriers::find(int thread, size_t pc) const {
  auto it = where_.find({thread, pc});
  if (it == where_.end()) throw std::logic_error("not a barrier instruction");
  return it->second;
}

bool Barriers::meets(const Member& m, bool named, int64_t resource_id) const {
  return m.arrived && (!named || m.resource_id == resource_id);
}

void Barriers::arrive(int thread, size_t pc, int64_t resource_id, const View& view) {
  const Where& w = find(thread, pc);
  Member& m = groups_.at(w.group)[w.index];
  m.arrived = true;
  m.resource_id = resource_id;
  m.view = view;
}

bool Barriers::can_pass(int thread, size_t pc, int64_t resource_id, int64_t quorum) const {
  const Where& w = find(thread, pc);
  const std::vector<Member>& members = groups_.at(w.group);
  const bool named = std::get<2>(w.group);
  const Instr& self = *members[w.index].instr;
  if (named && self.bar_quorum) {
    int64_t count = 0;
    for (const Member& m : members) count += meets(m, true, resource_id) ? 1 : 0;
    return count >= quorum;
  }
  for (const Member& m : members) {
    if (m.arrived) continue;
    // A member whose resource id is a different constant will never meet us.
    const bool other_constant = named && !m.instr->b.is_reg && m.instr->b.imm != resource_id;
    if (!other_constant) return false;
  }
  return true;
}

View Barriers::partners_view(int thread, size_t pc, int64_t resource_id) const {
  const Where& w = find(thread, pc);
  const bool named = std::get<2>(w.group);
  View joined;
  for (const Member& m : groups_.at(w.group)) {
    if (meets(m, named, resource_id)) joined.join(m.view);
  }
  return joined;
}

}  // namespace symsim::ptx

// Hang diagnosis: what each unfinished coroutine waits on, as the runner reports a deadlock or
// a run past its time limit.
#include <fmt/format.h>

#include "kernels/shim/ascend/src/world.h"

namespace symsim::shim {

std::string PollWait::describe() const {
  return fmt::format("{} {} of PE {} QP {} (at {:#x}) in {}", what, index, pe, qp, reinterpret_cast<uintptr_t>(addr),
                     where(site));
}

WaitRecord wait_record(int pe, int core, const BlockState& b, Ps at_ps) {
  WaitRecord r;
  r.pe = pe;
  r.core = core;
  r.what = "running";
  r.kernel = b.ctx.kernel ? b.ctx.kernel : "";
  const SpinState& sp = b.spin;
  if (b.waiting.what) {
    r.what = b.waiting.describe();
    r.polling = true;
    r.addr = b.waiting.addr;
    r.bytes = 64;
    if (b.waiting.owner_bit >= 0) r.expected = fmt::format("its owner bit to become {}", b.waiting.owner_bit);
    r.qp_slot = b.waiting.slot;
    r.qp = static_cast<int>(b.waiting.qp);
    r.cqe_index = b.waiting.index;
    const SourceLine at = source_line(b.waiting.site.pc);
    r.file = at.file;
    r.line = at.line;
    r.what = fmt::format("CQE {} of QP {} toward PE {}", b.waiting.index, b.waiting.qp, b.waiting.pe);
  } else if (!b.waiting_on.empty()) {
    r.what = fmt::format("{} at {} {}", b.barrier_api, where(b.barrier_site), b.waiting_on);
    r.in_barrier = true;
  } else if (polls_at(sp, at_ps) >= kSpinPolls) {
    r.polling = true;
    r.addr = sp.addr;
    r.bytes = sp.bytes;
    const SourceLine at = source_line(sp.site.pc);
    r.file = at.file;
    r.line = at.line;
    r.what = "GM (dcci / ld_dev / a GM read in a loop, no write in between)";
  }
  r.polls = polls_at(sp, at_ps);
  r.since_ps = sp.since_ps;
  return r;
}

std::vector<WaitRecord> waiting(Ps at_ps) {
  const World& w = world();
  std::vector<WaitRecord> out;
  for (const HostState& h : w.hosts)
    if (!h.finished) {
      WaitRecord r;
      r.pe = h.pe;
      r.core = -1;
      r.what = h.waiting_on.empty() ? "running" : h.waiting_on;
      out.push_back(std::move(r));
    }
  for (size_t pe = 0; pe < w.blocks.size(); ++pe)
    for (size_t c = 0; c < w.blocks[pe].size(); ++c) {
      const auto& b = w.blocks[pe][c];
      if (b && !b->finished) out.push_back(wait_record(static_cast<int>(pe), static_cast<int>(c), *b, at_ps));
    }
  return out;
}

bool deadlock_detected() { return has_system() && world().deadlock; }
const std::vector<WaitRecord>& gave_up() { return world().gave_up; }

}  // namespace symsim::shim

// pipe_sync_missing: within one core the MTE2, MTE3 and vector pipes run independently; a
// pipe may use bytes another pipe wrote (or overwrite bytes another pipe still reads) only
// after a SetFlag/WaitFlag pair between the two pipes, or a PipeBarrier, orders them. As
// Ascend's CPU-side checker does, the rule is judged on the program, not on timing.
#include <fmt/format.h>

#include <algorithm>

#include "sim/checkers/pipe_sync_missing.h"
#include "models/ascend/aiv_core.h"

static_assert(symsim::kPipes == symsim::kAivPipes, "the checker tracks every AIV pipe");

namespace symsim {

SYMSIM_ASCEND_CHECKER(PipeSyncMissingChecker, "pipe_sync_missing", 130, "a pipe used bytes another pipe of the core wrote (or still read) with no SetFlag/WaitFlag or PipeBarrier between", kPipeSyncMissing);

namespace {
constexpr size_t kKeptAccesses = 512;

const char* pipe_name(int p) {
  switch (static_cast<AivPipe>(p)) {
    case AivPipe::kScalar: return "S";
    case AivPipe::kVector: return "V";
    case AivPipe::kMte2: return "MTE2";
    case AivPipe::kMte3: return "MTE3";
    default: return "ALL";
  }
}
}  // namespace

void PipeSyncMissingChecker::on_block_start(int pe, int core, const char*, Ps) { m_cores[{pe, core}] = Core{}; }

void PipeSyncMissingChecker::on_copy(const CopyRecord& c, const CopyEnds& at) {
  if (at.dst.ring_pe >= 0) return;  // WQE staging: ordered with the doorbell by the shim
  Core& k = m_cores[{c.pe, c.core}];
  const int q = c.pipe;
  const unsigned bit = 1u << q;
  const uint8_t* rb = c.src;
  const uint8_t* re = c.src + c.bytes;
  const uint8_t* wb = c.dst;
  const uint8_t* we = c.dst + (c.dst_bytes ? c.dst_bytes : c.bytes);
  std::vector<Conflict>& conflicts = m_conflicts;
  conflicts.clear();
  // Only the last kKeptAccesses accesses of the core can be reported.
  const uint64_t window = k.seq > kKeptAccesses ? k.seq - kKeptAccesses : 0;
  for (int x = 0; x < kPipes; ++x) {
    if (x == q) continue;
    RingFifo<Access>& d = k.by_pipe[x];
    // The copies not yet ordered before pipe q, newest first (copies are in sequence order).
    // The unordered tail is short (about one copy on average in the MoE kernels) while the
    // list holds up to kKeptAccesses accesses (pipe S never copies there, so nothing is ever
    // ordered before every pipe): walking back from the newest is cheaper than a binary search
    // over the list. The list may still hold older copies (it is trimmed only when its own pipe
    // copies). `from` falls between copies, except the window's edge, which may fall between a
    // copy's read and its write: the read is tested on its own number.
    const uint64_t from = std::max(k.ordered[x][q], window);
    for (size_t i = d.size(); i > 0 && d[i - 1].write_seq >= from; --i) {
      Access& a = d[i - 1];
      // Its write: read by this copy (RAW) or overwritten (WAW). Then its read: overwritten
      // (WAR). Sorted below, so the order pushed does not matter.
      if (!(a.write_reported & bit)) {
        const bool raw = a.write_begin < re && rb < a.write_end;
        if (raw || (a.write_begin < we && wb < a.write_end)) conflicts.push_back({&a, a.write_seq, x, true, raw});
      }
      if (a.reads && a.write_seq - 1 >= from && !(a.read_reported & bit) && a.read_begin < we && wb < a.read_end)
        conflicts.push_back({&a, a.write_seq - 1, x, false, false});
    }
  }
  // Reported in program order of the earlier accesses (sequence numbers are unique). Nearly
  // every copy has no conflict: the sort's call is skipped then.
  if (conflicts.size() > 1)
    std::sort(conflicts.begin(), conflicts.end(), [](const Conflict& l, const Conflict& r) { return l.seq < r.seq; });
  for (const Conflict& f : conflicts) report(c, f);
  // Before the list grows, it forgets what can never be reported: copies out of the window,
  // and those ordered before every other pipe (polling loops, a copy and a SetFlag/WaitFlag per
  // poll, keep short lists). Trimming only here, not on every sync, keeps a list no longer than
  // before: it grows only here. A copy whose read is forgotten and write is not stays whole
  // (its read is below every later copy's `from`, so it is never tested again).
  RingFifo<Access>& mine = k.by_pipe[q];
  uint64_t before_all = UINT64_MAX;
  for (int p = 0; p < kPipes; ++p)
    if (p != q) before_all = std::min(before_all, k.ordered[q][p]);
  const uint64_t forget = std::max(window, before_all);
  while (!mine.empty() && mine.front().write_seq < forget) mine.pop_front();
  const bool reads = at.src.ring_pe < 0;
  k.seq += reads ? 2 : 1;
  mine.emplace_back(Access{rb, re, wb, we, k.seq - 1, reads, 0, 0, c.site});
}

// Out of line: the loop of every copy keeps a small frame (a report is rare).
void PipeSyncMissingChecker::report(const CopyRecord& c, const Conflict& f) {
  const int q = c.pipe;
  const auto bit = static_cast<uint8_t>(1u << q);
  const uint8_t* rb = c.src;
  const uint8_t* wb = c.dst;
  Access& a = *f.a;
  const uint8_t* begin = f.on_write ? a.write_begin : a.read_begin;
  (f.on_write ? a.write_reported : a.read_reported) |= bit;
  Hazard h = m_ctx.at_copy(kPipeSyncMissing, c, f.raw ? std::max(begin, rb) : std::max(begin, wb));
  h.detail = fmt::format(
      "PIPE_{} {} bytes that PIPE_{} {}{} with no SetFlag/WaitFlag<{}_{}> or PipeBarrier between them: on the "
      "device the two pipes run concurrently, so PIPE_{} may see {} bytes",
      pipe_name(q), f.raw ? "reads" : "overwrites", pipe_name(f.pipe), f.on_write ? "wrote" : "reads",
      at_site(a.site), pipe_name(f.pipe), pipe_name(q), pipe_name(q), f.raw ? "stale" : "its own bytes clobber in-use");
  m_ctx.log.report(std::move(h));
}

void PipeSyncMissingChecker::on_wait_flag(const PipeSyncRecord& s, const PendingFlag& set) {
  const int from = s.src_pipe, to = s.dst_pipe;
  if (from < 0 || from >= kPipes || to < 0 || to >= kPipes) return;
  // What the source pipe did before the SetFlag, and what was ordered before the source pipe by
  // then, is now ordered before the destination pipe.
  Core& k = m_cores[{s.pe, s.core}];
  for (int x = 0; x < kPipes; ++x) {
    const uint64_t covered = x == from ? set.seq : std::min(set.seq, k.ordered[x][from]);
    k.ordered[x][to] = std::max(k.ordered[x][to], covered);
  }
}

void PipeSyncMissingChecker::on_barrier(const PipeSyncRecord& s) {
  Core& k = m_cores[{s.pe, s.core}];
  if (s.dst_pipe >= kPipes || s.dst_pipe < 0) {
    for (auto& row : k.ordered) row.fill(k.seq);
  } else {
    k.ordered[s.dst_pipe].fill(k.seq);
  }
}

}  // namespace symsim

// pipe_sync_missing: within one core the MTE2, MTE3 and vector pipes run independently; a
// pipe may use bytes another pipe wrote (or overwrite bytes another pipe still reads) only
// after a SetFlag/WaitFlag pair between the two pipes, or a PipeBarrier, orders them. As
// Ascend's CPU-side checker does, the rule is judged on the program, not on timing.
#include <fmt/format.h>

#include <algorithm>

#include "checkers/checkers.h"
#include "models/ascend/aiv_core.h"

namespace symsim {

namespace {
constexpr size_t kKeptAccesses = 512;
constexpr unsigned kAllPipes = (1u << kAivPipes) - 1;

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

void PipeSyncMissingChecker::on_copy(const CopyRecord& c) {
  if (m_ctx.in_queue_ring(c.dst)) return;  // WQE staging: ordered with the doorbell by the shim
  Core& k = m_cores[{c.pe, c.core}];
  const unsigned bit = 1u << c.pipe;
  const uint8_t* rb = c.src;
  const uint8_t* re = c.src + c.bytes;
  const uint8_t* wb = c.dst;
  const uint8_t* we = c.dst + c.bytes;
  for (Access& a : k.accesses) {
    if (a.pipe == c.pipe || (a.synced & bit)) continue;
    const bool raw = a.write && a.begin < re && rb < a.end;
    const bool war = a.begin < we && wb < a.end;  // overwrites bytes another pipe read or wrote
    if (!raw && !war) continue;
    a.synced |= bit;  // one report per pair
    Hazard h;
    h.id = "pipe_sync_missing";
    h.pe = c.pe;
    h.core = c.core;
    h.addr = m_ctx.addr(raw ? std::max(a.begin, rb) : std::max(a.begin, wb));
    h.time_ps = c.issue_ps;
    h.site = site_text(c.site);
    h.detail = fmt::format(
        "PIPE_{} {} bytes that PIPE_{} {}{} with no SetFlag/WaitFlag<{}_{}> or PipeBarrier between them: on the "
        "device the two pipes run concurrently, so PIPE_{} may see {} bytes",
        pipe_name(c.pipe), raw ? "reads" : "overwrites", pipe_name(a.pipe), a.write ? "wrote" : "reads",
        at_site(a.site), pipe_name(a.pipe), pipe_name(c.pipe), pipe_name(c.pipe), raw ? "stale" : "its own bytes clobber in-use");
    m_ctx.log.report(std::move(h));
  }
  const bool src_tracked = !m_ctx.in_queue_ring(c.src);
  if (src_tracked) k.accesses.push_back({rb, re, c.pipe, false, k.seq++, 0, c.site});
  k.accesses.push_back({wb, we, c.pipe, true, k.seq++, 0, c.site});
  // Keep the last kKeptAccesses accesses recorded (by sequence number: dead ones are dropped early).
  const auto kept = std::find_if(k.accesses.begin(), k.accesses.end(),
                                 [&](const Access& a) { return a.seq + kKeptAccesses >= k.seq; });
  k.accesses.erase(k.accesses.begin(), kept);
}

void PipeSyncMissingChecker::drop_ordered(Core& k) {
  // An access ordered before every other pipe can never be reported: drop it so that polling
  // loops (a copy and a SetFlag/WaitFlag per poll) scan a short list.
  k.accesses.erase(std::remove_if(k.accesses.begin(), k.accesses.end(),
                                  [](const Access& a) { return (a.synced | (1u << a.pipe)) == kAllPipes; }),
                   k.accesses.end());
}

void PipeSyncMissingChecker::on_pipe_sync(const PipeSyncRecord& s) {
  Core& k = m_cores[{s.pe, s.core}];
  switch (s.kind) {
    case PipeSyncRecord::kSetFlag:
      k.set_seq[{s.src_pipe, s.dst_pipe, s.event_id}] = k.seq;
      break;
    case PipeSyncRecord::kWaitFlag: {
      const auto it = k.set_seq.find({s.src_pipe, s.dst_pipe, s.event_id});
      if (!s.matched || it == k.set_seq.end()) break;
      const unsigned from = 1u << s.src_pipe;
      for (Access& a : k.accesses)
        if (a.seq < it->second && (a.pipe == s.src_pipe || (a.synced & from))) a.synced |= 1u << s.dst_pipe;
      k.set_seq.erase(it);
      drop_ordered(k);
      break;
    }
    case PipeSyncRecord::kBarrier:
      if (s.dst_pipe >= kAivPipes) {
        k.accesses.clear();
      } else {
        for (Access& a : k.accesses)
          if (a.pipe == s.dst_pipe) a.synced = kAllPipes;
        drop_ordered(k);
      }
      break;
  }
}

}  // namespace symsim

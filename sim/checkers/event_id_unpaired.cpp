// event_id_unpaired: each SetFlag<SRC_DST>(id) must be consumed by one WaitFlag<SRC_DST>(id)
// before the id is set again and before the kernel ends; a WaitFlag with nothing set would
// wait forever on the device (the model lets it pass so the run can continue).
#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "sim/checkers/event_id_unpaired.h"

namespace symsim {

SYMSIM_ASCEND_CHECKER(EventIdUnpairedChecker, "event_id_unpaired", 140, "a SetFlag never waited, a WaitFlag with nothing set, an id reused", kEventIdUnpaired);

namespace {
const char* pipe_name(int p) {
  static const char* names[] = {"S", "V", "MTE2", "MTE3", "ALL"};
  return p >= 0 && p <= 4 ? names[p] : "?";
}
std::string event_text(int src, int dst, int id) {
  return fmt::format("<{}_{}>({})", pipe_name(src), pipe_name(dst), id);
}
std::string event_text(const PipeSyncRecord& s) { return event_text(s.src_pipe, s.dst_pipe, s.event_id); }
}  // namespace

void EventIdUnpairedChecker::report(const PipeSyncRecord& s, std::string detail) {
  Hazard h;
  h.id = kEventIdUnpaired.name;
  h.pe = s.pe;
  h.core = s.core;
  h.time_ps = s.t;
  h.site = site_text(s.site);
  h.detail = std::move(detail);
  m_ctx.log.report(std::move(h));
}

void EventIdUnpairedChecker::report_reused(const PipeSyncRecord& s, const PendingFlag& pending) {
  report(s, fmt::format("SetFlag{} while the SetFlag{} is still pending (never waited): the event id is reused "
                        "before it was consumed",
                        event_text(s), at_site(pending.site)));
}

void EventIdUnpairedChecker::report_unset(const PipeSyncRecord& s) {
  report(s, fmt::format("WaitFlag{} with no SetFlag{} pending: on the device this waits forever", event_text(s),
                        event_text(s)));
}

void EventIdUnpairedChecker::on_block_end(int pe, int core, const char* kernel, Ps t) {
  std::vector<PendingFlag>& pending = (*m_ctx.pending_flags)[{pe, core}];
  std::sort(pending.begin(), pending.end(), [](const PendingFlag& a, const PendingFlag& b) {
    return std::tie(a.src, a.dst, a.id) < std::tie(b.src, b.dst, b.id);
  });
  for (const PendingFlag& s : pending) {
    Hazard h;
    h.id = kEventIdUnpaired.name;
    h.pe = pe;
    h.core = core;
    h.time_ps = t;
    h.site = site_text(s.site);
    h.detail = fmt::format("SetFlag{} was never waited before kernel {} ended", event_text(s.src, s.dst, s.id), kernel);
    m_ctx.log.report(std::move(h));
  }
  pending.clear();
}

}  // namespace symsim

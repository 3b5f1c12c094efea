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
std::string event_text(const PipeSyncRecord& s) {
  return fmt::format("<{}_{}>({})", pipe_name(s.src_pipe), pipe_name(s.dst_pipe), s.event_id);
}
}  // namespace

void EventIdUnpairedChecker::on_block_start(int pe, int core, const char*, Ps) { m_pending[{pe, core}].clear(); }

void EventIdUnpairedChecker::on_pipe_sync(const PipeSyncRecord& s) {
  if (s.kind == PipeSyncRecord::kBarrier) return;
  auto& pending = m_pending[{s.pe, s.core}];
  // The pending SetFlag of this event (each event is listed once, and the list is sorted when
  // reported, so its order does not matter).
  PipeSyncRecord* it = nullptr;
  for (PipeSyncRecord& p : pending)
    if (p.src_pipe == s.src_pipe && p.dst_pipe == s.dst_pipe && p.event_id == s.event_id) {
      it = &p;
      break;
    }
  const auto report = [&](std::string detail) {
    Hazard h;
    h.id = kEventIdUnpaired.name;
    h.pe = s.pe;
    h.core = s.core;
    h.time_ps = s.t;
    h.site = site_text(s.site);
    h.detail = std::move(detail);
    m_ctx.log.report(std::move(h));
  };
  if (s.kind == PipeSyncRecord::kSetFlag) {
    if (it) {
      report(fmt::format("SetFlag{} while the SetFlag{} is still pending (never waited): the event id is "
                         "reused before it was consumed",
                         event_text(s), at_site(it->site)));
      *it = s;
    } else {
      pending.push_back(s);
    }
    return;
  }
  if (!s.matched) {
    report(fmt::format("WaitFlag{} with no SetFlag{} pending: on the device this waits forever", event_text(s),
                       event_text(s)));
    return;
  }
  if (it) {
    *it = pending.back();
    pending.pop_back();
  }
}

void EventIdUnpairedChecker::on_block_end(int pe, int core, const char* kernel, Ps t) {
  auto& pending = m_pending[{pe, core}];
  std::sort(pending.begin(), pending.end(), [](const PipeSyncRecord& a, const PipeSyncRecord& b) {
    return std::tie(a.src_pipe, a.dst_pipe, a.event_id) < std::tie(b.src_pipe, b.dst_pipe, b.event_id);
  });
  for (const PipeSyncRecord& s : pending) {
    Hazard h;
    h.id = kEventIdUnpaired.name;
    h.pe = pe;
    h.core = core;
    h.time_ps = t;
    h.site = site_text(s.site);
    h.detail = fmt::format("SetFlag{} was never waited before kernel {} ended", event_text(s), kernel);
    m_ctx.log.report(std::move(h));
  }
  pending.clear();
}

}  // namespace symsim

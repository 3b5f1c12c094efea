// event_id_unpaired: each SetFlag<SRC_DST>(id) must be consumed by one WaitFlag<SRC_DST>(id)
// before the id is set again and before the kernel ends; a WaitFlag with nothing set would
// wait forever on the device (the model lets it pass so the run can continue).
#include <fmt/format.h>

#include "checkers/checkers.h"

namespace symsim {

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
  const auto key = std::make_tuple(s.src_pipe, s.dst_pipe, s.event_id);
  Hazard h;
  h.id = "event_id_unpaired";
  h.pe = s.pe;
  h.core = s.core;
  h.time_ps = s.t;
  h.site = site_text(s.site);
  if (s.kind == PipeSyncRecord::kSetFlag) {
    const auto it = pending.find(key);
    if (it != pending.end()) {
      h.detail = fmt::format("SetFlag{} while the SetFlag{} is still pending (never waited): the event id is "
                             "reused before it was consumed",
                             event_text(s), at_site(it->second.site));
      m_ctx.log.report(std::move(h));
    }
    pending[key] = s;
    return;
  }
  if (!s.matched) {
    h.detail = fmt::format("WaitFlag{} with no SetFlag{} pending: on the device this waits forever", event_text(s),
                           event_text(s));
    m_ctx.log.report(std::move(h));
    return;
  }
  pending.erase(key);
}

void EventIdUnpairedChecker::on_block_end(int pe, int core, const char* kernel, Ps t) {
  for (const auto& [key, s] : m_pending[{pe, core}]) {
    Hazard h;
    h.id = "event_id_unpaired";
    h.pe = pe;
    h.core = core;
    h.time_ps = t;
    h.site = site_text(s.site);
    h.detail = fmt::format("SetFlag{} was never waited before kernel {} ended", event_text(s), kernel);
    m_ctx.log.report(std::move(h));
  }
  m_pending[{pe, core}].clear();
}

}  // namespace symsim

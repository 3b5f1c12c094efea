#include "sim/checkers/hang_report.h"

#include <fmt/format.h>

#include <cstring>

#include "sim/catalog/checker_registry.h"
#include "models/ascend/udma_engine.h"
#include "models/platform/ascend_system.h"

namespace symsim {

// Listed with the checkers; built by neither family (each runs its hang diagnosis at the end).
static const bool kHangRegistered = catalog::register_reporter(
    {"hang_report", family::kAll, {kDeadlock, kTimeout}, 0,
     "programs unfinished at the end of the run: who waits on what, and who last wrote it"});

namespace {

// What `bytes` (at most 8) at `addr` hold now, as hex; "" when the address is not memory.
std::string holds(CheckerContext& ctx, const void* addr, uint64_t bytes) {
  const uint64_t n = std::min<uint64_t>(bytes ? bytes : 8, 8);
  const Region* r = ctx.sys.addresses().find(addr, n);
  if (!r || r->kind == RegionKind::kMmio) return "";
  uint64_t v = 0;
  std::memcpy(&v, addr, n);
  return fmt::format("{:#x}", v);
}

std::string cq_state(CheckerContext& ctx, const WriteHistory& history, const QpRef& q) {
  const UdmaQp* u = ctx.engine_qp(q);
  if (!u) return "";
  std::string s = fmt::format("the engine wrote {} CQEs on this QP and the kernel returned {}; it fetched {} WQEBBs{}; {}",
                              u->cq_produced, u->cq_consumed, u->sq_fetched, u->error ? " and the QP is in the error state" : "",
                              history.doorbells(q));
  const std::string faults = history.faults_on(q);
  if (!faults.empty()) s += "; faults on this QP: " + faults;
  return s;
}

}  // namespace

void report_hang(CheckerContext& ctx, const WriteHistory& history, const HazardId& id, const std::string& why,
                 const std::vector<shim::WaitRecord>& waits, Ps now) {
  bool any_block = false;
  for (const shim::WaitRecord& w : waits) any_block = any_block || w.core >= 0;
  for (const shim::WaitRecord& w : waits) {
    if (any_block && w.core < 0) continue;  // the hosts wait on the kernels
    Hazard h;
    h.id = id.name;
    h.pe = w.pe;
    h.core = w.core;
    h.time_ps = now;
    h.site = site_text({w.file, w.line});
    if (w.core < 0) {
      h.detail = fmt::format("{}: the host program of PE {} waits in {}", why, w.pe, w.what);
      ctx.log.report(std::move(h));
      continue;
    }
    const std::string who = fmt::format("AIV core {} of PE {} (kernel {})", w.core, w.pe, w.kernel);
    if (!w.polling) {
      h.detail = w.in_barrier ? fmt::format("{}: {} waits in {}", why, who, w.what)
                              : fmt::format("{}: {} is still running ({})", why, who, w.what);
      ctx.log.report(std::move(h));
      continue;
    }
    h.addr = ctx.addr(w.addr);
    const std::string value = holds(ctx, w.addr, w.bytes);
    const std::string writer = history.last_writer(w.addr, std::max<uint64_t>(w.bytes, 1), now);
    std::string detail = fmt::format("{}: {} polls {} at {} ({} polls since {})", why, who, w.what, h.addr, w.polls,
                                     us_text(w.since_ps));
    if (!w.expected.empty()) detail += fmt::format(" waiting for {}", w.expected);
    if (!value.empty()) detail += fmt::format("; it holds {}", value);
    detail += writer.empty() ? "; no device write to it was recorded (its initial or host-written value)"
                             : "; last written by " + writer;
    if (w.qp >= 0) {
      h.slot = w.qp_slot;
      h.qp = w.qp;
      const std::string cq = cq_state(ctx, history, QpRef{w.pe, w.qp_slot, w.qp});
      if (!cq.empty()) detail += "; " + cq;
    }
    h.detail = std::move(detail);
    ctx.log.report(std::move(h));
  }
}

}  // namespace symsim

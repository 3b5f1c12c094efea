#include "sim/trace/trace_writer.h"

#include <algorithm>
#include <array>
#include <utility>

#include "models/ascend/wqe_layout.h"
#include "models/nvidia/mlx5_layout.h"
#include "sim/trace/trace_state.h"

namespace symsim {

namespace trace {

namespace {

const char* mlx5_opcode_name(uint8_t opcode) {
  namespace mlx5 = nv::mlx5;
  switch (opcode) {
    case mlx5::kOpNop: return "NOP";
    case mlx5::kOpRdmaWrite: return "RDMA_WRITE";
    case mlx5::kOpRdmaWriteImm: return "RDMA_WRITE_IMM";
    case mlx5::kOpRdmaRead: return "RDMA_READ";
    case mlx5::kOpAtomicCs: return "ATOMIC_CS";
    case mlx5::kOpAtomicFa: return "ATOMIC_FA";
    case mlx5::kOpAtomicMaskedFa: return "ATOMIC_MASKED_FA";
    default: return "UNKNOWN";
  }
}

const char* udma_opcode_name(uint8_t opcode) {
  switch (opcode) {
    case udma::kSend: return "SEND";
    case udma::kSendImm: return "SEND_IMM";
    case udma::kSendInv: return "SEND_INV";
    case udma::kWrite: return "WRITE";
    case udma::kWriteImm: return "WRITE_IMM";
    case udma::kWriteWithNotify: return "WRITE_WITH_NOTIFY";
    case udma::kRead: return "READ";
    case udma::kCas: return "CAS";
    case udma::kAtomicSwap: return "ATOMIC_SWAP";
    case udma::kAtomicStore: return "ATOMIC_STORE";
    case udma::kAtomicLoad: return "ATOMIC_LOAD";
    case udma::kFaa: return "FAA";
    case udma::kWriteWithReduce: return "WRITE_WITH_REDUCE";
    case udma::kNop: return "NOP";
    default: return "UNKNOWN";
  }
}

}  // namespace

const char* opcode_name(OpcodeSet set, uint8_t opcode) {
  return set == OpcodeSet::kMlx5 ? mlx5_opcode_name(opcode) : udma_opcode_name(opcode);
}

}  // namespace trace

using namespace trace;

namespace {
QueueKey key_of(const QpRef& q, uint32_t index) { return {q.pe, q.slot, q.qp, index}; }
}  // namespace

TraceWriter::TraceWriter(TraceFilter filter, const Fabric* fabric, OpcodeSet opcodes) : m(std::make_unique<TraceState>()) {
  m->filter = std::move(filter);
  m->fabric = fabric;
  m->opcodes = opcodes;
}

TraceWriter::~TraceWriter() = default;

size_t TraceWriter::event_count() const { return m->events.size(); }
bool TraceWriter::truncated() const { return m->truncated; }

void TraceWriter::on_wqe_posted(const QpRef& q, uint32_t wqe_index, uint8_t, int core, Ps t) {
  if (m->qp_ok(q) && !m->truncated) m->posted[key_of(q, wqe_index)] = {t, core};
}

void TraceWriter::on_wqe_executed(const WqeRecord& r) {
  if (!m->qp_ok(r.qp)) return;
  Posted post{0, -1};
  const auto posted = m->posted.find(key_of(r.qp, r.wqe_index));
  const bool has_post = posted != m->posted.end();
  if (has_post) {
    post = posted->second;
    m->posted.erase(posted);
  }
  Visible* cqe = nullptr;
  if (r.cqe_ps != 0 && !m->truncated) {
    cqe = &m->visible[key_of(r.qp, r.cqe_index)];
    *cqe = {r.cqe_ps, kNone};
  }

  // Steps in order; a span is named after the step it starts at. Zero means "did not happen"
  // for wire, remote write and CQE (error WQEs never reach the wire).
  std::array<std::pair<Ps, const char*>, 7> steps;
  size_t n = 0;
  const auto step = [&](Ps t, const char* name) {
    steps[n] = {n ? std::max(t, steps[n - 1].first) : t, name};  // clamp: spans must nest
    ++n;
  };
  if (has_post) step(post.t, "post");
  step(r.doorbell_ps, "doorbell");
  step(r.fetch_ps, "fetch");
  if (r.wire_ps) step(r.wire_ps, "wire");
  if (r.remote_write_ps) step(r.remote_write_ps, "ack");
  step(r.complete_ps, "cqe");
  if (r.cqe_ps) step(r.cqe_ps, nullptr);
  const Ps begin = steps[0].first, end = steps[n - 1].first;
  if (!m->in_window(begin, end)) return;
  size_t spans = 1;
  for (size_t i = 0; i + 1 < n; ++i) spans += steps[i + 1].first > steps[i].first;
  // The flow's other slices: the post on its core, the fetch on the engine, the landing at the target.
  const bool mark_post = has_post && post.core >= 0 && post.core < kMaxCores;
  const bool mark_land = r.remote_write_ps != 0 && m->pe_ok(r.target_pe);
  // Counters: the SQ holds the WQE from post (or doorbell) until fetched; the CQ holds its CQE
  // from visible until reaped (the reap counts it down).
  // The target counts the WQE's data as a pending write from the wire until its last byte landed.
  if (!m->admit(spans + mark_post + 1 + mark_land * 3 + 2 + (r.cqe_ps != 0), begin)) return;

  const uint32_t pid = static_cast<uint32_t>(r.qp.pe), tid = sq_tid(r.qp);
  const uint32_t group = m->add_group(pid, tid, begin, end);
  const auto info = static_cast<uint64_t>(m->wqes.size());
  m->wqes.push_back(
      {r.wqe_index, r.bytes, r.cqe_index, r.target_pe, r.opcode, r.status, r.substatus, r.cqe_ps != 0});
  const uint32_t w = static_cast<uint32_t>(info);
  if (mark_post) m->link(w, m->add(Kind::kWqeMark, "wqe posted", pid, static_cast<uint32_t>(post.core), post.t, post.t, info));
  m->link(w, m->add(Kind::kWqe, opcode_name(m->opcodes, r.opcode), pid, tid, begin, end, info, group));
  for (size_t i = 0; i + 1 < n; ++i) {
    if (steps[i + 1].first > steps[i].first)
      m->add(Kind::kPhase, steps[i].second, pid, tid, steps[i].first, steps[i + 1].first, info, group);
  }
  m->link(w, m->add(Kind::kWqeMark, "wqe fetched", pid, kEngineTid, r.fetch_ps, r.fetch_ps, info));
  if (mark_land) {
    const auto target = static_cast<uint32_t>(r.target_pe);
    m->link(w, m->add(Kind::kWqeMark, "wqe landed", target, kLandingTid, r.remote_write_ps, r.remote_write_ps, info));
    m->count(std::min(r.wire_ps ? r.wire_ps : r.fetch_ps, r.remote_write_ps), target, kLandingTid, 1);
    m->count(r.remote_write_ps, target, kLandingTid, -1);
  }
  m->count(steps[0].first, pid, tid, 1);
  m->count(std::max(r.fetch_ps, steps[0].first), pid, tid, -1);
  if (cqe) {
    cqe->wqe = w;
    m->count(r.cqe_ps, pid, cq_tid(r.qp), 1);
  }
}

void TraceWriter::on_cqe_reaped(const QpRef& q, uint32_t cqe_index, const uint8_t*, int core, Ps t) {
  if (!m->qp_ok(q)) return;
  const auto visible = m->visible.find(key_of(q, cqe_index));
  const bool known = visible != m->visible.end();
  const Ps from = known ? std::min(visible->second.t, t) : t;
  const uint32_t w = known ? visible->second.wqe : kNone;
  if (known) m->visible.erase(visible);
  const auto pid = static_cast<uint32_t>(q.pe);
  // The CQ counter counted this CQE up when its WQE was recorded: count it down, window or not.
  if (w != kNone && m->admit(1, t)) m->count(std::max(from, t), pid, cq_tid(q), -1);
  // A reaped CQE whose WQE was recorded ends that WQE's flow at the core that reaped it.
  const bool mark_reap = w != kNone && core >= 0 && core < kMaxCores;
  if (!m->in_window(from, t) || !m->admit(1 + mark_reap, from)) return;
  const uint64_t arg = cqe_index | uint64_t{static_cast<uint32_t>(core)} << 32;
  if (!known) {
    m->add(Kind::kReapedInstant, "reaped", pid, cq_tid(q), t, t, arg);
    return;
  }
  const uint32_t reaped =
      m->add(Kind::kReaped, "reaped", pid, cq_tid(q), from, t, arg, m->add_group(pid, cq_tid(q), from, t));
  if (w == kNone) return;
  m->link(w, reaped);
  if (mark_reap) m->link(w, m->add(Kind::kWqeMark, "cqe reaped", pid, static_cast<uint32_t>(core), t, t, w));
}

void TraceWriter::on_sq_doorbell(const QpRef& q, uint32_t producer_index, Ps t) {
  if (m->qp_ok(q) && m->in_window(t, t) && m->admit(1, t))
    m->add(Kind::kSqDoorbell, "sq doorbell", static_cast<uint32_t>(q.pe), sq_tid(q), t, t, producer_index);
}

void TraceWriter::on_cq_doorbell(const QpRef& q, uint32_t consumer_index, Ps t) {
  if (m->qp_ok(q) && m->in_window(t, t) && m->admit(1, t))
    m->add(Kind::kCqDoorbell, "cq doorbell", static_cast<uint32_t>(q.pe), cq_tid(q), t, t, consumer_index);
}

void TraceWriter::on_engine_busy(int pe, Ps start, Ps end) {
  if (!m->pe_ok(pe) || !m->in_window(start, end) || m->truncated) return;
  // Back-to-back WQEs make one span: far fewer events, same picture.
  const auto last = m->last_busy.find(pe);
  if (last != m->last_busy.end()) {
    Event& e = m->events[last->second];
    if (e.ts_ps + e.dur_ps == start && end >= start) {
      e.dur_ps = end - e.ts_ps;
      ++e.arg;
      return;
    }
  }
  if (!m->admit(1, start)) return;
  m->last_busy[pe] = m->events.size();
  m->add(Kind::kEngineBusy, "busy", static_cast<uint32_t>(pe), kEngineTid, start, end, 1);
}

void TraceWriter::name_link(int link, std::string name) { m->link_names[static_cast<uint32_t>(link)] = std::move(name); }

void TraceWriter::on_link_busy(int link, Ps start, Ps end, uint64_t bytes) {
  if (!m->filter.links || link < 0 || !m->in_window(start, end) || !m->admit(3, start)) return;
  const auto tid = static_cast<uint32_t>(link);
  m->add(Kind::kLinkBusy, "busy", kFabricPid, tid, start, end, bytes);
  m->count(start, kFabricPid, tid, 1);  // messages on the wire
  m->count(std::max(start, end), kFabricPid, tid, -1);
}

void TraceWriter::on_core_span(int pe, int core, const char* what, Ps start, Ps end) {
  if (!m->pe_ok(pe) || core < 0 || core >= kMaxCores || !m->in_window(start, end) || !m->admit(1, start))
    return;
  const char* name = m->names.insert(what ? what : "").first->c_str();
  m->add(Kind::kCoreSpan, name, static_cast<uint32_t>(pe), static_cast<uint32_t>(core), start, end, 0);
}

void TraceWriter::hazard(int pe, const std::string& id, Ps t, const std::string& detail) {
  if (!m->admit(1, t)) return;
  m->add(Kind::kHazard, nullptr, pe < 0 ? kFabricPid : static_cast<uint32_t>(pe), 0, t, t, m->hazards.size());
  m->hazards.push_back({id, detail});
}

}  // namespace symsim

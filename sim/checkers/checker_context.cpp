#include "sim/checkers/checker_context.h"

#include <fmt/format.h>

#include <cstring>

#include "models/ascend/ascend_observer.h"
#include "models/ascend/wqe_layout.h"
#include "models/platform/ascend_system.h"
#include "symsim/code_site.h"

#ifndef SYMSIM_SOURCE_DIR
#define SYMSIM_SOURCE_DIR ""
#endif

namespace symsim {

std::string CheckerContext::addr(const void* p) const {
  const auto a = reinterpret_cast<uintptr_t>(p);
  if (a == 0) return "0x0";
  for (int pe = 0; pe < sys.n_pes(); ++pe) {
    const PeMemory& m = sys.memory(pe);
    const auto heap = reinterpret_cast<uintptr_t>(m.heap.base());
    if (m.heap.size() && a >= heap && a - heap < m.heap.size()) return fmt::format("pe{}.heap+{:#x}", pe, a - heap);
  }
  const Region* r = sys.addresses().find(p, 1);
  if (r) return fmt::format("{}+{:#x}", r->name, a - r->begin);
  return fmt::format("{:#x}", a);
}

int64_t CheckerContext::heap_offset(uint64_t va) const {
  for (int pe = 0; pe < sys.n_pes(); ++pe) {
    const PeMemory& m = sys.memory(pe);
    const auto heap = reinterpret_cast<uint64_t>(m.heap.base());
    if (m.heap.size() && va >= heap && va - heap < m.heap.size()) return static_cast<int64_t>(va - heap);
  }
  return -1;
}

int CheckerContext::pe_of(const void* p) const {
  const Region* r = sys.addresses().find(p, 1);
  return r ? r->pe : -1;
}

const CheckerContext::Where& CheckerContext::classify(const void* p) const {
  Where& w = m_where[m_where_next];
  m_where_next ^= 1;
  w = where_in(p, sys.addresses().find(p, 1));
  return w;
}

CheckerContext::Where CheckerContext::where_in(const void* p, const Region* r) const {
  Where w;
  w.p = p;
  w.region = r;
  w.unified_buffer = r && r->kind == RegionKind::kUnifiedBuffer;
  if (!r || w.unified_buffer) return w;  // most copy ends in MoE: a UB holds no rings
  // The region answers both questions (instead of a scan over every PE's rings).
  w.ring_pe = r->pe >= 0 && r->pe < sys.n_pes() && sys.memory(r->pe).queue_region.contains(p, 1) ? r->pe : -1;
  return w;
}

const UdmaQp* CheckerContext::engine_qp(const QpRef& q) const {
  if (q.pe < 0 || q.pe >= sys.n_pes()) return nullptr;
  // Called per CQE and a PE has a QP per peer: remember where each QP sits in the engine's list
  // (indexing every QP of the engine at the first miss: one scan per engine, not per QP).
  const std::vector<UdmaQp>& qps = sys.engine(q.pe).qps();
  const auto matches = [&](size_t i) { return qps[i].ref.slot == q.slot && qps[i].ref.qp == q.qp; };
  if (const size_t* known = qp_index.find(q); known && *known < qps.size() && matches(*known)) return &qps[*known];
  for (size_t i = 0; i < qps.size(); ++i) qp_index[qps[i].ref] = i;
  if (const size_t* known = qp_index.find(q); known && *known < qps.size() && matches(*known)) return &qps[*known];
  return nullptr;
}

Hazard CheckerContext::at_wqe(const HazardId& id, const QpRef& q, uint32_t wqe, Ps t) const {
  Hazard h;
  h.id = id.name;
  h.pe = q.pe;
  h.slot = q.slot;
  h.qp = q.qp;
  h.wqe = wqe;
  h.time_ps = t;
  h.site = site_text(sites.site_of(q, wqe));
  return h;
}

Hazard CheckerContext::at_copy(const HazardId& id, const CopyRecord& c, const void* addr) const {
  Hazard h;
  h.id = id.name;
  h.pe = c.pe;
  h.core = c.core;
  h.addr = this->addr(addr);
  h.time_ps = c.issue_ps;
  h.site = site_text(c.site);
  return h;
}

const char* opcode_text(uint8_t opcode) {
  switch (opcode) {
    case udma::kSend: return "SEND";
    case udma::kWrite: return "WRITE";
    case udma::kWriteImm: return "WRITE_IMM";
    case udma::kWriteWithNotify: return "WRITE_WITH_NOTIFY";
    case udma::kRead: return "READ";
    case udma::kCas: return "CAS";
    case udma::kFaa: return "FAA";
    case udma::kNop: return "NOP";
    default: return "opcode";
  }
}

std::string substatus_text(uint8_t status, uint8_t substatus) {
  const char* what = "error";
  if (status == udma::cqe_status::kFlushed) {
    what = "flushed: the QP was in the error state";
  } else {
    switch (substatus) {
      case udma::cqe_substatus::kTokenMismatch: what = "token mismatch"; break;
      case udma::cqe_substatus::kBadRemoteAddr: what = "remote address outside registered memory"; break;
      case udma::cqe_substatus::kBadLocalAddr: what = "local address or length invalid"; break;
      case udma::cqe_substatus::kBadOpcode: what = "unsupported opcode"; break;
      case udma::cqe_substatus::kUnreachable: what = "target unreachable"; break;
      default: break;
    }
  }
  return fmt::format("status {:#x} substatus {:#x} ({})", status, substatus, what);
}

std::string site_text(SiteRef s) {
  if (!s.file && s.pc) {
    const shim::SourceLine at = shim::source_line(s.pc);
    s.file = at.file;
    s.line = at.line;
  }
  if (!s.file) return "";
  const char* f = s.file;
  const size_t n = std::strlen(SYMSIM_SOURCE_DIR);
  if (n > 0 && std::strncmp(f, SYMSIM_SOURCE_DIR, n) == 0) {
    f += n;
    while (*f == '/') ++f;
  }
  return fmt::format("{}:{}", f, s.line);
}

std::string at_site(SiteRef s) { return s.known() ? " at " + site_text(s) : ""; }

std::string us_text(Ps t) { return fmt::format("{:.3f} us", ps_to_us(t)); }

}  // namespace symsim

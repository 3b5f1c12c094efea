// unaligned_access: DataCopy moves whole 32 B blocks (its length must be a multiple of 32 B)
// and every Unified Buffer address must be 32 B aligned; DataCopyPad lifts only the first.
#include <fmt/format.h>

#include "sim/checkers/unaligned_access.h"
#include "models/platform/ascend_system.h"

namespace symsim {

SYMSIM_ASCEND_CHECKER(UnalignedAccessChecker, "unaligned_access", 170, "a DataCopy that breaks the 32 B rules (length, UB address)", kUnalignedAccess);

void UnalignedAccessChecker::on_copy(const CopyRecord& c, const CopyEnds& at) {
  const auto aligned = [](const CheckerContext::Where& w) {  // UB addresses count from the UB's start
    return !w.unified_buffer || (reinterpret_cast<uintptr_t>(w.p) - w.region->begin) % 32 == 0;
  };
  if ((c.byte_granular || c.bytes % 32 == 0) && aligned(at.src) && aligned(at.dst)) return;  // the usual case
  judge_copy(c);
}

void UnalignedAccessChecker::judge_copy(const CopyRecord& c) {
  std::string why;
  if (!c.byte_granular && c.bytes % 32 != 0)
    why = fmt::format("DataCopy of {} bytes, not a multiple of 32 B (DataCopyPad moves byte lengths)", c.bytes);
  for (const uint8_t* p : {static_cast<const uint8_t*>(c.src), static_cast<const uint8_t*>(c.dst)}) {
    const Region* r = m_ctx.sys.addresses().find(p, 1);  // UB addresses count from the UB's start
    if (why.empty() && r && r->kind == RegionKind::kUnifiedBuffer && (reinterpret_cast<uintptr_t>(p) - r->begin) % 32 != 0)
      why = fmt::format("Unified Buffer address {} is not 32 B aligned", m_ctx.addr(p));
  }
  if (why.empty()) return;
  Hazard h = m_ctx.at_copy(kUnalignedAccess, c, c.dst);
  h.detail = why;
  m_ctx.log.report(std::move(h));
}

}  // namespace symsim

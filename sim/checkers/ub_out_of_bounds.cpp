// ub_out_of_bounds: a core's copies may touch only the Unified Buffer bytes its TPipe
// allocated (InitBuffer), and never past the end of the UB.
#include <fmt/format.h>

#include "sim/checkers/ub_out_of_bounds.h"
#include "models/platform/ascend_system.h"

namespace symsim {

SYMSIM_ASCEND_CHECKER(UbOutOfBoundsChecker, "ub_out_of_bounds", 150, "a copy touching Unified Buffer bytes outside the core's allocations", kUbOutOfBounds);

void UbOutOfBoundsChecker::on_ub_layout(int pe, int core, const uint8_t* ub, uint64_t allocated, uint64_t ub_bytes) {
  m_layouts[{pe, core}] = {ub, allocated, ub_bytes};
}

// [p, p+bytes) lies in the copying core's own UB, inside what its TPipe allocated.
inline bool UbOutOfBoundsChecker::allocated(const CopyRecord& c, const CheckerContext::Where& w, uint64_t bytes) {
  const Region* r = w.region;
  if (r->core != c.core) return false;
  const uint64_t allocated = r->pe >= 0 && r->core >= 0 ? m_layouts[{r->pe, r->core}].allocated : 0;
  return reinterpret_cast<uintptr_t>(w.p) - r->begin + bytes <= allocated;
}

void UbOutOfBoundsChecker::on_copy(const CopyRecord& c, const CopyEnds& at) {
  const uint64_t written = c.dst_bytes ? c.dst_bytes : c.bytes;
  if (at.src.unified_buffer && !allocated(c, at.src, c.bytes)) report(c, at.src, c.bytes, "reads");
  if (at.dst.unified_buffer && !allocated(c, at.dst, written)) report(c, at.dst, written, "writes");
}

// Out of line: the check of every copy keeps a small frame (a report is rare).
void UbOutOfBoundsChecker::report(const CopyRecord& c, const CheckerContext::Where& w, uint64_t bytes,
                                  const char* side) {
  const auto* p = static_cast<const uint8_t*>(w.p);
  const Region* r = w.region;
  const uint8_t* ub = reinterpret_cast<const uint8_t*>(r->begin);
  const uint64_t allocated = r->pe >= 0 && r->core >= 0 ? m_layouts[{r->pe, r->core}].allocated : 0;
  const uint64_t off = static_cast<uint64_t>(p - ub);
  Hazard h = m_ctx.at_copy(kUbOutOfBounds, c, p);
  if (r->core != c.core)
    h.detail = fmt::format("a copy on AIV core {} {} {} bytes of AIV core {}'s Unified Buffer", c.core, side, bytes,
                           r->core);
  else
    h.detail = fmt::format("a copy {} UB bytes {}..{} but the core's TPipe allocated only bytes 0..{} of its {} B "
                           "Unified Buffer",
                           side, off, off + bytes - 1, allocated == 0 ? 0 : allocated - 1, r->end - r->begin);
  m_ctx.log.report(std::move(h));
}

}  // namespace symsim

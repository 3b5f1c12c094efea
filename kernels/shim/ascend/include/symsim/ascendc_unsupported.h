// AscendC calls kernels of this kind are known to use that symsim does not model (mask
// registers, GatherMask, the cube side): calling one is a compile error that names it and points at
// docs/ascendc-subset.md, instead of a confusing overload error or a silent no-op. Anything
// else outside the subset fails to compile as "not a member of AscendC".
#pragma once
#include <type_traits>

namespace AscendC::symsim_subset {
template <typename... T>
struct unsupported : std::false_type {};
}  // namespace AscendC::symsim_subset

#define SYMSIM_ASCENDC_UNSUPPORTED(NAME)                                                              \
  template <typename... Explicit, typename... Args>                                                   \
  inline void NAME(Args&&...) {                                                                       \
    static_assert(::AscendC::symsim_subset::unsupported<Explicit..., Args...>::value,                 \
                  "AscendC::" #NAME " is not in symsim's AscendC subset (see docs/ascendc-subset.md)"); \
  }

namespace AscendC {
// Vector compute outside symsim/ascendc_vector.h (mask registers, GatherMask, cumulative sums).
SYMSIM_ASCENDC_UNSUPPORTED(Copy)
SYMSIM_ASCENDC_UNSUPPORTED(GatherMask)
SYMSIM_ASCENDC_UNSUPPORTED(Sum)
SYMSIM_ASCENDC_UNSUPPORTED(SetDeqScale)
SYMSIM_ASCENDC_UNSUPPORTED(CumSum)
SYMSIM_ASCENDC_UNSUPPORTED(SetVectorMask)
SYMSIM_ASCENDC_UNSUPPORTED(ResetMask)
// Cross-core sync outside the UDMA kernels' needs.
SYMSIM_ASCENDC_UNSUPPORTED(SyncAll)
}  // namespace AscendC

#undef SYMSIM_ASCENDC_UNSUPPORTED

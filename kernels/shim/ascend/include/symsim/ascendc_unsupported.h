// AscendC calls kernels of this kind are known to use that symsim does not model (vector
// compute, dumps, the cube side): calling one is a compile error that names it and points at
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
// Vector compute (kernel C of ascend-udma.md section 5.1 uses these).
SYMSIM_ASCENDC_UNSUPPORTED(Duplicate)
SYMSIM_ASCENDC_UNSUPPORTED(Copy)
SYMSIM_ASCENDC_UNSUPPORTED(CompareScalar)
SYMSIM_ASCENDC_UNSUPPORTED(Compare)
SYMSIM_ASCENDC_UNSUPPORTED(GatherMask)
SYMSIM_ASCENDC_UNSUPPORTED(Gather)
SYMSIM_ASCENDC_UNSUPPORTED(Select)
SYMSIM_ASCENDC_UNSUPPORTED(Cast)
SYMSIM_ASCENDC_UNSUPPORTED(And)
SYMSIM_ASCENDC_UNSUPPORTED(Or)
SYMSIM_ASCENDC_UNSUPPORTED(Add)
SYMSIM_ASCENDC_UNSUPPORTED(Sub)
SYMSIM_ASCENDC_UNSUPPORTED(Mul)
SYMSIM_ASCENDC_UNSUPPORTED(Muls)
SYMSIM_ASCENDC_UNSUPPORTED(Adds)
SYMSIM_ASCENDC_UNSUPPORTED(Sum)
SYMSIM_ASCENDC_UNSUPPORTED(ReduceSum)
SYMSIM_ASCENDC_UNSUPPORTED(Mins)
SYMSIM_ASCENDC_UNSUPPORTED(Maxs)
SYMSIM_ASCENDC_UNSUPPORTED(CreateVecIndex)
SYMSIM_ASCENDC_UNSUPPORTED(SetDeqScale)
SYMSIM_ASCENDC_UNSUPPORTED(CumSum)
SYMSIM_ASCENDC_UNSUPPORTED(SetVectorMask)
SYMSIM_ASCENDC_UNSUPPORTED(ResetMask)
// Debug dumps and cross-core sync outside the UDMA kernels' needs.
SYMSIM_ASCENDC_UNSUPPORTED(InitDump)
SYMSIM_ASCENDC_UNSUPPORTED(DumpTensor)
SYMSIM_ASCENDC_UNSUPPORTED(SyncAll)
}  // namespace AscendC

#undef SYMSIM_ASCENDC_UNSUPPORTED

// SetAtomicAdd covers the 910 cores' MTE3 atomic-add element types only.
#include "kernel_operator.h"
void k() { AscendC::SetAtomicAdd<uint64_t>(); }

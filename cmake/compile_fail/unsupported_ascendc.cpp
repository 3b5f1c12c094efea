// A known AscendC call outside the subset names itself.
#include "kernel_operator.h"
void k(AscendC::LocalTensor<float> t) { AscendC::GatherMask(t, t, 8); }

// A known AscendC call outside the subset names itself.
#include "kernel_operator.h"
void k(AscendC::LocalTensor<float> t) { AscendC::Duplicate<float>(t, 1.0f, 8); }

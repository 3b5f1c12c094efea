// The RoCE NIC's bitwise atomics take integer words only, as upstream's static_assert says.
#include "shmem.h"
void k(float* w) { aclshmemx_roce_atomic_and(w, 1.0f, 1); }

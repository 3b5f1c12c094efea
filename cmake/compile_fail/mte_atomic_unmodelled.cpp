// Atomics on the MTE engine are not modelled: a compile error that names the call.
#include "shmem.h"
void k(__gm__ int32_t* d) { aclshmemx_mte_atomic_add(d, 1, 1); }

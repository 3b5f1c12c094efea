// The SIMT cooperative (block / warp) RMA calls are not modelled: a compile error that names the call.
#include "shmem.h"
void k(__gm__ float* d, __gm__ float* s) { aclshmemx_float_put_nbi_warp(d, s, 16u, 1); }

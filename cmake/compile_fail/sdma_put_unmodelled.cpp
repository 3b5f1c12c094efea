// The SDMA engine is not modelled: its calls are compile errors that name them.
#include "shmem.h"
void k(__gm__ float* d, __gm__ float* s, __ubuf__ float* b) { aclshmemx_sdma_put_nbi(d, s, b, 1024u, 16u, 1, 0u); }

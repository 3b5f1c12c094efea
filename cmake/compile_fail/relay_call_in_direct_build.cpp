// A relay call in a build without ACLSHMEM_RELAY_SUPPORT does not compile (as upstream).
#include "shmem.h"
void k(__gm__ uint8_t* d, __gm__ uint8_t* s, __ubuf__ uint8_t* b) { aclshmemx_udma_relay_put_nbi(d, s, b, 64, 1, 2); }

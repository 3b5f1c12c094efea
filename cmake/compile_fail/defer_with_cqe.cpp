// A deferred batch call must not ask for a CQE.
#include "shmem.h"
void k(__gm__ uint8_t* d, __gm__ uint8_t* s, __ubuf__ uint8_t* b, aclshmemx_submit_state_t& st) {
  aclshmemx_udma_put_nbi<uint8_t, PIPE_MTE3, ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT>(d, s, b, 64, 1, 0, aclshmemx_defer_t(st));
}

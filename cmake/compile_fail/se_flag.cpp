// aclshmemx_udma_op_config_t.se is not supported (as upstream).
#include "shmem.h"
constexpr aclshmemx_udma_op_config_t kSe{1U, 1U, 0U, ACLSHMEMX_UDMA_ODR_SO};
void k(__gm__ uint8_t* d, __gm__ uint8_t* s, __ubuf__ uint8_t* b) { aclshmemx_udma_put_nbi<uint8_t, PIPE_MTE3, kSe>(d, s, b, 64, 1); }

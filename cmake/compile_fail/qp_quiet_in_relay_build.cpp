// qp_quiet is deleted in relay builds (as upstream).
#define ACLSHMEM_RELAY_SUPPORT
#include "shmem.h"
void k() { aclshmemx_udma_qp_quiet(1, 0); }

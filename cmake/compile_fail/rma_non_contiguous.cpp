// The non-contiguous ("detailed") RMA overloads run on the MTE transport upstream: not modelled.
#include "shmem.h"
void k(__gm__ float* d, __gm__ float* s) {
  non_contiguous_copy_param p{4, 16, 32, 32};
  aclshmem_float_put_nbi(d, s, p, 1);
}

// int8 / int16 atomic adds run on the MTE transport upstream: not modelled.
#include "shmem.h"
void k(__gm__ int8_t* d) { aclshmem_int8_atomic_add(d, 1, 1); }

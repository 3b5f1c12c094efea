// Fetching atomics take the four integer types only.
#include "shmem.h"
float k(__gm__ float* d) { return aclshmemx_udma_atomic_fetch_add(d, 1.0f, 1); }

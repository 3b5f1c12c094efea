// NVSHMEM's extended API subset (see nvshmem.h): block-scoped barrier, unique-id
// initialisation as DeepEP's runtime uses it. Like NVSHMEM's collective headers, this brings
// `cg` as the cooperative_groups alias.
#pragma once
#include <cooperative_groups.h>

#include "nvshmem.h"

namespace cg = cooperative_groups;

// Device, every thread of the block: __syncthreads, one thread quiets and meets every PE, then
// __syncthreads.
void nvshmemx_barrier_all_block(::symsim::nv::Site site = SYMSIM_HERE);

// Unique-id initialisation: one PE gets an id and the launcher hands it to all; here every PE
// shares the simulation, so the id only has to be well formed.
typedef struct {
  char internal[128];
} nvshmemx_uniqueid_t;
typedef struct {
  int rank;
  int nranks;
  nvshmemx_uniqueid_t uid;
  bool set;
} nvshmemx_init_attr_t;
enum { NVSHMEMX_INIT_WITH_UNIQUEID = 1 << 3 };
int nvshmemx_get_uniqueid(nvshmemx_uniqueid_t* id);
int nvshmemx_set_attr_uniqueid_args(int rank, int nranks, const nvshmemx_uniqueid_t* id, nvshmemx_init_attr_t* attr);
// Returns non-zero when the attributes do not describe this PE of this simulation.
int nvshmemx_init_attr(unsigned flags, nvshmemx_init_attr_t* attr);

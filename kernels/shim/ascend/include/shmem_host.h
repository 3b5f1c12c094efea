// CANN SHMEM host control plane: initialisation, the symmetric heap, host barriers.
#pragma once
#include <cstddef>
#include <cstdint>

#include "shmem_types.h"

int aclshmemx_set_qp_num(aclshmem_data_op_engine_type_t engine, uint32_t qp_num);
int aclshmemx_get_uniqueid(aclshmemx_uniqueid_t* uid);
int aclshmemx_set_attr_uniqueid_args(int my_pe, int n_pes, uint64_t local_mem_size,
                                     const aclshmemx_uniqueid_t* uid, aclshmemx_init_attr_t* attr);
// Collective: every PE calls it; builds the heap, QPs and device tables of the calling PE.
int aclshmemx_init_attr(aclshmemx_init_flags_t flags, aclshmemx_init_attr_t* attr);
int aclshmem_finalize();
// Collective symmetric allocation: the same call order on every PE gives the same offsets.
void* aclshmem_malloc(size_t size);
void* aclshmem_calloc(size_t count, size_t size);
void* aclshmem_align(size_t alignment, size_t size);
void aclshmem_free(void* ptr);
// Host-side barrier across all PEs' host programs.
void aclshmem_barrier_all();
void aclshmemi_control_barrier_all();

// CANN SHMEM host control plane: initialisation, the symmetric heap, host barriers.
#pragma once
#include <cstddef>
#include <cstdint>

#include "shmem_types.h"

// Per-peer QP count of an engine: process-wide (here: per simulated PE), before init, the same
// on every PE. ACLSHMEM_INVALID_VALUE outside 1..32; ACLSHMEM_NOT_SUPPORTED while SHMEM is
// initialised or for an engine without QP configuration. Reset to 1 by aclshmem_finalize.
int aclshmemx_set_qp_num(data_op_engine_type_t engine, uint32_t qp_num);
int aclshmemx_get_uniqueid(aclshmemx_uniqueid_t* uid);
int aclshmemx_set_attr_uniqueid_args(int my_pe, int n_pes, int64_t local_mem_size, aclshmemx_uniqueid_t* uid,
                                     aclshmemx_init_attr_t* attr);
// Collective: every PE calls it; builds the heap, QPs and device tables of the calling PE.
int aclshmemx_init_attr(aclshmemx_bootstrap_t flags, aclshmemx_init_attr_t* attr);
int aclshmemx_init_status();
int aclshmem_finalize();
// Collective symmetric allocation: the same call order on every PE gives the same offsets.
void* aclshmem_malloc(size_t size);
void* aclshmem_calloc(size_t count, size_t size);
void* aclshmem_align(size_t alignment, size_t size);
void aclshmem_free(void* ptr);
// Cycle profiles of the PE named by the environment variable SHMEM_CYCLE_PROF_PE: on that PE
// `*out_profs` points at them (verbose prints them); elsewhere nothing is returned.
void aclshmemx_get_prof(aclshmem_prof_pe_t** out_profs, bool verbose);
void aclshmemx_show_prof();
// Ends every PE's program with `status` (upstream: all processes exit); in symsim the calling
// host program stops with an error naming it.
[[noreturn]] void aclshmem_global_exit(int status);
// Across all PEs' host programs; in a kernel, the device barrier over every block of every PE
// (upstream declares a host and a device function of this name).
void aclshmem_barrier_all();
// The UB staging buffer (offset, size) and event of the generic RMA calls on the UDMA
// transport. On the host: for the PE's next kernels, ACLSHMEM_INVALID_VALUE when ub_size is
// under ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE. In a kernel (upstream: a device function returning
// nothing): from now on, and such a size stops the kernel.
int aclshmemx_set_udma_config(uint64_t offset, uint32_t ub_size, uint32_t sync_id);
void aclshmemi_control_barrier_all();
// The MTE engine's UB staging buffer (aclshmem_<T>_iput / iget): offset, size, event; default the
// first 16 KiB of UB and event 0. In a kernel: from now on.
int aclshmemx_set_mte_config(uint64_t offset, uint32_t ub_size, uint32_t sync_id);
// The RoCE calls' WQE staging buffer when none is passed (ub_size at least
// ACLSHMEM_RDMA_MTE_STAGING_UB_SIZE, else ACLSHMEM_INVALID_VALUE); default UB offset 190 KiB.
int aclshmemx_set_rdma_config(uint64_t offset, uint32_t ub_size, uint32_t sync_id);
#define shmem_rdma_set_ub_params aclshmemx_set_rdma_config
// The SDMA settings upstream keeps in its device state (its SDMA calls take theirs as arguments).
int aclshmemx_set_sdma_config(uint64_t offset, uint32_t ub_size, uint32_t sync_id);
// Teams, collective over the parent's PEs (the same splits in the same order on each): a strided
// subset of the parent, or its rows of x_range PEs and its columns. A PE outside a new team gets
// ACLSHMEM_TEAM_INVALID. Destroy is collective over the team's members.
int aclshmem_team_split_strided(aclshmem_team_t parent_team, int pe_start, int pe_stride, int pe_size,
                                aclshmem_team_t* new_team);
int aclshmem_team_split_2d(aclshmem_team_t parent_team, int x_range, aclshmem_team_t* x_team, aclshmem_team_t* y_team);
void aclshmem_team_destroy(aclshmem_team_t team);
// The configuration a team was made with: upstream's split calls take none, so every live team's
// is all zero (as upstream's team pool holds it); ACLSHMEM_INVALID_PARAM for a null `config` or a
// team that is not live.
int aclshmem_team_get_config(aclshmem_team_t team, aclshmem_team_config_t* config);
#define shmem_team_get_config aclshmem_team_get_config

namespace symsim::shim {
// Team queries (host programs and kernels): -1 for a team that is not live or a PE outside it.
int team_rank(int team);
int team_size(int team);
int team_translate(int src_team, int src_pe, int dest_team);
// aclshmemx_init_attr of a host program built with ACLSHMEM_RELAY_SUPPORT: one QP per
// (target, relay) pair, [pe * n_pes + relay_pe]; a QP count other than 1 is not supported.
int init_attr_relay_build(aclshmemx_bootstrap_t flags, aclshmemx_init_attr_t* attr);
}  // namespace symsim::shim

#if defined(ACLSHMEM_RELAY_SUPPORT)
#define aclshmemx_init_attr ::symsim::shim::init_attr_relay_build
#endif

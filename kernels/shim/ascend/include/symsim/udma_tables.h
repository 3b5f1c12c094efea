// SHMEM's direct-drive device tables, for host drivers of kernels that drive the UDMA engine
// themselves (kernels/hazards, kernels/moe): what upstream kernels read from SHMEM's meta area,
// handed to the kernel as an argument instead.
#pragma once
#include "shmem_types.h"

namespace symsim::shim {

// The calling host program's tables, in its PE's HBM; null until aclshmemx_init_attr has set
// up the UDMA engine (shmem_host.cpp builds them).
aclshmemi_aiv_udma_info_t* udma_tables();

}  // namespace symsim::shim

// SHMEM set-up and tear-down as every UDMA host driver here does it (the part of CANN's
// examples' utils.h that each driver would otherwise repeat).
#pragma once
#include <cstdint>

#include "acl/acl.h"
#include "shmem.h"

namespace kernel_host {

// aclInit .. aclshmemx_init_attr with the UDMA engine and `qp_num` QPs per peer; throws
// std::runtime_error naming the PE when a step fails.
aclrtStream setup(int pe, uint64_t heap_bytes, uint32_t qp_num = 1);
// aclshmem_finalize .. aclFinalize.
void teardown(aclrtStream stream);

}  // namespace kernel_host

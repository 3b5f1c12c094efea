#include "kernels/common/shmem_setup.h"

#include <fmt/format.h>

#include <stdexcept>

namespace kernel_host {

aclrtStream setup(int pe, uint64_t heap_bytes, uint32_t qp_num) {
  aclrtStream stream = nullptr;
  int status = aclInit(nullptr);
  status |= aclrtSetDevice(pe);
  status |= aclrtCreateStream(&stream);
  if (qp_num > 1) status |= aclshmemx_set_qp_num(ACLSHMEM_DATA_OP_UDMA, qp_num);
  aclshmemx_init_attr_t attr;
  attr.my_pe = pe;
  attr.n_pes = aclshmem_n_pes();
  attr.local_mem_size = heap_bytes;
  attr.option_attr.data_op_engine_type = ACLSHMEM_DATA_OP_UDMA;
  status |= aclshmemx_init_attr(ACLSHMEMX_INIT_WITH_DEFAULT, &attr);
  if (status != 0) throw std::runtime_error(fmt::format("PE {}: SHMEM set-up failed ({})", pe, status));
  return stream;
}

void teardown(aclrtStream stream) {
  aclshmem_finalize();
  aclrtDestroyStream(stream);
  aclrtResetDevice(aclshmem_my_pe());
  aclFinalize();
}

}  // namespace kernel_host

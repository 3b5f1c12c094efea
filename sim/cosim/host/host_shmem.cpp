// The CANN SHMEM host control plane (shmem_host.h) for a co-simulated host program: every call
// runs in the simulator on this process's PE. Also the PE queries the device headers use.
#include "sim/cosim/host/host_link.h"
#include "shmem_host.h"

using symsim::cosim::HostLink;

namespace {
void* pointer(const nlohmann::json& r) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(r.value("ptr", uint64_t{0})));
}
}  // namespace

namespace symsim::shim {
// aclshmem_my_pe() / aclshmem_n_pes() on the host (shmem_device_udma.h forwards to these).
int my_pe() { return HostLink::get().pe(); }
int n_pes() { return HostLink::get().n_pes(); }
}  // namespace symsim::shim

int aclshmemx_set_qp_num(aclshmem_data_op_engine_type_t engine, uint32_t qp_num) {
  return HostLink::get().call_ret(
      {{"op", "aclshmemx_set_qp_num"}, {"engine", static_cast<int>(engine)}, {"qp_num", qp_num}});
}

int aclshmemx_get_uniqueid(aclshmemx_uniqueid_t* uid) {
  if (!uid) return ACLSHMEM_INVALID_PARAM;
  *uid = aclshmemx_uniqueid_t{};
  uid->version = static_cast<int32_t>((1 << 16) + sizeof(aclshmemx_uniqueid_t));
  return ACLSHMEM_SUCCESS;
}

int aclshmemx_set_attr_uniqueid_args(int my_pe, int n_pes, int64_t local_mem_size, aclshmemx_uniqueid_t* uid,
                                     aclshmemx_init_attr_t* attr) {
  if (!uid || !attr || local_mem_size <= 0) return ACLSHMEM_INVALID_PARAM;
  attr->my_pe = my_pe;
  attr->n_pes = n_pes;
  attr->local_mem_size = static_cast<uint64_t>(local_mem_size);
  return ACLSHMEM_SUCCESS;
}

int aclshmemx_init_attr(aclshmemx_init_flags_t flags, aclshmemx_init_attr_t* attr) {
  if (!attr) return ACLSHMEM_INVALID_PARAM;
  return HostLink::get().call_ret(
      {{"op", "aclshmemx_init_attr"},
       {"flags", static_cast<int>(flags)},
       {"my_pe", attr->my_pe},
       {"n_pes", attr->n_pes},
       {"local_mem_size", attr->local_mem_size},
       {"engine_types", static_cast<int>(attr->option_attr.data_op_engine_type)}});
}

int aclshmem_finalize() { return HostLink::get().call_ret({{"op", "aclshmem_finalize"}}); }

void* aclshmem_align(size_t alignment, size_t size) {
  return pointer(HostLink::get().call({{"op", "aclshmem_align"}, {"alignment", alignment}, {"size", size}}));
}
void* aclshmem_malloc(size_t size) { return aclshmem_align(512, size); }
void* aclshmem_calloc(size_t count, size_t size) {
  return pointer(HostLink::get().call({{"op", "aclshmem_calloc"}, {"count", count}, {"size", size}}));
}
void aclshmem_free(void* ptr) {
  HostLink::get().call_ret(
      {{"op", "aclshmem_free"}, {"ptr", static_cast<uint64_t>(reinterpret_cast<uintptr_t>(ptr))}});
}

void aclshmem_barrier_all() { HostLink::get().call_ret({{"op", "aclshmem_barrier_all"}}); }
void aclshmemi_control_barrier_all() { HostLink::get().call_ret({{"op", "aclshmem_barrier_all"}}); }

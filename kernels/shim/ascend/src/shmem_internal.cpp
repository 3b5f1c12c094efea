// symsim/shmem_internal.h: upstream-internal host state and the host calls of its unit tests.
#include "symsim/shmem_internal.h"

#include "shmem_host.h"
#include "kernels/shim/ascend/src/world.h"

namespace symsim::shim {

ShmemHostState shmem_host_state() {
  const HostState& h = host();
  const PeMemory& m = system().memory(h.pe);
  ShmemHostState s;
  s.mype = h.pe;
  s.npes = system().n_pes();
  s.heap_base = m.heap.base();
  s.heap_size = m.heap.size();
  s.is_aclshmem_initialized = h.shmem_ready;
  return s;
}

}  // namespace symsim::shim

int32_t aclshmemx_set_conf_store_tls(bool, const char*, const uint32_t) { return ACLSHMEM_SUCCESS; }

int aclshmemx_finalize(uint64_t instance_id) {
  const symsim::shim::HostState& h = symsim::shim::host();
  if (!h.shmem_ready || instance_id != h.instance_id) return ACLSHMEM_INVALID_VALUE;
  return aclshmem_finalize();
}

uint64_t util_get_ffts_config() { return 0; }

// The pieces of CANN SHMEM's internal host headers (shmemi_host_common.h and what it pulls in)
// that upstream's unit-test harness and example utilities use, plus the host calls they make
// that symsim's public headers did not declare.
#pragma once
#include <cstdint>
#include <cstring>
#include <iostream>
#include <sstream>

#define ACLSHMEM_MAX_LOCAL_SIZE (40UL * 1024 * 1024 * 1024)

// Upstream's logger writes "[SHM_SHMEM file:line] message"; here to stderr, warnings and errors.
#define SYMSIM_SHM_LOG(LEVEL, ARGS)                                                                     \
  do {                                                                                                  \
    std::ostringstream symsim_shm_oss;                                                                  \
    symsim_shm_oss << "[SHM_SHMEM " << (std::strrchr(__FILE__, '/') ? std::strrchr(__FILE__, '/') + 1 : __FILE__) \
                   << ":" << __LINE__ << "] " << LEVEL << " " << ARGS;                                   \
    std::cerr << symsim_shm_oss.str() << std::endl;                                                     \
  } while (0)
#define SHM_LOG_WARN(ARGS) SYMSIM_SHM_LOG("WARN", ARGS)
#define SHM_LOG_ERROR(ARGS) SYMSIM_SHM_LOG("ERROR", ARGS)
#define SHM_ASSERT_RETURN(ARGS, RET)         \
  do {                                       \
    if (!(ARGS)) {                           \
      SHM_LOG_ERROR("Assert " << #ARGS);     \
      return RET;                            \
    }                                        \
  } while (0)

namespace symsim::shim {
// Upstream's g_state (aclshmem_device_host_state_t) of the calling PE's host program, read-only
// here: a copy made at each use.
struct ShmemHostState {
  int mype = 0;
  int npes = 0;
  void* heap_base = nullptr;
  uint64_t heap_size = 0;
  bool is_aclshmem_initialized = false;
};
ShmemHostState shmem_host_state();
}  // namespace symsim::shim
#define g_state (::symsim::shim::shmem_host_state())

// The bootstrap runs inside the simulator (no sockets), so TLS has nothing to protect: the
// setting is accepted and has no effect.
int32_t aclshmemx_set_conf_store_tls(bool enable, const char* tls_info, const uint32_t tls_info_len);
// One SHMEM instance per PE: finalizes it when `instance_id` is the one it was initialised with
// (aclshmemx_init_attr_t::instance_id), else ACLSHMEM_INVALID_VALUE.
int aclshmemx_finalize(uint64_t instance_id);
// symsim's barriers are analytic and need no FFTS address: 0, which util_set_ffts_config accepts.
uint64_t util_get_ffts_config();

// CANN SHMEM point-to-point synchronisation and device collectives, as upstream declares them
// (shmem_device_p2p_sync.h, shmem_device_cc.h): the aclshmem_<T>_wait_until / wait / test
// families with ACLSHMEM_CMP_*, aclshmem_signal_wait_until, the device aclshmem_barrier_all /
// aclshmem_sync_all, dcci_cacheline(s) and util_set_ffts_config. A wait polls its word through
// dcci as upstream does, so it costs what the polling costs, sleeps while the word cannot change
// (sim.idle_poll_sleep) and is reported as a hang when nothing can change it.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernel_operator.h"
#include "shmem_device_udma.h"
#include "shmem_types.h"
#include "symsim/shim_core.h"

namespace symsim::shim::p2p {

// Stops the kernel naming `api` when `cmp` is not an ACLSHMEM_CMP_* value (upstream returns at
// once, which would hide the bug).
void check_cmp(const char* api, int cmp);
// The device barrier over every block of every PE (aclshmem_barrier_all in a kernel).
void device_barrier_all(const char* api);
// The same for a team call: the world team only (another team stops the kernel naming `api`).
void device_barrier_team(const char* api, int team);
// aclshmemx_signal_op: SET or ADD `signal` into the word on `pe` (another PE: a UDMA atomic,
// CAS-emulated set or FAA, completed before it returns so no CQE is left; the calling PE: a
// scalar store written back by dcci).
void signal_op(int32_t* sig_addr, int32_t signal, int sig_op, int pe);
// FFTS configuration (cross-core sync base): recorded, the model needs no address.
void set_ffts_config(uint64_t config);

template <typename T>
bool holds(T v, int cmp, T value) {
  switch (cmp) {
    case ACLSHMEM_CMP_EQ: return v == value;
    case ACLSHMEM_CMP_NE: return v != value;
    case ACLSHMEM_CMP_GT: return v > value;
    case ACLSHMEM_CMP_GE: return v >= value;
    case ACLSHMEM_CMP_LT: return v < value;
    default: return v <= value;  // ACLSHMEM_CMP_LE (check_cmp rejected anything else)
  }
}

// One poll: the word as the core sees it after invalidating its line.
template <typename T>
SYMSIM_INLINE T load(const T* ivar) {
  cache_clean_invalidate(ivar, 64, sizeof(T));
  return *reinterpret_cast<const volatile T*>(ivar);
}

template <typename T>
SYMSIM_INLINE bool test(const T* ivar, int cmp, T value) {
  return holds(load(ivar), cmp, value);
}

template <typename T>
SYMSIM_INLINE void wait_until(const char* api, const T* ivar, int cmp, T value) {
  check_cmp(api, cmp);
  while (!test(ivar, cmp, value)) {
  }
}

// Element i takes part unless status[i] is non-zero; its comparison value is values(i).
inline bool active(const int* status, size_t i) { return !status || status[i] == 0; }

template <typename T, typename Values>
SYMSIM_INLINE void wait_all(const char* api, const T* ivars, size_t n, const int* status, int cmp, Values values) {
  check_cmp(api, cmp);
  for (size_t i = 0; i < n; ++i)
    if (active(status, i))
      while (!test(ivars + i, cmp, values(i))) {
      }
}

// The first element (in polling order) that satisfies the comparison; SIZE_MAX when none takes part.
template <typename T, typename Values>
SYMSIM_INLINE size_t wait_any(const char* api, const T* ivars, size_t n, const int* status, int cmp, Values values) {
  check_cmp(api, cmp);
  bool any = false;
  for (size_t i = 0; i < n; ++i) any = any || active(status, i);
  if (!any) return SIZE_MAX;
  for (;;)
    for (size_t i = 0; i < n; ++i)
      if (active(status, i) && test(ivars + i, cmp, values(i))) return i;
}

// Indices of the elements that satisfy it, once at least one does; how many.
template <typename T, typename Values>
SYMSIM_INLINE size_t wait_some(const char* api, const T* ivars, size_t n, size_t* indices, const int* status, int cmp,
                 Values values) {
  const size_t first = wait_any(api, ivars, n, status, cmp, values);
  if (first == SIZE_MAX) return 0;
  size_t found = 0;
  indices[found++] = first;
  for (size_t k = 1; k < n; ++k) {
    const size_t i = (first + k) % n;
    if (active(status, i) && test(ivars + i, cmp, values(i))) indices[found++] = i;
  }
  return found;
}

template <typename T, typename Values>
SYMSIM_INLINE int test_all(const char* api, const T* ivars, size_t n, const int* status, int cmp, Values values) {
  check_cmp(api, cmp);
  int all = 1;
  for (size_t i = 0; i < n; ++i)
    if (active(status, i) && !test(ivars + i, cmp, values(i))) all = 0;
  return all;
}

template <typename T, typename Values>
SYMSIM_INLINE size_t test_any(const char* api, const T* ivars, size_t n, const int* status, int cmp, Values values) {
  check_cmp(api, cmp);
  for (size_t i = 0; i < n; ++i)
    if (active(status, i) && test(ivars + i, cmp, values(i))) return i;
  return SIZE_MAX;
}

template <typename T, typename Values>
SYMSIM_INLINE size_t test_some(const char* api, const T* ivars, size_t n, size_t* indices, const int* status, int cmp,
                 Values values) {
  check_cmp(api, cmp);
  size_t found = 0;
  for (size_t i = 0; i < n; ++i)
    if (active(status, i) && test(ivars + i, cmp, values(i))) indices[found++] = i;
  return found;
}

template <typename T>
struct Same {
  T value;
  T operator()(size_t) const { return value; }
};
template <typename T>
struct PerElement {
  const T* values;
  T operator()(size_t i) const { return values[i]; }
};

}  // namespace symsim::shim::p2p

#define SYMSIM_P2P_SYNC(NAME, TYPE)                                                                                    \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_wait_until(__gm__ TYPE* ivar, int cmp, TYPE cmp_value) {                      \
    ::symsim::shim::p2p::wait_until("aclshmem_" #NAME "_wait_until", ivar, cmp, cmp_value);                            \
  }                                                                                                                    \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_wait(__gm__ TYPE* ivar, TYPE cmp_value) {                                     \
    ::symsim::shim::p2p::wait_until("aclshmem_" #NAME "_wait", ivar, ACLSHMEM_CMP_NE, cmp_value);                      \
  }                                                                                                                    \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_wait_until_all(__gm__ TYPE* ivars, size_t nelems, __gm__ const int* status,   \
                                                        int cmp, TYPE cmp_value) {                                     \
    ::symsim::shim::p2p::wait_all("aclshmem_" #NAME "_wait_until_all", ivars, nelems, status, cmp,                     \
                                  ::symsim::shim::p2p::Same<TYPE>{cmp_value});                                         \
  }                                                                                                                    \
  ACLSHMEM_DEVICE size_t aclshmem_##NAME##_wait_until_any(__gm__ TYPE* ivars, size_t nelems,                           \
                                                          __gm__ const int* status, int cmp, TYPE cmp_value) {         \
    return ::symsim::shim::p2p::wait_any("aclshmem_" #NAME "_wait_until_any", ivars, nelems, status, cmp,              \
                                         ::symsim::shim::p2p::Same<TYPE>{cmp_value});                                  \
  }                                                                                                                    \
  ACLSHMEM_DEVICE size_t aclshmem_##NAME##_wait_until_some(__gm__ TYPE* ivars, size_t nelems, __gm__ size_t* indices,  \
                                                           __gm__ const int* status, int cmp, TYPE cmp_value) {        \
    return ::symsim::shim::p2p::wait_some("aclshmem_" #NAME "_wait_until_some", ivars, nelems, indices, status, cmp,   \
                                          ::symsim::shim::p2p::Same<TYPE>{cmp_value});                                 \
  }                                                                                                                    \
  ACLSHMEM_DEVICE void aclshmem_##NAME##_wait_until_all_vector(__gm__ TYPE* ivars, size_t nelems,                      \
                                                               __gm__ const int* status, int cmp,                      \
                                                               __gm__ TYPE* cmp_values) {                              \
    ::symsim::shim::p2p::wait_all("aclshmem_" #NAME "_wait_until_all_vector", ivars, nelems, status, cmp,              \
                                  ::symsim::shim::p2p::PerElement<TYPE>{cmp_values});                                  \
  }                                                                                                                    \
  ACLSHMEM_DEVICE size_t aclshmem_##NAME##_wait_until_any_vector(__gm__ TYPE* ivars, size_t nelems,                    \
                                                                 __gm__ const int* status, int cmp,                    \
                                                                 __gm__ TYPE* cmp_values) {                            \
    return ::symsim::shim::p2p::wait_any("aclshmem_" #NAME "_wait_until_any_vector", ivars, nelems, status, cmp,       \
                                         ::symsim::shim::p2p::PerElement<TYPE>{cmp_values});                           \
  }                                                                                                                    \
  ACLSHMEM_DEVICE size_t aclshmem_##NAME##_wait_until_some_vector(__gm__ TYPE* ivars, size_t nelems,                   \
                                                                  __gm__ size_t* indices, __gm__ const int* status,    \
                                                                  int cmp, __gm__ TYPE* cmp_values) {                  \
    return ::symsim::shim::p2p::wait_some("aclshmem_" #NAME "_wait_until_some_vector", ivars, nelems, indices,         \
                                          status, cmp, ::symsim::shim::p2p::PerElement<TYPE>{cmp_values});             \
  }                                                                                                                    \
  ACLSHMEM_DEVICE int aclshmem_##NAME##_test(__gm__ TYPE* ivars, int cmp, TYPE cmp_value) {                            \
    ::symsim::shim::p2p::check_cmp("aclshmem_" #NAME "_test", cmp);                                                    \
    return ::symsim::shim::p2p::test(ivars, cmp, cmp_value) ? 1 : 0;                                                   \
  }                                                                                                                    \
  ACLSHMEM_DEVICE size_t aclshmem_##NAME##_test_any(__gm__ TYPE* ivars, size_t nelems, __gm__ const int* status,       \
                                                    int cmp, TYPE cmp_value) {                                         \
    return ::symsim::shim::p2p::test_any("aclshmem_" #NAME "_test_any", ivars, nelems, status, cmp,                    \
                                         ::symsim::shim::p2p::Same<TYPE>{cmp_value});                                  \
  }                                                                                                                    \
  ACLSHMEM_DEVICE size_t aclshmem_##NAME##_test_some(__gm__ TYPE* ivars, size_t nelems, __gm__ size_t* indices,        \
                                                     __gm__ const int* status, int cmp, TYPE cmp_value) {              \
    return ::symsim::shim::p2p::test_some("aclshmem_" #NAME "_test_some", ivars, nelems, indices, status, cmp,         \
                                          ::symsim::shim::p2p::Same<TYPE>{cmp_value});                                 \
  }                                                                                                                    \
  ACLSHMEM_DEVICE int aclshmem_##NAME##_test_all_vector(__gm__ TYPE* ivars, size_t nelems, __gm__ const int* status,   \
                                                        int cmp, __gm__ TYPE* cmp_values) {                            \
    return ::symsim::shim::p2p::test_all("aclshmem_" #NAME "_test_all_vector", ivars, nelems, status, cmp,             \
                                         ::symsim::shim::p2p::PerElement<TYPE>{cmp_values});                           \
  }                                                                                                                    \
  ACLSHMEM_DEVICE size_t aclshmem_##NAME##_test_any_vector(__gm__ TYPE* ivars, size_t nelems,                          \
                                                           __gm__ const int* status, int cmp, __gm__ TYPE* cmp_values) { \
    return ::symsim::shim::p2p::test_any("aclshmem_" #NAME "_test_any_vector", ivars, nelems, status, cmp,             \
                                         ::symsim::shim::p2p::PerElement<TYPE>{cmp_values});                           \
  }                                                                                                                    \
  ACLSHMEM_DEVICE size_t aclshmem_##NAME##_test_some_vector(__gm__ TYPE* ivars, size_t nelems, __gm__ size_t* indices, \
                                                            __gm__ const int* status, int cmp,                         \
                                                            __gm__ TYPE* cmp_values) {                                 \
    return ::symsim::shim::p2p::test_some("aclshmem_" #NAME "_test_some_vector", ivars, nelems, indices, status, cmp,  \
                                          ::symsim::shim::p2p::PerElement<TYPE>{cmp_values});                          \
  }

SYMSIM_P2P_SYNC(float, float)
SYMSIM_P2P_SYNC(int8, int8_t)
SYMSIM_P2P_SYNC(int16, int16_t)
SYMSIM_P2P_SYNC(int32, int32_t)
SYMSIM_P2P_SYNC(int64, int64_t)
SYMSIM_P2P_SYNC(uint8, uint8_t)
SYMSIM_P2P_SYNC(uint16, uint16_t)
SYMSIM_P2P_SYNC(uint32, uint32_t)
SYMSIM_P2P_SYNC(uint64, uint64_t)
SYMSIM_P2P_SYNC(char, char)
#undef SYMSIM_P2P_SYNC

// Waits until the signal word satisfies the comparison; returns the value that did.
ACLSHMEM_DEVICE int32_t aclshmem_signal_wait_until(__gm__ int32_t* sig_addr, int cmp, int32_t cmp_val) {
  ::symsim::shim::p2p::check_cmp("aclshmem_signal_wait_until", cmp);
  for (;;) {
    const int32_t v = ::symsim::shim::p2p::load(sig_addr);
    if (::symsim::shim::p2p::holds(v, cmp, cmp_val)) return v;
  }
}
#define shmem_signal_wait_until aclshmem_signal_wait_until

// Data cache clean + invalidate of the lines holding [addr, addr + length).
ACLSHMEM_DEVICE void dcci_cachelines(__gm__ uint8_t* addr, uint64_t length) {
  ::symsim::shim::cache_clean_invalidate(addr, length);
}
ACLSHMEM_DEVICE void dcci_cacheline(__gm__ uint8_t* addr) {
  ::symsim::shim::cache_clean_invalidate(addr, 64);
}
ACLSHMEM_DEVICE void util_set_ffts_config(uint64_t config) { ::symsim::shim::p2p::set_ffts_config(config); }
#define shmemx_set_ffts_config util_set_ffts_config
// aclshmem_barrier_all is one function for the host program and the kernel (shmem_host.h): it
// is the device barrier over every block of every PE when a kernel calls it.
ACLSHMEM_DEVICE void aclshmem_sync_all() {
  ::symsim::shim::p2p::device_barrier_all("aclshmem_sync_all");
}
ACLSHMEM_DEVICE void aclshmem_barrier(aclshmem_team_t team) {
  ::symsim::shim::p2p::device_barrier_team("aclshmem_barrier", team);
}
ACLSHMEM_DEVICE void aclshmemx_barrier_vec(aclshmem_team_t team) {
  ::symsim::shim::p2p::device_barrier_team("aclshmemx_barrier_vec", team);
}
ACLSHMEM_DEVICE void aclshmem_sync(aclshmem_team_t team) {
  ::symsim::shim::p2p::device_barrier_team("aclshmem_sync", team);
}
// Updates the signal word on `pe` (ACLSHMEM_SIGNAL_SET / ACLSHMEM_SIGNAL_ADD).
ACLSHMEM_DEVICE void aclshmemx_signal_op(__gm__ int32_t* sig_addr, int32_t signal, int sig_op, int pe) {
  ::symsim::shim::p2p::signal_op(sig_addr, signal, sig_op, pe);
}
#define shmemx_signal_op aclshmemx_signal_op

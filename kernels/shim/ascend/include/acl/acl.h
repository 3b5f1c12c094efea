// The ACL runtime subset a CANN host program uses (docs/ascendc-subset.md): device and stream
// set-up, device memory, copies, and synchronisation. Each call acts on the calling PE.
#pragma once
#include <cstddef>
#include <cstdint>

using aclError = int;
using aclrtStream = void*;
using aclrtContext = void*;

constexpr aclError ACL_SUCCESS = 0;
constexpr aclError ACL_ERROR_NONE = 0;
constexpr aclError ACL_ERROR_INVALID_PARAM = 100000;
constexpr aclError ACL_ERROR_BAD_ALLOC = 200000;
constexpr aclError ACL_ERROR_RT_FAILURE = 500000;
constexpr aclError ACL_ERROR_RT_AICORE_TRAP_EXCEPTION = 507015;

enum aclrtMemcpyKind {
  ACL_MEMCPY_HOST_TO_HOST = 0,
  ACL_MEMCPY_HOST_TO_DEVICE = 1,
  ACL_MEMCPY_DEVICE_TO_HOST = 2,
  ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
};
enum aclrtMemMallocPolicy {
  ACL_MEM_MALLOC_HUGE_FIRST = 0,
  ACL_MEM_MALLOC_HUGE_ONLY = 1,
  ACL_MEM_MALLOC_NORMAL_ONLY = 2,
};

aclError aclInit(const char* config_path);
aclError aclFinalize();
aclError aclrtSetDevice(int32_t device_id);
aclError aclrtResetDevice(int32_t device_id);
aclError aclrtCreateStream(aclrtStream* stream);
aclError aclrtDestroyStream(aclrtStream stream);
// Waits until every kernel queued on `stream` has finished; a trapped kernel returns an error.
aclError aclrtSynchronizeStream(aclrtStream stream);
// As aclrtSynchronizeStream; the timeout (ms, -1: none) never expires in a simulation that ends.
aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout_ms);
// The SoC the program runs on: a 910C die ("Ascend910_9391", whose system counter runs at 50 MHz).
const char* aclrtGetSocName();
aclError aclrtMalloc(void** ptr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtFree(void* ptr);
aclError aclrtMallocHost(void** ptr, size_t size);
aclError aclrtFreeHost(void* ptr);
aclError aclrtMemcpy(void* dst, size_t dest_max, const void* src, size_t count, aclrtMemcpyKind kind);
aclError aclrtMemset(void* dst, size_t dest_max, int32_t value, size_t count);

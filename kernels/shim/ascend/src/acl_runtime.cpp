// The ACL runtime subset on the simulated platform. Times: copies cost a fixed latency plus
// bytes over the host link; everything else is free.
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "acl/acl.h"
#include "kernels/shim/ascend/src/world.h"

using namespace symsim;
using namespace symsim::shim;

namespace {
Ps copy_cost(size_t bytes) {
  const AscendParams& p = system().params();
  return ns_to_ps(p.host_memcpy_latency_us * 1000.0) + transfer_ps(bytes, p.host_memcpy_gbytes_per_s);
}
}  // namespace

aclError aclInit(const char*) { host(); return ACL_SUCCESS; }
aclError aclFinalize() { return ACL_SUCCESS; }
aclError aclrtSetDevice(int32_t) { host(); return ACL_SUCCESS; }
aclError aclrtResetDevice(int32_t) { return ACL_SUCCESS; }

aclError aclrtCreateStream(aclrtStream* stream) {
  if (!stream) return ACL_ERROR_INVALID_PARAM;
  HostState& h = host();
  h.streams.push_back(std::make_unique<Stream>());
  h.streams.back()->pe = h.pe;
  *stream = h.streams.back().get();
  return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream) { return ACL_SUCCESS; }

aclError aclrtSynchronizeStream(aclrtStream stream) {
  HostState& h = host();
  auto* s = static_cast<Stream*>(stream);
  if (!s) s = h.streams.empty() ? nullptr : h.streams.front().get();
  if (!s) return ACL_ERROR_INVALID_PARAM;
  h.waiting_on = "aclrtSynchronizeStream";
  while (s->running > 0) sc_core::wait(s->idle);
  h.waiting_on.clear();
  current_exec() = &h.ctx;
  if (s->tail_ps > now_ps()) host_wait(s->tail_ps - now_ps());
  system().visibility().settle(now_ps());
  if (s->trapped) {
    s->trapped = false;
    return ACL_ERROR_RT_AICORE_TRAP_EXCEPTION;
  }
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t) { return aclrtSynchronizeStream(stream); }

const char* aclrtGetSocName() { return "Ascend910_9391"; }

aclError aclrtMalloc(void** ptr, size_t size, aclrtMemMallocPolicy) {
  if (!ptr) return ACL_ERROR_INVALID_PARAM;
  PeMemory& m = system().memory(host().pe);
  *ptr = m.hbm_alloc.allocate(size, 512);
  system().hooks().emit<&AscendObserver::on_alloc>(m.pe, "aclrtMalloc", static_cast<const uint8_t*>(*ptr), uint64_t{size});
  return *ptr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}

aclError aclrtFree(void*) { return ACL_SUCCESS; }

aclError aclrtMallocHost(void** ptr, size_t size) {
  if (!ptr) return ACL_ERROR_INVALID_PARAM;
  *ptr = std::calloc(1, size ? size : 1);
  return *ptr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}

aclError aclrtFreeHost(void* ptr) {
  std::free(ptr);
  return ACL_SUCCESS;
}

aclError aclrtMemcpy(void* dst, size_t dest_max, const void* src, size_t count, aclrtMemcpyKind kind) {
  if (!dst || !src || count > dest_max) return ACL_ERROR_INVALID_PARAM;
  host();
  if (kind != ACL_MEMCPY_HOST_TO_HOST) {
    system().visibility().settle(now_ps());
    host_wait(copy_cost(count));
    system().visibility().settle(now_ps());
  }
  std::memmove(dst, src, count);
  note_store(dst, count, "host copy (aclrtMemcpy)");
  return ACL_SUCCESS;
}

aclError aclrtMemset(void* dst, size_t dest_max, int32_t value, size_t count) {
  if (!dst || count > dest_max) return ACL_ERROR_INVALID_PARAM;
  host_wait(copy_cost(count));
  system().visibility().settle(now_ps());  // what read these bytes before now has read them
  std::memset(dst, value, count);
  note_store(dst, count, "host memset (aclrtMemset)");
  return ACL_SUCCESS;
}

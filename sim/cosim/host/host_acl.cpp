// The ACL runtime subset (acl/acl.h) for a co-simulated host program: device calls go to the
// simulator; host memory stays in this process.
#include <cstdlib>
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "sim/cosim/host/host_link.h"

using symsim::cosim::HostLink;

namespace {
uint64_t word(const void* p) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)); }
void* pointer(uint64_t w) { return reinterpret_cast<void*>(static_cast<uintptr_t>(w)); }
}  // namespace

aclError aclInit(const char*) { return HostLink::get().call_ret({{"op", "aclInit"}}); }
aclError aclFinalize() { return HostLink::get().call_ret({{"op", "aclFinalize"}}); }
aclError aclrtSetDevice(int32_t d) {
  return HostLink::get().call_ret({{"op", "aclrtSetDevice"}, {"device", d}});
}
aclError aclrtResetDevice(int32_t d) {
  return HostLink::get().call_ret({{"op", "aclrtResetDevice"}, {"device", d}});
}

aclError aclrtCreateStream(aclrtStream* stream) {
  if (!stream) return ACL_ERROR_INVALID_PARAM;
  const auto r = HostLink::get().call({{"op", "aclrtCreateStream"}});
  *stream = pointer(r.value("stream", uint64_t{0}));
  return r.value("ret", ACL_ERROR_RT_FAILURE);
}

aclError aclrtDestroyStream(aclrtStream s) {
  return HostLink::get().call_ret({{"op", "aclrtDestroyStream"}, {"stream", word(s)}});
}

aclError aclrtSynchronizeStream(aclrtStream s) {
  return HostLink::get().call_ret({{"op", "aclrtSynchronizeStream"}, {"stream", word(s)}});
}

aclError aclrtMalloc(void** ptr, size_t size, aclrtMemMallocPolicy policy) {
  if (!ptr) return ACL_ERROR_INVALID_PARAM;
  const auto r =
      HostLink::get().call({{"op", "aclrtMalloc"}, {"size", size}, {"policy", static_cast<int>(policy)}});
  *ptr = pointer(r.value("ptr", uint64_t{0}));
  return r.value("ret", ACL_ERROR_RT_FAILURE);
}

aclError aclrtFree(void* p) { return HostLink::get().call_ret({{"op", "aclrtFree"}, {"ptr", word(p)}}); }

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
  if (kind == ACL_MEMCPY_HOST_TO_HOST) {
    std::memmove(dst, src, count);
    return ACL_SUCCESS;
  }
  const nlohmann::json req = {{"op", "aclrtMemcpy"}, {"dst", word(dst)}, {"dest_max", dest_max},
                              {"src", word(src)},    {"count", count},   {"kind", static_cast<int>(kind)}};
  HostLink& link = HostLink::get();
  if (kind == ACL_MEMCPY_HOST_TO_DEVICE) return link.call_ret(req, src, count);
  if (kind == ACL_MEMCPY_DEVICE_TO_HOST) {
    std::string data;
    const auto r = link.call(req, nullptr, 0, &data);
    const int ret = r.value("ret", ACL_ERROR_RT_FAILURE);
    if (ret == ACL_SUCCESS && data.size() == count) std::memcpy(dst, data.data(), count);
    return ret == ACL_SUCCESS && data.size() != count ? ACL_ERROR_RT_FAILURE : ret;
  }
  return link.call_ret(req);
}

aclError aclrtMemset(void* dst, size_t dest_max, int32_t value, size_t count) {
  if (!dst || count > dest_max) return ACL_ERROR_INVALID_PARAM;
  return HostLink::get().call_ret({{"op", "aclrtMemset"},
                                   {"dst", word(dst)},
                                   {"dest_max", dest_max},
                                   {"value", value},
                                   {"count", count}});
}

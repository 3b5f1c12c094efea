#include "sim/cosim/host_proxy.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <map>
#include <utility>

#include "acl/acl.h"
#include "sim/cosim/cosim_kernels.h"
#include "kernels/registry/kernel_registry.h"
#include "shmem_host.h"

using nlohmann::json;

namespace symsim::cosim {

namespace {

using LaunchFn = std::function<void(uint32_t block_dim, void* stream, const std::vector<uint64_t>& args)>;

template <typename T>
T from_word(uint64_t w) {
  if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<T>(static_cast<uintptr_t>(w));
  } else {
    return static_cast<T>(w);
  }
}

template <typename... A, size_t... I>
void call_with(void (*fn)(uint32_t, void*, A...), uint32_t block_dim, void* stream,
               const std::vector<uint64_t>& w, std::index_sequence<I...>) {
  fn(block_dim, stream, from_word<A>(w[I])...);
}

template <typename... A>
std::pair<size_t, LaunchFn> launcher(void (*fn)(uint32_t, void*, A...)) {
  return {sizeof...(A), [fn](uint32_t block_dim, void* stream, const std::vector<uint64_t>& w) {
            call_with(fn, block_dim, stream, w, std::index_sequence_for<A...>{});
          }};
}

// The kernels a host program may launch by name (cosim_kernels.h).
const std::map<std::string, std::pair<size_t, LaunchFn>>& launch_table() {
#define SYMSIM_COSIM_ENTRY(id, fn, params, names) {#id, launcher(&fn)},
  static const std::map<std::string, std::pair<size_t, LaunchFn>> table = {
      SYMSIM_COSIM_KERNELS(SYMSIM_COSIM_ENTRY)};
#undef SYMSIM_COSIM_ENTRY
  return table;
}

uint64_t u64(const json& h, const char* key) { return h.at(key).get<uint64_t>(); }
void* ptr(const json& h, const char* key) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(u64(h, key)));
}
uint64_t word(const void* p) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)); }

}  // namespace

bool HostProxy::device_range(uint64_t va, uint64_t bytes) const {
  for (const Region& r : m_regions)
    if (va >= r.base && bytes <= r.bytes && va - r.base <= r.bytes - bytes) return true;
  return false;
}

bool HostProxy::known_stream(uint64_t s) const {
  return s == 0 || std::find(m_streams.begin(), m_streams.end(), s) != m_streams.end();
}

void HostProxy::serve() {
  std::string ended;
  try {
    for (Frame f; read_frame(m_fd, f);) {
      std::string data;
      const json reply = execute(f, data);
      ++m_calls;
      write_frame(m_fd, reply, data.data(), data.size());
    }
  } catch (const std::exception& e) {
    ended = e.what();
  }
  ::close(m_fd);
  const bool ok = ended.empty() && m_finalized;
  check(ok, fmt::format("pe {}: co-simulated host program finalized SHMEM and disconnected", m_pe),
        ok               ? fmt::format("{} calls", m_calls)
        : !ended.empty() ? ended
                         : fmt::format("it disconnected after {} calls without aclshmem_finalize", m_calls));
}

json HostProxy::execute(const Frame& f, std::string& out) {
  const json& h = f.header;
  const std::string op = h.at("op").get<std::string>();
  auto ret = [](int r) { return json{{"ret", r}}; };

  if (op == "aclInit") return ret(aclInit(nullptr));
  if (op == "aclFinalize") return ret(aclFinalize());
  if (op == "aclrtSetDevice") return ret(aclrtSetDevice(h.at("device").get<int32_t>()));
  if (op == "aclrtResetDevice") return ret(aclrtResetDevice(h.at("device").get<int32_t>()));
  if (op == "aclrtCreateStream") {
    aclrtStream s = nullptr;
    const aclError r = aclrtCreateStream(&s);
    if (r == ACL_SUCCESS) m_streams.push_back(word(s));
    return {{"ret", r}, {"stream", word(s)}};
  }
  if (op == "aclrtDestroyStream")
    return ret(known_stream(u64(h, "stream")) ? aclrtDestroyStream(ptr(h, "stream"))
                                              : ACL_ERROR_INVALID_PARAM);
  if (op == "aclrtSynchronizeStream") {
    const uint64_t s = u64(h, "stream");
    if (!known_stream(s)) return ret(ACL_ERROR_INVALID_PARAM);
    const aclError r = aclrtSynchronizeStream(ptr(h, "stream"));
    auto failed = std::find(m_failed_launches.begin(), m_failed_launches.end(), s);
    if (failed == m_failed_launches.end()) return ret(r);
    m_failed_launches.erase(failed);
    return ret(ACL_ERROR_RT_FAILURE);
  }
  if (op == "aclrtMalloc") {
    void* p = nullptr;
    const uint64_t size = u64(h, "size");
    const aclError r = aclrtMalloc(&p, size, static_cast<aclrtMemMallocPolicy>(h.at("policy").get<int>()));
    if (r == ACL_SUCCESS) add_region(word(p), size);
    return {{"ret", r}, {"ptr", word(p)}};
  }
  if (op == "aclrtFree") return ret(aclrtFree(ptr(h, "ptr")));
  if (op == "aclrtMemcpy") {
    const uint64_t dst = u64(h, "dst"), src = u64(h, "src"), count = u64(h, "count"),
                   dest_max = u64(h, "dest_max");
    const auto kind = static_cast<aclrtMemcpyKind>(h.at("kind").get<int>());
    if (kind == ACL_MEMCPY_HOST_TO_DEVICE) {
      if (f.data.size() != count || !device_range(dst, std::min(count, dest_max)))
        return ret(ACL_ERROR_INVALID_PARAM);
      return ret(aclrtMemcpy(ptr(h, "dst"), dest_max, f.data.data(), count, kind));
    }
    if (kind == ACL_MEMCPY_DEVICE_TO_HOST) {
      if (!device_range(src, count) || count > kMaxDataBytes) return ret(ACL_ERROR_INVALID_PARAM);
      out.resize(count);
      const aclError r = aclrtMemcpy(out.data(), std::min(count, dest_max), ptr(h, "src"), count, kind);
      if (r != ACL_SUCCESS) out.clear();
      return ret(r);
    }
    if (kind == ACL_MEMCPY_DEVICE_TO_DEVICE) {
      if (!device_range(src, count) || !device_range(dst, std::min(count, dest_max)))
        return ret(ACL_ERROR_INVALID_PARAM);
      return ret(aclrtMemcpy(ptr(h, "dst"), dest_max, ptr(h, "src"), count, kind));
    }
    return ret(ACL_ERROR_INVALID_PARAM);  // host to host never leaves the host process
  }
  if (op == "aclrtMemset") {
    const uint64_t count = u64(h, "count"), dest_max = u64(h, "dest_max");
    if (!device_range(u64(h, "dst"), std::min(count, dest_max))) return ret(ACL_ERROR_INVALID_PARAM);
    return ret(aclrtMemset(ptr(h, "dst"), dest_max, h.at("value").get<int32_t>(), count));
  }
  if (op == "aclshmemx_set_qp_num")
    return ret(aclshmemx_set_qp_num(static_cast<aclshmem_data_op_engine_type_t>(h.at("engine").get<int>()),
                                    h.at("qp_num").get<uint32_t>()));
  if (op == "aclshmemx_init_attr") {
    aclshmemx_init_attr_t attr{};
    attr.my_pe = h.at("my_pe").get<int>();
    attr.n_pes = h.at("n_pes").get<int>();
    attr.local_mem_size = u64(h, "local_mem_size");
    attr.option_attr.data_op_engine_type =
        static_cast<decltype(attr.option_attr.data_op_engine_type)>(h.at("engine_types").get<int>());
    return ret(aclshmemx_init_attr(static_cast<aclshmemx_init_flags_t>(h.at("flags").get<int>()), &attr));
  }
  if (op == "aclshmem_align") {
    const uint64_t size = u64(h, "size");
    void* p = aclshmem_align(u64(h, "alignment"), size);
    if (p) add_region(word(p), size);
    return {{"ret", 0}, {"ptr", word(p)}};
  }
  if (op == "aclshmem_calloc") {
    const uint64_t count = u64(h, "count"), size = u64(h, "size");
    void* p = aclshmem_calloc(count, size);
    if (p) add_region(word(p), count * size);
    return {{"ret", 0}, {"ptr", word(p)}};
  }
  if (op == "aclshmem_free") {
    aclshmem_free(ptr(h, "ptr"));
    return ret(0);
  }
  if (op == "aclshmem_finalize") {
    m_finalized = true;
    return ret(aclshmem_finalize());
  }
  if (op == "aclshmem_barrier_all") {
    aclshmem_barrier_all();
    return ret(0);
  }
  if (op == "launch") {
    const std::string kernel = h.at("kernel").get<std::string>();
    const uint64_t stream = u64(h, "stream");
    auto refuse = [&](aclError r, const std::string& why) {
      m_failed_launches.push_back(stream);
      return json{{"ret", r}, {"error", why}};
    };
    const auto& table = launch_table();
    auto it = table.find(kernel);
    if (it == table.end())
      return refuse(ACL_ERROR_INVALID_PARAM, "kernel '" + kernel + "' is not co-simulated");
    const std::vector<uint64_t> args = h.at("args").get<std::vector<uint64_t>>();
    if (!known_stream(stream)) return refuse(ACL_ERROR_INVALID_PARAM, "unknown stream");
    if (args.size() != it->second.first)
      return refuse(ACL_ERROR_INVALID_PARAM, fmt::format("kernel {} takes {} arguments, got {}", kernel,
                                                         it->second.first, args.size()));
    try {
      it->second.second(h.at("block_dim").get<uint32_t>(), ptr(h, "stream"), args);
    } catch (const std::exception& e) {
      return refuse(ACL_ERROR_RT_FAILURE, e.what());
    }
    return ret(0);
  }
  return {{"ret", ACL_ERROR_INVALID_PARAM}, {"error", "unknown call '" + op + "'"}};
}

}  // namespace symsim::cosim

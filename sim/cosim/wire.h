// Co-simulation wire format between a host program's process and the simulator
// (docs/service.md, "Host co-simulation"): frames of [u32 header bytes][u32 data bytes]
// [JSON header][data], little-endian, over a Unix stream socket. Requests name the host API
// call ({"op": "aclrtMalloc", "size": 4096}); replies carry its return value ({"ret": 0,
// "ptr": ...}); memcpy payloads travel as data.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace symsim::cosim {

constexpr uint32_t kMaxHeaderBytes = 1u << 20;
constexpr uint32_t kMaxDataBytes = 1u << 30;

struct Frame {
  nlohmann::json header;
  std::string data;
};

// Reads one frame; false on a clean end of stream before it. Throws std::runtime_error on a
// short read, a malformed header or sizes past the limits.
bool read_frame(int fd, Frame& frame);
// Writes one frame; throws std::runtime_error when the peer is gone.
void write_frame(int fd, const nlohmann::json& header, const void* data = nullptr, size_t bytes = 0);

// The environment `symsim launch` gives each host process.
constexpr const char* kEnvSocket = "SYMSIM_COSIM_SOCKET";
constexpr const char* kEnvPe = "SYMSIM_PE";
constexpr const char* kEnvPes = "SYMSIM_N_PES";

}  // namespace symsim::cosim

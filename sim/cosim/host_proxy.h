// Runs inside a PE's host coroutine: reads one host program's calls from its connection and
// executes them on the shim (acl*, aclshmem*, kernel launches), replying with their results.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/cosim/wire.h"

namespace symsim::cosim {

class HostProxy {
 public:
  HostProxy(int pe, int fd) : m_pe(pe), m_fd(fd) {}
  // Serves calls until the host program disconnects; records a check of how it ended.
  void serve();

 private:
  nlohmann::json execute(const Frame& request, std::string& reply_data);
  // Device memory the host may name: what it allocated (and within it).
  void add_region(uint64_t base, uint64_t bytes) { m_regions.push_back({base, bytes}); }
  bool device_range(uint64_t va, uint64_t bytes) const;
  bool known_stream(uint64_t s) const;

  struct Region {
    uint64_t base, bytes;
  };
  int m_pe;
  int m_fd;
  std::vector<Region> m_regions;
  std::vector<uint64_t> m_streams;
  std::vector<uint64_t> m_failed_launches;  // streams whose launch was refused: their next sync fails
  uint64_t m_calls = 0;
  bool m_finalized = false;
};

}  // namespace symsim::cosim

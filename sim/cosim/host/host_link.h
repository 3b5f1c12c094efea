// The host program's connection to the simulator in co-simulation: opened on the first host
// API call from the environment `symsim launch` sets, one request and one reply per call.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace symsim::cosim {

class HostLink {
 public:
  // The process's link (connects on first use; exits the process with a message when it
  // was not started by `symsim launch` or the simulator is unreachable).
  static HostLink& get();
  int pe() const { return m_pe; }
  int n_pes() const { return m_n_pes; }
  // Sends `request` (and `data`); returns the reply header, its data in `reply_data`.
  nlohmann::json call(const nlohmann::json& request, const void* data = nullptr, size_t bytes = 0,
                      std::string* reply_data = nullptr);
  // The reply's "ret" as an int (a failed call's "error" goes to stderr).
  int call_ret(const nlohmann::json& request, const void* data = nullptr, size_t bytes = 0);

 private:
  HostLink();
  int m_fd = -1;
  int m_pe = 0;
  int m_n_pes = 1;
};

}  // namespace symsim::cosim

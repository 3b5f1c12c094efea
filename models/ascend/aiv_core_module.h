// The place of one AIV core in the platform (platform.peN.aivK) and of its Unified Buffer
// (platform.peN.aivK.ub). SystemC makes no modules once simulation runs, so the platform builds
// these for every core up front; the core's state (AivCore: its pipes, 12 KiB of event slots,
// its visibility lanes) is made when a kernel block first runs on it, so a 256-PE
// platform pays for the cores that run, as before.
#pragma once
#include <systemc>

#include <cstdint>
#include <memory>

#include "models/ascend/aiv_core.h"

namespace symsim {

class UnifiedBuffer : public sc_core::sc_module {
 public:
  explicit UnifiedBuffer(sc_core::sc_module_name name) : sc_module(name) {}
  uint8_t* base() const { return m_base; }  // null until the core is made
  uint64_t bytes() const { return m_bytes; }
  void place(uint8_t* base, uint64_t bytes) {
    m_base = base;
    m_bytes = bytes;
  }

 private:
  uint8_t* m_base = nullptr;
  uint64_t m_bytes = 0;
};

class AivCoreModule : public sc_core::sc_module {
 public:
  UnifiedBuffer ub{"ub"};

  explicit AivCoreModule(sc_core::sc_module_name name) : sc_module(name) {}
  AivCore* core() const { return m_core.get(); }
  void set_core(std::unique_ptr<AivCore> core) { m_core = std::move(core); }

 private:
  std::unique_ptr<AivCore> m_core;
};

}  // namespace symsim

// One SM of a GPU and its TMA unit as SystemC modules ("platform.gpu0.sm3", "platform.gpu0.tma3").
// The SM owns the units its resident CTA's threads queue on (sm_ports.h: write path, atomic
// issue, TMA engine). Its threads are fibers of the GPU's scheduler (gpu_scheduler.h), not
// SystemC processes: one SystemC thread per GPU keeps the kernel's event count low.
#pragma once
#include <systemc>

#include "models/nvidia/sm_ports.h"

namespace symsim::nv {

class Sm : public sc_core::sc_module {
 public:
  Sm(sc_core::sc_module_name name, int index) : sc_module(name), m_index(index) {}
  const char* kind() const override { return "symsim::nv::Sm"; }
  int index() const { return m_index; }
  SmPorts& ports() { return m_ports; }
  // A CTA starts on this SM: its units start idle (one CTA per SM; the previous one ended).
  SmPorts& ports_for_new_cta() {
    m_ports = SmPorts{};
    return m_ports;
  }

 private:
  int m_index;
  SmPorts m_ports;
};

// The SM's Tensor Memory Accelerator: bulk copies (tma.cpp) occupy its engine, whose
// calendar sits with the SM's other units because a bulk store also takes the SM's write path.
class Tma : public sc_core::sc_module {
 public:
  Tma(sc_core::sc_module_name name, Sm& sm) : sc_module(name), m_sm(sm) {}
  const char* kind() const override { return "symsim::nv::Tma"; }
  Sm& sm() { return m_sm; }
  SmUnit& engine() { return m_sm.ports().tma_engine; }

 private:
  Sm& m_sm;
};

}  // namespace symsim::nv

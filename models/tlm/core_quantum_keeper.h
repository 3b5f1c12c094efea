// Temporal decoupling of a core that runs kernel code ahead of SystemC time: a
// tlm_utils::tlm_quantumkeeper whose local time is how far the core is ahead. The core
// syncs (waits until SystemC time reaches it) once it is more than one quantum ahead of the
// current SystemC time. Two rules differ from the stock keeper, which would change when cores
// sync and with it simulated results: the quantum is counted from the current time, not up to
// the next multiple of the global quantum, and a core exactly one quantum ahead runs on.
#pragma once
#include <systemc>
#include <tlm_utils/tlm_quantumkeeper.h>

namespace symsim {

class CoreQuantumKeeper final : public tlm_utils::tlm_quantumkeeper {
 public:
  // `quantum`: sim.quantum_ns (the platform also makes it the TLM global quantum).
  explicit CoreQuantumKeeper(const sc_core::sc_time& quantum) : m_quantum(quantum) {}

  bool need_sync() const override { return m_local_time > m_quantum; }
  const sc_core::sc_time& quantum() const { return m_quantum; }

 protected:
  sc_core::sc_time compute_local_quantum() override { return m_quantum; }

 private:
  sc_core::sc_time m_quantum;
};

}  // namespace symsim

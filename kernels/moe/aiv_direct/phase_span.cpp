#include "kernels/moe/aiv_direct/phase_span.h"

#include <algorithm>

#include "models/ascend/aiv_core.h"
#include "models/platform/ascend_system.h"
#include "symsim/shim_core.h"
#include "symsim/shim_runtime.h"

namespace moe::aiv {

PhaseSpan::PhaseSpan(const char* what) : m_what(what), m_start_ps(symsim::shim::core().local_ps()) {}

void PhaseSpan::End() {
  if (!m_open) return;
  m_open = false;
  symsim::AivCore& c = symsim::shim::core();
  symsim::shim::system().hooks().emit<&symsim::Observer::on_core_span>(c.pe(), c.core(), m_what,
                                      static_cast<symsim::Ps>(m_start_ps), c.local_ps());
}

PhaseSpan PhaseSpan::EndAfterVector(const char* next) {
  symsim::AivCore& c = symsim::shim::core();
  const symsim::Ps end = std::max(c.local_ps(), c.pipe_free_ps(symsim::AivPipe::kVector));
  if (m_open) {
    m_open = false;
    symsim::shim::system().hooks().emit<&symsim::Observer::on_core_span>(c.pe(), c.core(), m_what,
                                        static_cast<symsim::Ps>(m_start_ps), end);
  }
  return PhaseSpan(next, end);
}

}  // namespace moe::aiv

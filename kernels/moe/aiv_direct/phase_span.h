// A named span of one core's time in the trace (the "core" tracks, as kernels and SIMT VFs
// are): the AIV-direct kernels mark their send and receive phases with it, so that
// tools/moe_breakdown.py can split their time. Observation only: it costs no simulated time.
#pragma once
#include <cstdint>

namespace moe::aiv {

class PhaseSpan {
 public:
    explicit PhaseSpan(const char* what);
    PhaseSpan(const char* what, uint64_t start_ps) : m_what(what), m_start_ps(start_ps) {}
    // Emits the span from construction to now (the core's local time); once.
    void End();
    // Ends the span once the vector pipe has finished what was issued so far (the scalar side
    // runs ahead of it), and returns a span `next` that starts there.
    PhaseSpan EndAfterVector(const char* next);
    // Forgets the span (emits nothing).
    void Drop() { m_open = false; }

 private:
    const char* m_what;
    uint64_t m_start_ps;
    bool m_open = true;
};

}  // namespace moe::aiv

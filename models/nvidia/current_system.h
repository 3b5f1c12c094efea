// The running simulation's platform (one per process), set by the CUDA runtime shim. Inline:
// every device call reads it, and an out-of-line call put two more return addresses below the
// caller's frame on the fiber's stack, a line of its own at some calls (cold at each
// resumption: docs/performance.md, session 24).
#pragma once

namespace symsim::nv {

class NvidiaSystem;
inline NvidiaSystem* g_current_system = nullptr;
inline NvidiaSystem*& current_system() { return g_current_system; }

}  // namespace symsim::nv

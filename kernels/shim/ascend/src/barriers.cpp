// Barriers: the host barrier of every PE's host program (aclshmem_barrier_all on the host,
// the control barrier) and the device barrier of every block of the current launches.
#include <algorithm>

#include <fmt/format.h>

#include "kernels/shim/ascend/src/world.h"
#include "models/ascend/aiv_core.h"

namespace symsim::shim {

void host_wait(Ps d) {
  HostState& h = host();
  if (d > 0) sc_core::wait(sc_core::sc_time::from_value(d));
  current_exec() = &h.ctx;
}

void host_barrier(const char* what) {
  World& w = world();
  HostState& h = host();
  const uint64_t gen = w.host_generation;
  if (++w.host_arrived == static_cast<int>(w.hosts.size())) {
    w.host_arrived = 0;
    ++w.host_generation;
    w.host_event.notify(sc_core::SC_ZERO_TIME);
    sc_core::wait(sc_core::SC_ZERO_TIME);  // let the others wake first, in PE order
  } else {
    h.waiting_on = fmt::format("host barrier in {}", what);
    while (w.host_generation == gen) sc_core::wait(w.host_event);
    h.waiting_on.clear();
  }
  current_exec() = &h.ctx;
}

void vector_barrier_all(const char* api) { vector_barrier_all_at(SYMSIM_CALLER(), api); }

void vector_barrier_all_at(CallSite site, const char* api, Ps hop_ps) {
  World& w = world();
  AivCore& c = core();
  BlockState& b = *w.blocks[c.pe()][c.core()];
  c.pipe_barrier(AivPipe::kAll);
  c.sync();
  int expected = 0;
  for (uint32_t n : w.launch_blocks) expected += static_cast<int>(n);
  const uint64_t gen = w.vec_generation;
  w.vec_latest_ps = std::max(w.vec_latest_ps, c.local_ps());
  if (++w.vec_arrived == expected) {
    int rounds = 1;
    while ((1 << rounds) < w.sys->n_pes()) ++rounds;
    w.vec_release_ps = w.vec_latest_ps + rounds * (hop_ps ? hop_ps : ns_to_ps(w.sys->params().aiv_barrier_hop_ns));
    w.vec_arrived = 0;
    w.vec_latest_ps = 0;
    ++w.vec_generation;
    w.vec_event.notify(sc_core::sc_time::from_value(w.vec_release_ps - now_ps()));
    w.sys->hooks().emit<&AscendObserver::on_device_barrier>(w.vec_release_ps);
    c.wait_until(w.vec_release_ps);
  } else {
    b.barrier_api = api;
    b.barrier_site = site;
    // This block's place in the arrival order (how many were in when it came), not a count now.
    b.waiting_on = fmt::format("(it was arrival {} of the {} the barrier waits for)", w.vec_arrived, expected);
    while (w.vec_generation == gen) c.wait(w.vec_event);
    b.waiting_on.clear();
  }
}

}  // namespace symsim::shim

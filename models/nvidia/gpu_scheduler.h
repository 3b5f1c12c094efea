// The SM array of one GPU: runs the CTAs of the current kernel launch (one CTA per SM, waves
// when the grid is larger) by switching between their threads' fibers in time order. It is
// one SystemC thread per GPU and the only place that waits on SystemC time: a thread that
// must observe memory at time t (a load, a poll, a barrier release) yields, and resumes once
// SystemC time has reached t. Between such points a thread runs ahead on its own local time
// (at most sim.quantum_ns). Same-time threads run in (time, sequence) order: deterministic.
#pragma once
#include <systemc>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "models/nvidia/cuda_thread.h"
#include "models/nvidia/ready_queue.h"

namespace symsim::nv {

class NvidiaSystem;

class GpuScheduler {
 public:
  GpuScheduler(NvidiaSystem& sys, int gpu);
  // Spawns the SystemC thread (before sc_start).
  void spawn();

  // Host side: queues a launch; `l->finished` fires when it has ended (or failed).
  void enqueue(std::shared_ptr<Launch> l);
  bool busy() const { return m_current != nullptr || !m_queue.empty(); }
  const Launch* current_launch() const { return m_current.get(); }

  // Called by the running thread (inside its fiber).
  // Local time moves on by `d`; past the quantum the thread yields.
  void advance(CudaThread& t, Ps d);
  // Local time becomes at least `t_ps` and SystemC time catches up (others run meanwhile).
  void sync_to(CudaThread& t, Ps t_ps);
  // The thread did something other than re-reading an unchanged word (hang detection).
  void busy(CudaThread& t);
  // The thread polled `bytes` (up to 8) at `addr` and read `value`: unchanged polls in a row
  // make it idle.
  void poll(CudaThread& t, uintptr_t addr, uint64_t value, uint32_t bytes);
  // True when an idle polling thread's word in GPU memory no longer holds what it last read
  // (a write landed after its last poll: its next poll sees it, so nothing is stuck yet).
  bool idle_poller_sees_change() const;
  // Parks the thread until wake(); `what` says on what (hang reports).
  void block(CudaThread& t);
  // Makes a blocked thread runnable at `t_ps` (from the thread that releases it).
  void wake(CudaThread& t, Ps t_ps);
  // The thread ends the kernel with a trap (all of the launch stops, as on the GPU).
  void trap(CudaThread& t, const std::string& why);

  // Hang reports: what the unfinished threads wait on, one line per distinct site.
  std::vector<std::string> describe_waits(size_t max_lines) const;
  // Stops the current launch (deadlock or timeout found elsewhere), with `why`.
  void abort(const std::string& why);
  int gpu() const { return m_gpu; }
  // CUDA-thread resumptions so far (the model's unit of work, for speed figures).
  uint64_t resumes() const { return m_resumes; }

 private:
  void run();
  void start_launch();
  void start_cta(Launch& l, uint32_t index, int sm);
  void thread_main(CudaThread& t);
  void finish_thread(CudaThread& t);
  void end_launch();
  // A suspended thread, with where its stack resumes.
  void push(CudaThread& t, Ps t_ps) { m_ready.push(t_ps, &t, t.fiber.saved_sp()); }
  void swap_static_smem(Cta* to);

  NvidiaSystem& m_sys;
  int m_gpu;
  std::deque<std::shared_ptr<Launch>> m_queue;
  std::shared_ptr<Launch> m_current;
  ReadyQueue m_ready;
  uint64_t m_resumes = 0;
  Ps m_quantum_ps = 0;   // sim.quantum_ns
  Ps m_last_end_ps = 0;  // end of the last launch (the next queued one starts a launch gap after)
  std::vector<int> m_free_sms;
  sc_core::sc_event m_work;
  bool m_aborting = false;
  std::string m_abort_reason;
};

// The thread whose fiber is running, or null (host code, models).
inline CudaThread* current_thread() { return g_running.thread; }
// Where the shared-memory byte at `addr` of CTA `c` is stored right now (static __shared__
// variables live in a section that holds one CTA's image at a time).
uint8_t* shared_storage(Cta& c, void* addr);

}  // namespace symsim::nv

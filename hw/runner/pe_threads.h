// One long-lived host thread per PE for symsim-hw: each runs its PE's host program when asked,
// so the threads (and CUDA's per-thread streams) stay warm between repetitions.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace symsim::hw {

class PeThreads {
 public:
  // `enter(pe)` runs first on each PE's thread.
  PeThreads(int pes, std::function<void(int pe)> enter);
  ~PeThreads();
  PeThreads(const PeThreads&) = delete;
  PeThreads& operator=(const PeThreads&) = delete;

  // Runs job(pe) on every PE's thread at once; `errors[pe]` is what it threw (empty if
  // nothing). False when they had not all finished after timeout_s: the threads are then
  // left behind (the kernels they wait on may never end).
  bool run(const std::function<void(int pe)>& job, double timeout_s, std::vector<std::string>& errors);

 private:
  struct State;
  std::shared_ptr<State> m_state;
};

}  // namespace symsim::hw

// A status line for long `symsim run`s on a terminal: simulated time, WQEs executed and the
// wall-clock rate, redrawn in place on stderr twice a second once the run has taken a second.
// Nothing when stderr is not a terminal (CI logs stay as they were). Observing only: the run
// is byte-identical with or without it.
#pragma once
#include <chrono>
#include <cstdint>
#include <vector>

#include "models/core/observer.h"

namespace symsim {

class TtyProgress : public Observer {
 public:
  TtyProgress();
  ~TtyProgress() override { finish(); }
  // What to attach: this observer on a terminal, nothing otherwise.
  std::vector<Observer*> observers() { return m_tty ? std::vector<Observer*>{this} : std::vector<Observer*>{}; }
  // Clears the line (before the run's own output).
  void finish();

  void on_wqe_executed(const WqeRecord& r) override;
  void on_sq_doorbell(const QpRef&, uint32_t, Ps t) override { tick(t); }
  void on_core_span(int, int, const char*, Ps, Ps end) override { tick(end); }

 private:
  void tick(Ps t);
  bool m_tty;
  bool m_drawn = false;
  std::chrono::steady_clock::time_point m_start, m_next;
  uint64_t m_wqes = 0, m_calls = 0;
  Ps m_latest_ps = 0;
};

}  // namespace symsim

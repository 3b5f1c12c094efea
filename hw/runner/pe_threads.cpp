#include "hw/runner/pe_threads.h"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace symsim::hw {

struct PeThreads::State {
  std::mutex mutex;
  std::condition_variable cv;
  uint64_t generation = 0;
  std::function<void(int)> job;
  int finished = 0;
  bool stop = false;
  bool stuck = false;
  std::vector<std::string> errors;
  std::vector<std::thread> threads;
};

PeThreads::PeThreads(int pes, std::function<void(int pe)> enter) : m_state(std::make_shared<State>()) {
  m_state->errors.resize(static_cast<size_t>(pes));
  for (int pe = 0; pe < pes; ++pe) {
    m_state->threads.emplace_back([state = m_state, pe, enter] {
      std::string enter_error;
      try {
        enter(pe);
      } catch (const std::exception& e) {
        enter_error = e.what();
      }
      uint64_t seen = 0;
      for (;;) {
        std::function<void(int)> job;
        {
          std::unique_lock<std::mutex> lock(state->mutex);
          state->cv.wait(lock, [&] { return state->stop || state->generation != seen; });
          if (state->stop) return;
          seen = state->generation;
          job = state->job;
        }
        std::string error = enter_error;
        if (error.empty()) {
          try {
            job(pe);
          } catch (const std::exception& e) {
            error = e.what();
          }
        }
        const std::lock_guard<std::mutex> lock(state->mutex);
        state->errors[static_cast<size_t>(pe)] = error;
        ++state->finished;
        state->cv.notify_all();
      }
    });
  }
}

PeThreads::~PeThreads() {
  {
    const std::lock_guard<std::mutex> lock(m_state->mutex);
    m_state->stop = true;
    m_state->cv.notify_all();
  }
  for (std::thread& t : m_state->threads) {
    if (m_state->stuck) t.detach();
    else t.join();
  }
}

bool PeThreads::run(const std::function<void(int pe)>& job, double timeout_s, std::vector<std::string>& errors) {
  State& s = *m_state;
  std::unique_lock<std::mutex> lock(s.mutex);
  s.job = job;
  s.finished = 0;
  ++s.generation;
  s.cv.notify_all();
  const int pes = static_cast<int>(s.threads.size());
  if (!s.cv.wait_for(lock, std::chrono::duration<double>(timeout_s), [&] { return s.finished == pes; })) {
    s.stuck = true;
    return false;
  }
  errors = s.errors;
  return true;
}

}  // namespace symsim::hw

#include "sim/service/background_work.h"

namespace symsim::service {

BackgroundWork::BackgroundWork() : m_thread([this] { loop(); }) {}

BackgroundWork::~BackgroundWork() {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stop = true;
    m_jobs.clear();
  }
  m_wake.notify_one();
  m_thread.join();
}

void BackgroundWork::post(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_jobs.push_back(std::move(job));
  }
  m_wake.notify_one();
}

void BackgroundWork::loop() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lock(m_mutex);
      m_wake.wait(lock, [this] { return m_stop || !m_jobs.empty(); });
      if (m_stop) return;
      job = std::move(m_jobs.front());
      m_jobs.pop_front();
    }
    job();
  }
}

}  // namespace symsim::service

// One thread for the work a request may cause that is too slow for the event thread: reading
// and validating a submitted scenario, reading a result. Jobs run in order; each hands its
// answer back to the event thread itself (asio::post). The destructor waits for the running
// job (every job is bounded) and drops the rest.
#pragma once
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace symsim::service {

class BackgroundWork {
 public:
  BackgroundWork();
  ~BackgroundWork();
  BackgroundWork(const BackgroundWork&) = delete;
  BackgroundWork& operator=(const BackgroundWork&) = delete;

  void post(std::function<void()> job);

 private:
  void loop();
  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::deque<std::function<void()>> m_jobs;
  bool m_stop = false;
  std::thread m_thread;  // last: starts after the members above exist
};

}  // namespace symsim::service

#include "kernels/moe/host/combine_check.h"

#include <fmt/format.h>

#include <pthread.h>
#include <signal.h>

#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kernels/registry/kernel_registry.h"

namespace moe {
namespace {

struct Job {
  WorkloadSpec w;
  Routing routing;  // topk_idx and topk_weight only
  uint32_t rank = 0, launch = 0;
  std::vector<uint16_t> got;
  size_t index = 0;  // the check's place in the list
};

// What the host program's verify_combine did in place, on a copy of the output.
void run(const Job& j) {
  const std::vector<uint16_t> want = reference_combine(j.w, make_rank_input(j.w, j.routing, j.rank, j.launch));
  uint64_t wrong = 0, first = 0;
  // Element by element only when something differs (to count and find the first).
  if (j.got.size() != want.size() || std::memcmp(j.got.data(), want.data(), want.size() * sizeof want[0]) != 0)
    for (size_t i = 0; i < want.size(); ++i)
      if (j.got[i] != want[i] && wrong++ == 0) first = i;
  symsim::settle_check(j.index, wrong == 0,
                       wrong == 0 ? ""
                                  : fmt::format("{} elements differ; first: token {} element {}: {:#06x}, expected {:#06x}",
                                                wrong, first / j.w.hidden, first % j.w.hidden, j.got[first], want[first]));
}

// One helper thread, made at the first check; the simulation's thread runs queued checks too
// when it would otherwise wait. At most kHeld copies of outputs live at once (1.8 MB each at
// hidden 7168), and their buffers are kept for the next checks: fresh ones are pages to fault in.
class Checker {
 public:
  ~Checker() {
    {
      const std::lock_guard<std::mutex> lock(m_mutex);
      m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable()) m_thread.join();
  }

  void submit(Job&& j, const uint16_t* got, size_t elements) {
    std::unique_lock<std::mutex> lock(m_mutex);
    if (!m_thread.joinable()) start();
    while (m_held >= kHeld) {
      if (!run_one(lock)) m_done.wait(lock);
    }
    ++m_held;
    if (!m_spare.empty()) {
      j.got = std::move(m_spare.back());
      m_spare.pop_back();
    }
    lock.unlock();
    j.got.assign(got, got + elements);
    lock.lock();
    m_queue.push_back(std::move(j));
    lock.unlock();
    m_wake.notify_one();
  }

  void help() {
    std::unique_lock<std::mutex> lock(m_mutex);
    while (run_one(lock)) {
    }
  }

 private:
  static constexpr size_t kHeld = 8;

  // With every signal blocked from its first instruction: the cold-page store's SIGBUS and
  // the rest stay with the simulation's thread.
  void start() {
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    m_thread = std::thread([this] { work(); });
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
  }

  // Runs the first queued job, the lock released meanwhile; false when none was queued.
  bool run_one(std::unique_lock<std::mutex>& lock) {
    if (m_queue.empty()) return false;
    Job j = std::move(m_queue.front());
    m_queue.pop_front();
    lock.unlock();
    run(j);
    lock.lock();
    m_spare.push_back(std::move(j.got));
    --m_held;
    m_done.notify_all();
    return true;
  }

  void work() {
    std::unique_lock<std::mutex> lock(m_mutex);
    for (;;) {
      m_wake.wait(lock, [this] { return m_stop || !m_queue.empty(); });
      if (m_queue.empty()) return;  // stopping, nothing left
      run_one(lock);
    }
  }

  std::mutex m_mutex;
  std::condition_variable m_wake;  // a job queued, or stop
  std::condition_variable m_done;  // a job finished: its copy's buffer is free
  std::deque<Job> m_queue;
  std::vector<std::vector<uint16_t>> m_spare;
  size_t m_held = 0;  // copies queued or being checked
  bool m_stop = false;
  std::thread m_thread;
};

Checker& checker() {
  static Checker c;
  return c;
}

}  // namespace

void check_combine_later(const WorkloadSpec& w, const Routing& r, uint32_t rank, uint32_t launch,
                         const uint16_t* got) {
  Job j;
  j.w = w;
  j.routing.topk_idx = r.topk_idx;
  j.routing.topk_weight = r.topk_weight;
  j.rank = rank;
  j.launch = launch;
  j.index = symsim::check_later(fmt::format("pe {} launch {}: combine output ({} tokens x {}) equals the host reference",
                                            rank, launch, w.tokens, w.hidden));
  const size_t index = j.index;
  try {
    checker().submit(std::move(j), got, size_t{w.tokens} * w.hidden);
  } catch (const std::exception& e) {  // no thread or no memory: the place gets a verdict, or the run's end would wait for one
    symsim::settle_check(index, false, std::string("the check could not be queued: ") + e.what());
    throw;
  }
}

void help_combine_checks() { checker().help(); }

}  // namespace moe

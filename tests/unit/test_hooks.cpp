// Hooks: each hook reaches exactly the observers that override it, in attach order, every
// time; an observer emitting a hook from inside another keeps its own listeners intact.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/core/observer.h"

using namespace symsim;

namespace {

struct Log {
  std::vector<std::string> calls;
};

// Handles SQ doorbells and engine busy spans only.
struct Doorbells : Observer {
  Log& log;
  std::string name;
  Doorbells(Log& l, std::string n) : log(l), name(std::move(n)) {}
  void on_sq_doorbell(const QpRef&, uint32_t producer, Ps) override { log.calls.push_back(name + ".sq" + std::to_string(producer)); }
  void on_engine_busy(int pe, Ps, Ps) override { log.calls.push_back(name + ".busy" + std::to_string(pe)); }
};

// Handles CQ doorbells (same signature as SQ doorbells) and, on each, emits an engine busy span.
struct Nested : Observer {
  Log& log;
  const Hooks& hooks;
  Nested(Log& l, const Hooks& h) : log(l), hooks(h) {}
  void on_cq_doorbell(const QpRef&, uint32_t consumer, Ps) override {
    log.calls.push_back("nested.cq" + std::to_string(consumer));
    hooks.emit<&Observer::on_engine_busy>(7, Ps{0}, Ps{1});
  }
};

}  // namespace

TEST(Hooks, EachHookReachesItsListenersInAttachOrderEveryTime) {
  Log log;
  Hooks hooks;
  Doorbells a(log, "a"), b(log, "b");
  Nested n(log, hooks);
  hooks.attach(&a);
  hooks.attach(&b);
  hooks.attach(&n);  // last: its nested emission ends on an observer that does not handle it
  for (uint32_t i = 0; i < 3; ++i) {
    hooks.emit<&Observer::on_sq_doorbell>(QpRef{}, i, Ps{0});
    hooks.emit<&Observer::on_cq_doorbell>(QpRef{}, i, Ps{0});
    hooks.emit<&Observer::on_wqe_executed>(WqeRecord{});  // nobody listens
  }
  const std::vector<std::string> want = {
      "a.sq0", "b.sq0", "nested.cq0", "a.busy7", "b.busy7",  //
      "a.sq1", "b.sq1", "nested.cq1", "a.busy7", "b.busy7",  //
      "a.sq2", "b.sq2", "nested.cq2", "a.busy7", "b.busy7"};
  EXPECT_EQ(log.calls, want);
}

TEST(Hooks, AnObserverAttachedLaterIsHeard) {
  Log log;
  Hooks hooks;
  Doorbells a(log, "a"), b(log, "b");
  hooks.attach(&a);
  hooks.emit<&Observer::on_sq_doorbell>(QpRef{}, 1u, Ps{0});
  hooks.attach(&b);
  hooks.emit<&Observer::on_sq_doorbell>(QpRef{}, 2u, Ps{0});
  EXPECT_EQ(log.calls, (std::vector<std::string>{"a.sq1", "a.sq2", "b.sq2"}));
}

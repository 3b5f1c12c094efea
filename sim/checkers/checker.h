// The base of every Ascend hazard checker: an observer of the models' hooks with the shared
// context; rules that can only judge once the run is over do it in finish(). Each checker is
// one file pair (<name>.h, <name>.cpp) that registers itself (catalog/checker_registry.h).
#pragma once
#include <tuple>

#include "sim/catalog/checker_registry.h"
#include "sim/checkers/checker_context.h"
#include "models/ascend/ascend_observer.h"

namespace symsim {

class Checker : public AscendObserver {
 public:
  explicit Checker(CheckerContext& ctx) : m_ctx(ctx) {}
  // The run ended at `end_ps`; `completed`: every host program finished (no hang).
  virtual void finish(Ps end_ps, bool completed) {}

 protected:
  CheckerContext& m_ctx;
};

using QpKey = std::tuple<int, int, int>;  // (pe, slot, qp)
inline QpKey qp_key(const QpRef& q) { return {q.pe, q.slot, q.qp}; }

}  // namespace symsim

// Registers an Ascend checker (built over CheckerContext) in its own .cpp.
#define SYMSIM_ASCEND_CHECKER(Class, name, rank, doc, ...) \
  SYMSIM_REGISTER_CHECKER(Class, ::symsim::CheckerContext, ::symsim::Checker, name, ::symsim::family::kAscend, rank, doc, __VA_ARGS__)

// Judges observed final states against the formal model's verdict.
//
// The "outcome of interest" is C for `exists (C)` and `~exists (C)`, and ~C for
// `forall (C)`. The model allows it when: exists and verdict 1 (C reachable); ~exists and
// verdict 0 (the property fails, so C is reachable); forall and verdict 0 (C can be
// violated). Otherwise the model forbids it, and observing it is a failure.
#pragma once

#include <optional>
#include <vector>

#include "sim/litmus/litmus_runner.h"
#include "sim/litmus/litmus_test.h"

namespace symsim::litmus {

enum class Verdict {
  Reached,            // allowed outcome observed
  NotReached,         // allowed outcome never observed (weak behaviour not explored)
  ForbiddenObserved,  // FAILURE: the model forbids what the simulator produced
  ForbiddenAbsent,    // forbidden outcome never observed: good
  NoVerdict,          // no expected verdict for this test
};

struct Judgement {
  Verdict verdict = Verdict::NoVerdict;
  bool outcome_allowed = false;
  bool outcome_observed = false;
  std::vector<std::vector<int64_t>> witnesses;  // final states showing the outcome
};

bool outcome_allowed(Quantifier q, int expected);
bool shows_outcome(const LitmusTest& test, const Observation& obs, const std::vector<int64_t>& state);
Judgement judge(const LitmusTest& test, const Observation& obs, std::optional<int> expected);
const char* to_string(Verdict v);

}  // namespace symsim::litmus

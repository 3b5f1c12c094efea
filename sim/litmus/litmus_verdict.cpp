#include "sim/litmus/litmus_verdict.h"

namespace symsim::litmus {

bool outcome_allowed(Quantifier q, int expected) {
  return q == Quantifier::Exists ? expected == 1 : expected == 0;
}

bool shows_outcome(const LitmusTest& test, const Observation& obs, const std::vector<int64_t>& state) {
  const bool holds = evaluate(test.condition, [&](const Term& t) { return state_value(obs, state, t); });
  return test.quantifier == Quantifier::Forall ? !holds : holds;
}

Judgement judge(const LitmusTest& test, const Observation& obs, std::optional<int> expected) {
  Judgement j;
  for (const std::vector<int64_t>& s : obs.states) {
    if (shows_outcome(test, obs, s)) j.witnesses.push_back(s);
  }
  j.outcome_observed = !j.witnesses.empty();
  if (!expected) return j;
  j.outcome_allowed = outcome_allowed(test.quantifier, *expected);
  if (j.outcome_allowed) {
    j.verdict = j.outcome_observed ? Verdict::Reached : Verdict::NotReached;
  } else {
    j.verdict = j.outcome_observed ? Verdict::ForbiddenObserved : Verdict::ForbiddenAbsent;
  }
  return j;
}

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::Reached: return "allowed-reached";
    case Verdict::NotReached: return "allowed-not-reached";
    case Verdict::ForbiddenObserved: return "FORBIDDEN-OBSERVED";
    case Verdict::ForbiddenAbsent: return "forbidden-not-observed";
    case Verdict::NoVerdict: return "no-verdict";
  }
  return "?";
}

}  // namespace symsim::litmus

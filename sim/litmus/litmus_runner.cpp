#include "sim/litmus/litmus_runner.h"

#include <stdexcept>

#include "models/ptx/ptx_machine.h"

namespace symsim::litmus {

std::string Observation::describe(const std::vector<int64_t>& state) const {
  std::string out;
  for (size_t i = 0; i < vars.size(); ++i) {
    if (i) out += ' ';
    out += vars[i].name() + "=" + std::to_string(state.at(i));
  }
  return out;
}

int64_t state_value(const Observation& obs, const std::vector<int64_t>& state, const Term& t) {
  for (size_t i = 0; i < obs.vars.size(); ++i) {
    if (obs.vars[i].name() == t.name()) return state.at(i);
  }
  throw std::logic_error("term not in the state: " + t.name());
}

Observation run_litmus(const LitmusTest& test, const RunOptions& options) {
  if (!test.unsupported.empty()) throw std::logic_error("test has unsupported instructions: " + test.path);
  Observation obs;
  obs.vars = condition_variables(test.condition);
  for (int i = 0; i < options.seeds; ++i) {
    ptx::Machine machine(test.program, options.first_seed + static_cast<uint64_t>(i));
    const ptx::RunResult run = machine.run(options.max_steps_per_run);
    if (run.status == ptx::RunStatus::Deadlock) {
      ++obs.deadlocked;
      continue;
    }
    if (run.status == ptx::RunStatus::StepLimit) {
      ++obs.step_limited;
      continue;
    }
    ++obs.finished;
    std::vector<int64_t> state;
    for (const Term& v : obs.vars) {
      if (v.kind == Term::Kind::Register) {
        const auto& regs = run.regs.at(v.thread);
        auto it = regs.find(v.reg);
        state.push_back(it == regs.end() ? 0 : it->second);
      } else {
        const int addr = test.addr_ids.at(v.location);
        state.push_back(run.memory.at(test.program.addrs.at(addr).physical));
      }
    }
    obs.states.insert(state);
  }
  return obs;
}

}  // namespace symsim::litmus

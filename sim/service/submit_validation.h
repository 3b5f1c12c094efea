// The slow half of a submit, run off the event thread (BackgroundWork): read the scenario
// (inline, or a file under --root), validate it exactly as the worker will load it, and check
// the trace filter against its PEs. A pure function of the request, so the fuzzer drives it.
#pragma once
#include <cstddef>
#include <string>

#include "sim/service/submit_request.h"

namespace symsim::service {

class ConfinedRoot;

struct Validation {
  std::string error_code;  // empty: valid
  std::string message;
  std::string text;  // the scenario as the worker will read it
  std::string name;  // the scenario's name
};

// `root` may be null (then a scenario_path is refused); `max_bytes` bounds a scenario file.
Validation validate_submission(const SubmitRequest& request, const ConfinedRoot* root, size_t max_bytes);

}  // namespace symsim::service

// The inputs of `symsim report`, checked before any plotting (docs/report.md): a run's
// result.json (with its trace, when there is one) or a sweep's output folder. Anything else is
// InputError naming the file, the JSON pointer and what is wrong (exit 2).
#pragma once
#include <string>

namespace symsim::report {

struct ReportInputs {
  std::string result;  // a run's result.json, or empty for a sweep
  std::string trace;   // the run's trace, or empty when there is none
  std::string sweep;   // a sweep's output folder, or empty for a run
};

// `input` is a result.json, a sweep folder or a sweep's results.json; `trace` is the --trace
// given (empty: a trace.json beside the result.json, when there is one).
ReportInputs check_report_inputs(const std::string& input, const std::string& trace);

}  // namespace symsim::report

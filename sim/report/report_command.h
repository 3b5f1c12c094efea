// `symsim report RESULT.json|SWEEP_DIR -o report.html` (docs/report.md): checks the inputs,
// then runs the matplotlib script installed beside the presets (share/symsim/report/) to
// write one self-contained HTML file.
#pragma once
#include <string>

namespace symsim::report {

struct ReportOptions {
  std::string input;  // result.json, a sweep folder or its results.json
  std::string trace;  // optional; default: trace.json beside result.json
  std::string out;    // the HTML file
};

// 0 when written; InputError (exit 2) for bad input, io::OutputError for a bad -o; 3 when the
// plotting script fails (its message is on stderr).
int report_main(const ReportOptions& options);

}  // namespace symsim::report

// `symsim litmus PATH... --expected FILE [--seeds N] [--json OUT]`
//
// Runs every `.litmus` file under PATH (files or folders, recursive) on the PTX model
// under `seeds` seeds, compares the outcomes with the expected verdicts of the formal
// model and prints a summary per folder. Returns 0 if no forbidden outcome was observed,
// 1 if one was, 2 on bad input (missing file or folder, a file that does not parse, unreadable
// CSV, a --json path that cannot be written; an I/O error writing it is 3).
#pragma once

#include <string>
#include <vector>

namespace symsim::litmus {

int litmus_main(const std::vector<std::string>& paths, const std::string& expected_csv, int seeds,
                const std::string& json_out);

// Parses the arguments after `litmus` (PATH... --expected FILE [--seeds N] [--json OUT])
// and calls litmus_main; usage errors return 2.
int litmus_cli(const std::vector<std::string>& args);

}  // namespace symsim::litmus

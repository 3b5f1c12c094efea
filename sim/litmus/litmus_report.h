// Per-test records of a litmus exploration, the per-folder summary table and JSON output.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/litmus/litmus_runner.h"
#include "sim/litmus/litmus_test.h"
#include "sim/litmus/litmus_verdict.h"

namespace symsim::litmus {

struct TestRecord {
  std::string path;
  std::string folder;  // summary group: the file's folder relative to the PATH argument
  bool parsed = false;
  std::string parse_error;
  LitmusTest test;     // valid when parsed
  bool ran = false;    // parsed and no unsupported instruction
  std::optional<int> expected;
  Observation obs;
  Judgement judgement;
};

struct FolderSummary {
  std::string folder;
  int files = 0;
  int parsed = 0;
  int run = 0;
  int with_verdict = 0;
  int forbidden_total = 0;
  int forbidden_observed = 0;
  int allowed_total = 0;
  int allowed_reached = 0;
  int unsupported_tests = 0;
};

std::vector<FolderSummary> summarize(const std::vector<TestRecord>& records);  // folders, then "TOTAL"
void print_report(const std::vector<TestRecord>& records, int seeds, std::ostream& out);
nlohmann::json report_json(const std::vector<TestRecord>& records, int seeds);

}  // namespace symsim::litmus

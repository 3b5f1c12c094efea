// Runs every test that has a PTX 7.5 verdict with a bounded number of seeds: no outcome
// the formal model forbids may be observed. Also checks the command's exit codes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "sim/litmus/litmus_command.h"
#include "sim/litmus/litmus_runner.h"
#include "sim/litmus/litmus_test.h"
#include "sim/litmus/litmus_text.h"
#include "sim/litmus/litmus_verdict.h"

namespace symsim::litmus {
namespace {

// The suite is data kept outside the repository: $SYMSIM_LITMUS_DIR, else the configured folder.
std::string suite_dir() {
  const char* env = std::getenv("SYMSIM_LITMUS_DIR");
  return env && *env ? env : SYMSIM_LITMUS_CONFIGURED_DIR;
}
const std::string kDir = suite_dir();
const std::string kCsv = kDir + "/PTXv7_5-expected.csv";

// Without the suite a test is skipped (never failed) and says how to get it.
#define SKIP_WITHOUT_SUITE()                                                                    \
  if (!std::filesystem::exists(kCsv))                                                           \
  GTEST_SKIP() << "no PTX litmus suite in " << kDir << " (PTXv7_5-expected.csv missing). Get it " \
               << "(network) with " SYMSIM_SOURCE_DIR "/tools/get-litmus-suite.sh DIR && export "  \
               << "SYMSIM_LITMUS_DIR=DIR"
constexpr int kSuiteSeeds = 300;  // about a second in Release; well under a minute in Debug

TEST(LitmusSuite, NoForbiddenOutcomeInAnyTestWithAVerdict) {
  SKIP_WITHOUT_SUITE();
  std::ifstream csv(kCsv);
  ASSERT_TRUE(csv.good()) << "missing " << kCsv;
  int tests = 0, allowed = 0, reached = 0;
  std::vector<std::string> failures, unsupported;
  std::string line;
  while (std::getline(csv, line)) {
    line = trim(line);
    if (line.empty()) continue;
    const size_t comma = line.rfind(',');
    const std::string rel = line.substr(line.find("PTX/") + 4, comma - line.find("PTX/") - 4);
    const int expected = std::stoi(line.substr(comma + 1));
    ParseResult r = parse_litmus_file(kDir + "/" + rel);
    ASSERT_TRUE(r.ok) << rel << ": " << r.error;
    if (!r.test.unsupported.empty()) {
      unsupported.push_back(rel);
      continue;
    }
    RunOptions options;
    options.seeds = kSuiteSeeds;
    const Observation obs = run_litmus(r.test, options);
    const Judgement j = judge(r.test, obs, expected);
    ++tests;
    if (j.verdict == Verdict::ForbiddenObserved) failures.push_back(rel + ": " + obs.describe(j.witnesses[0]));
    if (j.outcome_allowed) ++allowed;
    if (j.verdict == Verdict::Reached) ++reached;
  }
  EXPECT_EQ(tests, 264);
  EXPECT_TRUE(unsupported.empty()) << unsupported.size() << " tests with unsupported instructions";
  EXPECT_TRUE(failures.empty()) << failures.size() << " forbidden outcomes observed, first: " << failures[0];
  std::cout << "allowed outcomes reached: " << reached << "/" << allowed << " with " << kSuiteSeeds << " seeds\n";
  EXPECT_GE(reached * 10, allowed * 8) << "weak behaviour exploration regressed (goal: 80%)";
}

TEST(LitmusCommand, MissingInputIsBadInput) {
  EXPECT_EQ(litmus_main({kDir + "/Barrier"}, "/nonexistent/expected.csv", 10, ""), 2);
  EXPECT_EQ(litmus_main({"/nonexistent/tests"}, kCsv, 10, ""), 2);
  EXPECT_EQ(litmus_cli({kDir + "/Barrier"}), 2);  // --expected is required
}

TEST(LitmusCommand, RunsAFolderAndWritesJson) {
  SKIP_WITHOUT_SUITE();
  const std::string json = testing::TempDir() + "litmus.json";
  EXPECT_EQ(litmus_cli({kDir + "/Barrier", "--expected", kCsv, "--seeds", "50", "--json", json}), 0);
  std::ifstream in(json);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\"forbidden_observed\": 0"), std::string::npos);
  std::remove(json.c_str());
}

}  // namespace
}  // namespace symsim::litmus

// Which runs start again on the huge heap: the PE count read from the arguments.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "sim/runner/huge_heap.h"

namespace {

int pes_of(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return symsim::run_pes(argv.data());
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST(HugeHeap, RunPesFromScenarioOrOverride) {
  const std::string big = write_file("huge_heap_big.json", R"({"symsim": 1, "pes": 64})");
  EXPECT_EQ(pes_of({"symsim-bench", "moe", big}), 64);
  EXPECT_EQ(pes_of({"symsim", "run", big, "--set", "pes=4"}), 4);  // the override wins
  EXPECT_EQ(pes_of({"symsim-bench", "setup", "256", "1024"}), 0);  // no scenario
  EXPECT_EQ(pes_of({"symsim", "run", ::testing::TempDir() + "absent.json"}), 0);
  EXPECT_EQ(pes_of({"symsim", "run", write_file("huge_heap_bad.json", "{\"pes\": ")}), 0);
  EXPECT_EQ(pes_of({"symsim", "run", write_file("huge_heap_array.json", "[1, 2]")}), 0);
}

// A FIFO (or a device) named as the scenario is not read: opening it would block before the
// loader reports "not a regular file" (robust.cli.scenario_fifo).
TEST(HugeHeap, ReadsOnlyARegularScenarioFile) {
  const std::string fifo = ::testing::TempDir() + "huge_heap_fifo.json";
  std::remove(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(pes_of({"symsim", "validate", fifo}), 0);
  std::remove(fifo.c_str());
  EXPECT_EQ(pes_of({"symsim", "validate", "/dev/zero.json"}), 0);
}

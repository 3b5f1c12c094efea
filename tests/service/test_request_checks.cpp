// The service's request bounds as pure functions: nesting depth (strings and escapes skipped),
// trace PE lists checked without expanding them, time limits, and reads confined to a root.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/service/confined_file.h"
#include "sim/service/request_line.h"
#include "sim/service/submit_request.h"

namespace fs = std::filesystem;
using namespace symsim::service;

TEST(RequestLine, NestingDepthSkipsStrings) {
  EXPECT_EQ(json_nesting_depth(R"({"a":[1,{"b":2}]})"), 3u);
  EXPECT_EQ(json_nesting_depth(R"({"a":"[[[[[[\"[[["})"), 1u);
  EXPECT_EQ(json_nesting_depth("]]]]"), 0u);
  EXPECT_THROW(decode_request_line(std::string(65, '[') + std::string(65, ']')), BadLine);
  EXPECT_NO_THROW(decode_request_line(std::string(64, '[') + std::string(64, ']')));
}

TEST(SubmitRequest, TracePesCheckedAgainstThePes) {
  EXPECT_NO_THROW(check_trace_pes("0,2-3", 4));
  EXPECT_NO_THROW(check_trace_pes("0-4095", 4096));
  for (const char* bad : {"0-2147483647", "99999999999", "4", "1-0", "0,0,1,2,3", "-1", "0,", "a", "1-2-3", " 1", ""})
    EXPECT_THROW(check_trace_pes(bad, 4), BadRequest) << bad;
}

TEST(SubmitRequest, TimeLimitsAreBoundedAndNeverLifted) {
  for (double t : {9.3e9, -1.0})
    EXPECT_THROW(parse_submit_request({{"op", "submit"}, {"scenario_path", "x"}, {"timeout_s", t}}), BadRequest);
  EXPECT_EQ(parse_submit_request({{"op", "submit"}, {"scenario_path", "x"}, {"timeout_s", 1e9}}).timeout_s, 1e9);
  EXPECT_EQ(effective_timeout_s(0, 5), 5);
  EXPECT_EQ(effective_timeout_s(1000, 5), 5);
  EXPECT_EQ(effective_timeout_s(2, 5), 2);
  EXPECT_EQ(effective_timeout_s(7, 0), 7);
}

class ConfinedRootTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/symsim-confined-XXXXXX";
    base = mkdtemp(tmpl);
    root = base / "root";
    fs::create_directories(root / "sub");
    std::ofstream(root / "sub" / "a.json") << "{}";
    std::ofstream(base / "outside.json") << "secret";
    fs::create_symlink("sub/a.json", root / "in.json");
    fs::create_symlink(base / "outside.json", root / "out.json");
    mkfifo((root / "fifo").c_str(), 0600);
  }
  void TearDown() override { fs::remove_all(base); }
  fs::path base, root;
};

TEST_F(ConfinedRootTest, ReadsOnlyRegularFilesBeneathTheRoot) {
  const ConfinedRoot r(root.string());
  EXPECT_EQ(r.read("sub/a.json", 100), "{}");
  EXPECT_EQ(r.read("in.json", 100), "{}");
  EXPECT_EQ(r.read((root / "sub" / "a.json").string(), 100), "{}");
  for (const std::string& bad : std::vector<std::string>{"out.json", "../outside.json", (base / "outside.json").string(), "/dev/zero", "fifo",
                                "sub", "missing", "", "sub/../../outside.json"})
    EXPECT_THROW(r.read(bad, 100), ConfinedFileError) << bad;
  EXPECT_THROW(r.read("sub/a.json", 1), ConfinedFileError);  // over the bound
  try {
    r.read("out.json", 100);
  } catch (const ConfinedFileError& e) {
    EXPECT_EQ(std::string(e.what()).find("secret"), std::string::npos);
    EXPECT_FALSE(e.resource);
  }
}

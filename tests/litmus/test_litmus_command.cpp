// `symsim litmus` exit codes (issue 15): a file that does not parse is bad input (exit 2,
// naming it), not a pass; a --json path that cannot be written is exit 2 naming it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/litmus/litmus_command.h"

namespace fs = std::filesystem;

namespace symsim::litmus {
namespace {

class LitmusCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("litmus_command_" + std::to_string(::getpid()));
    fs::create_directories(m_dir);
    std::ofstream(m_dir / "expected.csv") << "litmus/PTX/good.litmus,1\n";
    std::ofstream(m_dir / "good.litmus") << "PTX SB\n{\nx=0; y=0;\n}\n"
                                            " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                                            " st.weak x, 1   | st.weak y, 1   ;\n"
                                            " ld.weak r0, y  | ld.weak r0, x  ;\n"
                                            "exists (P0:r0 == 0 /\\ P1:r0 == 0)\n";
  }
  void TearDown() override { fs::remove_all(m_dir); }
  int run(const std::vector<std::string>& paths, const std::string& json = "") {
    testing::internal::CaptureStderr();
    testing::internal::CaptureStdout();
    const int code = litmus_main(paths, (m_dir / "expected.csv").string(), 2, json);
    m_stderr = testing::internal::GetCapturedStderr();
    testing::internal::GetCapturedStdout();
    return code;
  }
  fs::path m_dir;
  std::string m_stderr;
};

TEST_F(LitmusCommandTest, AGoodFilePasses) {
  EXPECT_EQ(run({(m_dir / "good.litmus").string()}), 0) << m_stderr;
}

TEST_F(LitmusCommandTest, AnUnparseableFileIsExit2NamingIt) {
  const std::string bad = (m_dir / "bad.litmus").string();
  std::ofstream(bad) << "this is not a litmus test {\n";
  EXPECT_EQ(run({(m_dir / "good.litmus").string(), bad}), 2);
  EXPECT_NE(m_stderr.find("cannot parse " + bad), std::string::npos) << m_stderr;
  // A folder holding one: the same.
  EXPECT_EQ(run({m_dir.string()}), 2);
  EXPECT_NE(m_stderr.find("bad.litmus"), std::string::npos) << m_stderr;
}

TEST_F(LitmusCommandTest, AnUnwritableJsonPathIsExit2NamingIt) {
  const std::string json = (m_dir / "no_such_folder" / "out.json").string();
  EXPECT_EQ(run({(m_dir / "good.litmus").string()}, json), 2);
  EXPECT_NE(m_stderr.find(json), std::string::npos) << m_stderr;
}

}  // namespace
}  // namespace symsim::litmus

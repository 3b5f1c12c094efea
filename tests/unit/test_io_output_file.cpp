// sim/io/output_file: every failure is an OutputError naming the path with the right kind, and
// no failure leaves a partial or temporary file behind.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "sim/io/output_file.h"

namespace fs = std::filesystem;
using symsim::io::OutputError;
using symsim::io::OutputErrorKind;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("symsim-io-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

size_t entries(const fs::path& d) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(d)) n += !e.path().empty();
  return n;
}

OutputError expect_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const OutputError& e) {
    return e;
  }
  ADD_FAILURE() << "no OutputError";
  return OutputError(OutputErrorKind::kIoError, "", "");
}

}  // namespace

TEST(OutputFile, WritesAllAndLeavesNoTemporary) {
  const fs::path d = fresh_dir("ok");
  symsim::io::write_file((d / "a.json").string(), "hello\n");
  EXPECT_EQ(slurp(d / "a.json"), "hello\n");
  symsim::io::write_file((d / "a.json").string(), [](std::ostream& os) { os << std::string(300000, 'x'); },
                         {/*fsync=*/true});
  EXPECT_EQ(slurp(d / "a.json"), std::string(300000, 'x'));
  EXPECT_EQ(entries(d), 1u);
}

TEST(OutputFile, MissingFolderIsABadPath) {
  const fs::path d = fresh_dir("missing");
  const std::string path = (d / "no" / "t.json").string();
  const OutputError e = expect_error([&] { symsim::io::write_file(path, "x"); });
  EXPECT_EQ(e.kind(), OutputErrorKind::kBadPath);
  EXPECT_EQ(e.exit_code(), 2);
  EXPECT_EQ(e.path(), path);
  EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  EXPECT_EQ(entries(d), 0u);
}

TEST(OutputFile, UnderAFileIsABadPath) {
  const fs::path d = fresh_dir("underfile");
  symsim::io::write_file((d / "f").string(), "x");
  const OutputError e = expect_error([&] { symsim::io::write_file((d / "f" / "t.json").string(), "x"); });
  EXPECT_EQ(e.kind(), OutputErrorKind::kBadPath);
  const OutputError e2 = expect_error([&] { symsim::io::create_output_dir((d / "f" / "sub").string()); });
  EXPECT_EQ(e2.kind(), OutputErrorKind::kBadPath);
  const OutputError e3 = expect_error([&] { symsim::io::create_output_dir((d / "f").string()); });
  EXPECT_EQ(e3.kind(), OutputErrorKind::kBadPath);
  EXPECT_EQ(entries(d), 1u);
}

TEST(OutputFile, AFolderIsABadPath) {
  const fs::path d = fresh_dir("folder");
  EXPECT_EQ(expect_error([&] { symsim::io::write_file(d.string(), "x"); }).kind(), OutputErrorKind::kBadPath);
  EXPECT_EQ(expect_error([&] { symsim::io::write_file(d.string() + "/", "x"); }).kind(),
            OutputErrorKind::kBadPath);
}

TEST(OutputFile, ProcIsABadPath) {
  EXPECT_EQ(expect_error([] { symsim::io::write_file("/proc/symsim-test.json", "x"); }).kind(),
            OutputErrorKind::kBadPath);
  EXPECT_EQ(expect_error([] { symsim::io::create_output_dir("/proc/symsim-test"); }).kind(),
            OutputErrorKind::kBadPath);
  EXPECT_EQ(expect_error([] { symsim::io::check_writable("/proc/symsim-test.json"); }).kind(),
            OutputErrorKind::kBadPath);
}

TEST(OutputFile, FullDeviceIsAnIoError) {
  const OutputError e = expect_error([] { symsim::io::write_file("/dev/full", "x"); });
  EXPECT_EQ(e.kind(), OutputErrorKind::kIoError);
  EXPECT_EQ(e.exit_code(), 3);
  EXPECT_NE(std::string(e.what()).find("/dev/full"), std::string::npos) << e.what();
  symsim::io::write_file("/dev/null", "written in place, not replaced");
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

// A file-size limit makes write() fail with EFBIG part-way: the same path as a full disk.
TEST(OutputFile, FailedWriteKeepsTheOldFileAndRemovesTheTemporary) {
  const fs::path d = fresh_dir("efbig");
  const std::string path = (d / "r.json").string();
  symsim::io::write_file(path, "old");
  std::signal(SIGXFSZ, SIG_IGN);
  rlimit old{};
  getrlimit(RLIMIT_FSIZE, &old);
  rlimit small = old;
  small.rlim_cur = 100000;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  const OutputError e = expect_error([&] { symsim::io::write_file(path, std::string(500000, 'y')); });
  setrlimit(RLIMIT_FSIZE, &old);
  EXPECT_EQ(e.kind(), OutputErrorKind::kIoError);
  EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  EXPECT_EQ(slurp(path), "old");
  EXPECT_EQ(entries(d), 1u);
}

TEST(OutputFile, AThrowingFillerLeavesNothing) {
  const fs::path d = fresh_dir("throw");
  EXPECT_THROW(symsim::io::write_file((d / "t.json").string(),
                                      [](std::ostream& os) {
                                        os << "partial";
                                        throw std::runtime_error("boom");
                                      }),
               std::runtime_error);
  EXPECT_EQ(entries(d), 0u);
}

TEST(OutputFile, ASymlinkIsWrittenThrough) {
  const fs::path d = fresh_dir("link");
  fs::create_directories(d / "real");
  fs::create_symlink(d / "real" / "t.json", d / "t.json");
  symsim::io::write_file((d / "t.json").string(), "through");
  EXPECT_TRUE(fs::is_symlink(d / "t.json"));
  EXPECT_EQ(slurp(d / "real" / "t.json"), "through");
}

TEST(OutputFile, CreateAndCheckAFolder) {
  const fs::path d = fresh_dir("mk");
  symsim::io::create_output_dir((d / "a" / "b").string());
  EXPECT_TRUE(fs::is_directory(d / "a" / "b"));
  symsim::io::check_writable((d / "a" / "b" / "r.json").string());
  EXPECT_EQ(entries(d / "a" / "b"), 0u);
  EXPECT_EQ(expect_error([&] { symsim::io::check_writable((d / "x" / "r.json").string()); }).kind(),
            OutputErrorKind::kBadPath);
}

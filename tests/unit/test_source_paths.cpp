// Call sites in one report are of one kind (runner/source_paths.h): relative to the source root
// when the file is inside it, whatever __FILE__ the build left; absolute otherwise.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "sim/runner/source_paths.h"

namespace {

namespace fs = std::filesystem;
using symsim::source_relative;
using symsim::source_relative_in_text;

class SourcePaths : public ::testing::Test {
 protected:
  void SetUp() override {
    root = (fs::temp_directory_path() / ("symsim_source_paths_" + std::to_string(::getpid()))).string();
    fs::create_directories(root + "/kernels/x");
    std::ofstream(root + "/kernels/x/k.cpp") << "// a kernel\n";
  }
  void TearDown() override { fs::remove_all(root); }
  std::string root;
};

TEST_F(SourcePaths, AbsoluteInsideTheRootBecomesRelative) {
  EXPECT_EQ(source_relative(root + "/kernels/x/k.cpp:12", root), "kernels/x/k.cpp:12");
}

TEST_F(SourcePaths, BuildFolderRelativeBecomesRootRelativeWhenTheFileIsThere) {
  EXPECT_EQ(source_relative("../../../kernels/x/k.cpp:12", root), "kernels/x/k.cpp:12");
  // Not a file of the source root: left as it is.
  EXPECT_EQ(source_relative("../../../kernels/x/missing.cpp:12", root), "../../../kernels/x/missing.cpp:12");
}

TEST_F(SourcePaths, OutsideTheRootStaysAbsolute) {
  EXPECT_EQ(source_relative("/home/me/app/kernel.cpp:7", root), "/home/me/app/kernel.cpp:7");
  // A sibling folder whose name starts like the root is outside it.
  EXPECT_EQ(source_relative(root + "-other/k.cpp:1", root), root + "-other/k.cpp:1");
  EXPECT_EQ(source_relative("kernels/x/k.cpp:3", root), "kernels/x/k.cpp:3");
}

TEST_F(SourcePaths, EveryPathInATextIsRewritten) {
  const std::string text = "waits in barrier at ../../kernels/x/k.cpp:35 (arrival 1); polled at " + root +
                           "/kernels/x/k.cpp:40, ratio 1/2";
  EXPECT_EQ(source_relative_in_text(text, root),
            "waits in barrier at kernels/x/k.cpp:35 (arrival 1); polled at kernels/x/k.cpp:40, ratio 1/2");
}

}  // namespace

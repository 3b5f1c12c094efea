// io::safe_path_component: whatever a scenario is named, its output folder is one harmless
// path component under the output root.
#include <gtest/gtest.h>

#include "sim/io/path_component.h"

using symsim::io::safe_path_component;

TEST(PathComponent, KeepsOrdinaryNames) {
  EXPECT_EQ(safe_path_component("udma_put-2pe.v1"), "udma_put-2pe.v1");
}

TEST(PathComponent, NeverLeavesTheFolder) {
  EXPECT_EQ(safe_path_component("../../etc"), "_.._etc");
  EXPECT_EQ(safe_path_component("/abs/x"), "_abs_x");
  EXPECT_EQ(safe_path_component(".."), "unnamed");
  EXPECT_EQ(safe_path_component("."), "unnamed");
  EXPECT_EQ(safe_path_component(""), "unnamed");
  EXPECT_EQ(safe_path_component(".hidden"), "hidden");
  EXPECT_EQ(safe_path_component("a\\b\nc\x01 d\xc3\xa9"), "a_b_c__d__");
}

TEST(PathComponent, BoundsTheLengthAndKeepsLongNamesApart) {
  const std::string a = safe_path_component(std::string(5000, 'n') + "a");
  const std::string b = safe_path_component(std::string(5000, 'n') + "b");
  EXPECT_EQ(a.size(), symsim::io::kMaxPathComponentBytes);
  EXPECT_NE(a, b);
}

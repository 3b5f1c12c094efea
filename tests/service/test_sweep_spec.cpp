// Sweep expansion: grid order, seeds, fixed sets, deterministic shards that cover every point
// exactly once, and the hash that tells shards of one sweep from another's.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "sim/scenario/input_error.h"
#include "sim/sweep/sweep_spec.h"

namespace fs = std::filesystem;
using namespace symsim::sweep;

namespace {

class SweepSpecTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("sweep_spec_" + std::to_string(::getpid()));
    fs::create_directories(m_dir);
    std::ofstream(m_dir / "a.json") << R"({"symsim":1,"name":"a"})";
    std::ofstream(m_dir / "b.json") << R"({"symsim":1,"name":"b"})";
  }
  void TearDown() override { fs::remove_all(m_dir); }
  std::string write(const std::string& text) {
    const fs::path p = m_dir / "sweep.json";
    std::ofstream(p) << text;
    return p.string();
  }
  fs::path m_dir;
};

}  // namespace

TEST_F(SweepSpecTest, ExpandsGridInFileOrderLastAxisFastest) {
  const SweepSpec s = load_sweep(write(R"({"symsim_sweep":1,"name":"t","scenarios":["a.json","b.json"],
      "grid":{"kernel.args.bytes":[512,1024],"platform.udma.cq_depth":[64,128,256]},"seeds":[1,2],
      "set":["kernel.args.rounds=2"]})"));
  ASSERT_EQ(s.points.size(), 2u * 2 * 3 * 2);
  EXPECT_EQ(s.grid_keys, (std::vector<std::string>{"kernel.args.bytes", "platform.udma.cq_depth", "seed"}));
  const Point& p0 = s.points[0];
  EXPECT_EQ(p0.scenario, "a.json");
  EXPECT_EQ(p0.sets, (std::vector<std::string>{"kernel.args.rounds=2", "kernel.args.bytes=512",
                                               "platform.udma.cq_depth=64"}));
  EXPECT_TRUE(p0.has_seed);
  EXPECT_EQ(p0.seed, 1u);
  EXPECT_EQ(s.points[1].seed, 2u);
  EXPECT_EQ(s.points[2].params["platform.udma.cq_depth"], 128);
  EXPECT_EQ(s.points[12].scenario, "b.json");
  for (size_t i = 0; i < s.points.size(); ++i) EXPECT_EQ(s.points[i].index, i);
}

TEST_F(SweepSpecTest, ShardsPartitionThePoints) {
  const SweepSpec s = load_sweep(write(R"({"symsim_sweep":1,"name":"t","scenarios":["a.json"],
      "grid":{"kernel.args.bytes":[1,2,3,4,5,6,7]}})"));
  std::set<size_t> seen;
  for (size_t i = 0; i < 3; ++i)
    for (const Point& p : shard_points(s, parse_shard(std::to_string(i) + "/3")))
      EXPECT_TRUE(seen.insert(p.index).second);
  EXPECT_EQ(seen.size(), 7u);
  EXPECT_EQ(shard_points(s, parse_shard("0/3")).size(), 3u);
  EXPECT_THROW(parse_shard("3/3"), symsim::InputError);
  EXPECT_THROW(parse_shard("1-3"), symsim::InputError);
  EXPECT_THROW(parse_shard("a/3"), symsim::InputError);
}

TEST_F(SweepSpecTest, HashFollowsTheExpansion) {
  const std::string a =
      load_sweep(write(R"({"symsim_sweep":1,"name":"t","scenarios":["a.json"],"grid":{"x":[1,2]}})")).hash;
  const std::string same =
      load_sweep(write(R"({"symsim_sweep":1,"name":"t","scenarios":["a.json"],"grid":{"x":[1,2]}})")).hash;
  const std::string other =
      load_sweep(write(R"({"symsim_sweep":1,"name":"t","scenarios":["a.json"],"grid":{"x":[1,3]}})")).hash;
  EXPECT_EQ(a, same);
  EXPECT_NE(a, other);
}

TEST_F(SweepSpecTest, RejectsBadFilesWithPointers) {
  auto pointer_of = [&](const std::string& text) {
    try {
      load_sweep(write(text));
    } catch (const symsim::InputError& e) {
      return e.pointer();
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(pointer_of(R"({"symsim_sweep":1,"name":"t","scenarios":["a.json"],"typo":1})"), "/typo");
  EXPECT_EQ(pointer_of(R"({"symsim_sweep":1,"name":"t","scenarios":[]})"), "/scenarios");
  EXPECT_EQ(pointer_of(R"({"symsim_sweep":1,"name":"t","scenarios":["missing.json"]})"), "/scenarios/0");
  EXPECT_EQ(pointer_of(R"({"symsim_sweep":1,"name":"t","scenarios":["a.json"],"grid":{"x":[]}})"), "/grid/x");
  EXPECT_EQ(pointer_of(R"({"symsim_sweep":1,"name":"t","scenarios":["a.json"],"seeds":[-1]})"), "/seeds/0");
  EXPECT_EQ(pointer_of(R"({"symsim_sweep":2,"name":"t","scenarios":["a.json"]})"), "/symsim_sweep");
  // Issue 15: a duplicate key is an error at its pointer, not "the last one wins".
  EXPECT_EQ(pointer_of(R"({"symsim_sweep":1,"name":"t","scenarios":["a.json"],"grid":{"x":[1],"x":[2]}})"),
            "/grid/x");
  EXPECT_EQ(pointer_of(R"({"symsim_sweep":1,"name":"t","name":"u","scenarios":["a.json"]})"), "/name");
}

// Issue 15: a grid over kMaxSweepPoints is refused before it is expanded (it would take the
// machine's memory, then hours of validation).
TEST_F(SweepSpecTest, RefusesGridsOverTheLimitBeforeExpanding) {
  std::string axis = "[";
  for (int i = 0; i < 1001; ++i) axis += (i ? "," : "") + std::to_string(i);
  axis += "]";
  try {
    load_sweep(write(R"({"symsim_sweep":1,"name":"t","scenarios":["a.json","b.json"],"grid":{"x":)" + axis +
                     R"(,"y":)" + axis + "}}"));
    FAIL() << "a grid of 2 x 1001 x 1001 points was accepted";
  } catch (const symsim::InputError& e) {
    EXPECT_EQ(e.pointer(), "/grid");
    EXPECT_NE(std::string(e.what()).find("1000000 points"), std::string::npos) << e.what();
  }
}

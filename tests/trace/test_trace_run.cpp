// A trace of a run with thousands of overlapping puts, read back as a viewer reads it: on every
// track, complete slices nest or are disjoint, never partly overlap.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

namespace {

using nlohmann::json;

// Picoseconds of a microseconds number: exact below 10^9 us, where a double has finer steps
// than 1 ps.
uint64_t ps_of(const json& us) { return static_cast<uint64_t>(std::llround(us.get<double>() * 1e6)); }

json run_and_read(const std::string& scenario, const std::string& extra) {
  const std::string out = std::string(TRACE_OUT) + "/" + scenario;
  const std::string cmd = std::string(SYMSIM_BIN) + " run " + SYMSIM_SCENARIOS + "/udma/" + scenario +
                          ".json --out " + out + " --trace " + out + "/trace.json " + extra + " > " + out +
                          ".log 2>&1";
  std::system(("mkdir -p " + out).c_str());
  const int rc = std::system(cmd.c_str());
  EXPECT_EQ(rc, 0) << cmd;
  std::ifstream in(out + "/trace.json");
  return json::parse(in);
}

struct Slice {
  uint64_t begin, end;
  size_t index;
};

// Partial overlaps per track, given the slices in file order (the order a viewer reads them).
size_t partial_overlaps(const json& doc, std::string& first) {
  std::map<std::pair<int64_t, int64_t>, std::vector<Slice>> tracks;
  size_t index = 0;
  for (const json& e : doc["traceEvents"]) {
    ++index;
    if (e["ph"] != "X") continue;
    const uint64_t begin = ps_of(e["ts"]);
    tracks[{e["pid"], e["tid"]}].push_back({begin, begin + ps_of(e["dur"]), index});
  }
  size_t bad = 0;
  for (const auto& [track, slices] : tracks) {
    std::vector<uint64_t> open;  // ends of the enclosing slices, innermost last
    uint64_t last_begin = 0;
    for (const Slice& s : slices) {
      EXPECT_GE(s.begin, last_begin) << "slices out of time order on pid " << track.first;
      last_begin = s.begin;
      while (!open.empty() && open.back() <= s.begin) open.pop_back();
      if (!open.empty() && open.back() < s.end) {
        if (!bad++)
          first = "pid " + std::to_string(track.first) + " tid " + std::to_string(track.second) +
                  " event #" + std::to_string(s.index);
        continue;
      }
      open.push_back(s.end);
    }
  }
  return bad;
}

TEST(TraceRun, ThousandsOfOverlappingPutsNestOnEveryTrack) {
  // 2 rounds of 2048 deferred puts per PE: 2048 WQEs in flight on one SQ, four times the 512
  // lanes a QP track once had (past them, WQEs used to share a lane and partly overlap).
  const json doc = run_and_read("udma_batch_put", "--set kernel.args.ops=2048 --set kernel.args.rounds=2 "
                                                  "--set kernel.args.bytes=16384");
  size_t wqes = 0;
  for (const json& e : doc["traceEvents"]) wqes += e["ph"] == "X" && e["cat"] == "wqe" && e["name"] == "WRITE";
  EXPECT_EQ(wqes, 8192u);
  std::string first;
  EXPECT_EQ(partial_overlaps(doc, first), 0u) << "first at " << first;
  EXPECT_FALSE(doc["otherData"].contains("lane_overflows"));
  EXPECT_EQ(doc["otherData"]["truncated"], false);

  // Counter tracks: never below zero, back to zero once every WQE was fetched, every CQE reaped
  // and every message off its link; the SQ held a whole batch at once.
  std::map<std::pair<int, std::string>, int64_t> last, most;
  double last_ts = -1;
  for (const json& e : doc["traceEvents"]) {
    if (e["ph"] != "C") continue;
    EXPECT_GE(e["ts"].get<double>(), last_ts);
    last_ts = e["ts"].get<double>();
    const int64_t v = e["args"].begin()->get<int64_t>();
    EXPECT_GE(v, 0) << e.dump();
    const std::pair<int, std::string> key{e["pid"], e["name"]};
    last[key] = v;
    most[key] = std::max(most[key], v);
  }
  for (const auto& [key, v] : last) EXPECT_EQ(v, 0) << key.second;
  EXPECT_EQ(most.at({0, "qp 1.0 sq"}), 2048);
}

// Every flow starts once and ends once, and each flow event follows the slice it binds to: a
// complete slice on its thread that starts at its time (viewers bind to the slice open there).
TEST(TraceRun, EachWqeFlowRunsFromPostToReapThroughSlices) {
  const json doc = run_and_read("udma_put_2pe", "");
  std::map<uint64_t, std::string> phases;  // flow id -> its phase letters in file order
  const json* slice = nullptr;
  for (const json& e : doc["traceEvents"]) {
    const std::string ph = e["ph"];
    if (ph == "s" || ph == "t" || ph == "f") {
      ASSERT_NE(slice, nullptr);
      EXPECT_EQ((*slice)["ph"], "X");
      EXPECT_EQ((*slice)["pid"], e["pid"]);
      EXPECT_EQ((*slice)["tid"], e["tid"]);
      EXPECT_EQ((*slice)["ts"], e["ts"]);
      phases[e["id"].get<uint64_t>()] += ph;
      continue;
    }
    slice = &e;
  }
  ASSERT_FALSE(phases.empty());
  for (const auto& [id, letters] : phases) {
    // Posted on a core, the WQE, fetched by the engine, landed at the target, CQE reaped on the
    // CQ, reaped by a core; a WQE whose CQE was not asked for ends at the target.
    EXPECT_TRUE(letters == "sttttf" || letters == "sttf") << "flow " << id << ": " << letters;
  }
}

}  // namespace

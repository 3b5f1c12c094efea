// TraceWriter and StatsCollector fed synthetic hook calls: no simulation needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <set>
#include <sstream>

#include "models/ascend/wqe_layout.h"
#include "models/fabric/fabric.h"
#include "models/nvidia/mlx5_layout.h"
#include "sim/stats/stats_collector.h"
#include "sim/trace/trace_writer.h"

namespace symsim {
namespace {

using nlohmann::json;

std::string text_of(const TraceWriter& w) {
  std::ostringstream os;
  w.write(os);
  return os.str();
}

// The parsed trace, with helpers to find events and name their threads.
struct Trace {
  json doc;
  std::map<std::pair<int, int>, std::string> thread;  // (pid, tid) -> thread_name
  std::map<int, std::string> process;

  explicit Trace(const TraceWriter& w) : doc(json::parse(text_of(w))) {
    for (const json& e : doc["traceEvents"]) {
      if (e["ph"] != "M") continue;
      if (e["name"] == "thread_name") thread[{e["pid"], e["tid"]}] = e["args"]["name"];
      if (e["name"] == "process_name") process[e["pid"]] = e["args"]["name"];
    }
  }
  std::vector<json> named(const std::string& name) const {
    std::vector<json> out;
    for (const json& e : doc["traceEvents"])
      if (e["ph"] != "M" && e["name"] == name) out.push_back(e);
    return out;
  }
  size_t data_events() const {
    return std::count_if(doc["traceEvents"].begin(), doc["traceEvents"].end(),
                         [](const json& e) { return e["ph"] != "M"; });
  }
  std::string thread_of(const json& e) const { return thread.at({e["pid"], e["tid"]}); }
};

WqeRecord wqe(QpRef q, uint32_t index, Ps doorbell_ps, Ps fetch_ps, Ps wire_ps, Ps remote_ps, Ps complete_ps,
              Ps cqe_ps, uint32_t cqe_index = 0) {
  WqeRecord r;
  r.qp = q;
  r.wqe_index = index;
  r.opcode = udma::kWrite;
  r.bytes = 4096;
  r.target_pe = q.slot;
  r.doorbell_ps = doorbell_ps;
  r.fetch_ps = fetch_ps;
  r.wire_ps = wire_ps;
  r.remote_write_ps = remote_ps;
  r.complete_ps = complete_ps;
  r.cqe_ps = cqe_ps;
  r.cqe_index = cqe_index;
  return r;
}

// A WQE whose whole lifetime is [start, start + 10 ns], on `q`.
WqeRecord wqe_at(QpRef q, uint32_t index, Ps start) {
  return wqe(q, index, start, start + 1000, start + 2000, start + 5000, start + 8000, start + 10000, index);
}

TEST(TraceFormat, PicosecondsPrintAsExactMicroseconds) {
  EXPECT_EQ(ps_to_us_string(0), "0");
  EXPECT_EQ(ps_to_us_string(1), "0.000001");
  EXPECT_EQ(ps_to_us_string(1234567), "1.234567");
  EXPECT_EQ(ps_to_us_string(1500000), "1.5");
  EXPECT_EQ(ps_to_us_string(2000000), "2");
  EXPECT_EQ(ps_to_us_string(1000010), "1.00001");
  EXPECT_EQ(ps_to_us_string(UINT64_MAX), "18446744073709.551615");
}

TEST(TraceWriter, WqeLifetimeSplitsIntoPhasesOnItsSqTrack) {
  TraceWriter w(TraceFilter{}, nullptr);
  const QpRef q{0, 1, 0};
  w.on_wqe_posted(q, 7, udma::kWrite, 3, 1000);
  w.on_wqe_executed(wqe(q, 7, 2000, 5000, 6000, 10000, 12000, 13000, 4));
  w.on_cqe_reaped(q, 4, nullptr, 3, 20000);
  const Trace t(w);

  const auto whole = t.named("WRITE");
  ASSERT_EQ(whole.size(), 1u);
  EXPECT_EQ(whole[0]["ph"], "X");
  EXPECT_EQ(t.thread_of(whole[0]), "qp 1.0 sq");
  EXPECT_EQ(t.process.at(0), "pe 0");
  EXPECT_EQ(whole[0]["args"],
            json::parse(R"({"wqe":7,"opcode":"WRITE","bytes":4096,"target_pe":1,"status":0,"cqe":4})"));

  const std::vector<std::tuple<std::string, Ps, Ps>> phases = {
      {"post", 1000, 1000}, {"doorbell", 2000, 3000}, {"fetch", 5000, 1000},
      {"wire", 6000, 4000}, {"ack", 10000, 2000},     {"cqe", 12000, 1000}};
  for (const auto& [name, ts_ps, dur_ps] : phases) {
    const auto e = t.named(name);
    ASSERT_EQ(e.size(), 1u) << name;
    EXPECT_EQ(e[0]["ph"], "X");
    EXPECT_EQ(e[0]["tid"], whole[0]["tid"]) << name;
    EXPECT_DOUBLE_EQ(e[0]["ts"].get<double>(), ts_ps / 1e6) << name;
    EXPECT_DOUBLE_EQ(e[0]["dur"].get<double>(), dur_ps / 1e6) << name;
    EXPECT_EQ(e[0]["args"]["wqe"], 7);
  }
  const auto reaped = t.named("reaped");
  ASSERT_EQ(reaped.size(), 1u);
  EXPECT_EQ(t.thread_of(reaped[0]), "qp 1.0 cq");
  EXPECT_DOUBLE_EQ(reaped[0]["ts"].get<double>(), 0.013);
  EXPECT_DOUBLE_EQ(reaped[0]["dur"].get<double>(), 0.007);
  EXPECT_EQ(reaped[0]["args"]["core"], 3);
  // Timestamps are written as exact decimals, not through floating point.
  EXPECT_NE(text_of(w).find(R"("name":"wire","cat":"wqe","pid":0,"tid":165536,"ts":0.006,"dur":0.004)"),
            std::string::npos);
}

// One flow per WQE through the slices of each step that has a track of its own.
TEST(TraceWriter, WqeFlowJoinsPostFetchLandingAndReap) {
  TraceWriter w(TraceFilter{}, nullptr);
  const QpRef q{0, 1, 0};
  w.on_wqe_posted(q, 7, udma::kWrite, 3, 1000);
  w.on_wqe_executed(wqe(q, 7, 2000, 5000, 6000, 10000, 12000, 13000, 4));
  w.on_cqe_reaped(q, 4, nullptr, 2, 20000);
  const Trace t(w);
  std::vector<std::tuple<std::string, std::string, double>> flow;  // phase, thread, ts
  for (const json& e : t.doc["traceEvents"]) {
    if (e["ph"] != "s" && e["ph"] != "t" && e["ph"] != "f") continue;
    EXPECT_EQ(e["id"], 1);
    flow.emplace_back(e["ph"], t.thread_of(e), e["ts"].get<double>());
  }
  const std::vector<std::tuple<std::string, std::string, double>> want = {
      {"s", "aiv 3", 0.001},       {"t", "qp 1.0 sq", 0.001}, {"t", "udma engine", 0.005},
      {"t", "landed", 0.01},       {"t", "qp 1.0 cq", 0.013}, {"f", "aiv 2", 0.02}};
  EXPECT_EQ(flow, want);
  ASSERT_EQ(t.named("wqe landed").size(), 1u);
  EXPECT_EQ(t.named("wqe landed")[0]["pid"], 1);  // at the target PE
  EXPECT_EQ(t.named("wqe landed")[0]["dur"], 0);
}

// SQ occupancy counts a WQE from post to fetch, CQ occupancy a CQE from visible to reaped, a
// link its messages on the wire; one sample per track and time, after all its steps there.
TEST(TraceWriter, CounterTracksForQueuesAndLinks) {
  TraceWriter w(TraceFilter{}, nullptr);
  const QpRef q{0, 1, 0};
  w.on_wqe_posted(q, 0, udma::kWrite, 0, 1000);
  w.on_wqe_posted(q, 1, udma::kWrite, 0, 1000);
  w.on_wqe_executed(wqe(q, 0, 2000, 3000, 4000, 6000, 7000, 8000, 0));
  w.on_wqe_executed(wqe(q, 1, 2000, 5000, 6000, 8000, 9000, 9500, 1));
  w.on_cqe_reaped(q, 0, nullptr, 0, 9500);
  w.on_cqe_reaped(q, 1, nullptr, 0, 12000);
  w.on_link_busy(3, 4000, 5000, 64);
  const Trace t(w);
  std::map<std::string, std::vector<std::pair<double, int>>> tracks;
  for (const json& e : t.doc["traceEvents"])
    if (e["ph"] == "C") tracks[e["name"]].push_back({e["ts"].get<double>(), e["args"].begin()->get<int>()});
  using Steps = std::vector<std::pair<double, int>>;
  EXPECT_EQ(tracks["qp 1.0 sq"], (Steps{{0.001, 2}, {0.003, 1}, {0.005, 0}}));
  EXPECT_EQ(tracks["qp 1.0 cq"], (Steps{{0.008, 1}, {0.0095, 1}, {0.012, 0}}));
  EXPECT_EQ(tracks["link 3"], (Steps{{0.004, 1}, {0.005, 0}}));
  // Both WQEs' data in flight to PE 1 from the wire (4 and 6 ns) until landed (6 and 8 ns).
  EXPECT_EQ(tracks["writes landing"], (Steps{{0.004, 1}, {0.006, 1}, {0.008, 0}}));
  EXPECT_EQ(t.named("writes landing")[0]["pid"], 1);
  EXPECT_EQ(t.named("qp 1.0 sq")[0]["args"], json::parse(R"({"wqes":2})"));
  EXPECT_EQ(t.named("link 3")[0]["pid"], 100000);
}

TEST(TraceWriter, NvidiaWqesAreNamedByTheirMlx5Opcode) {
  // 0x08 is RDMA WRITE in an mlx5 WQE and ATOMIC_SWAP in a UDMA one.
  static_assert(nv::mlx5::kOpRdmaWrite == udma::kAtomicSwap, "the clash this test is about");
  TraceWriter w(TraceFilter{}, nullptr, OpcodeSet::kMlx5);
  WqeRecord write = wqe_at({0, 1, 0}, 0, 1000);
  write.opcode = nv::mlx5::kOpRdmaWrite;
  WqeRecord add = wqe_at({0, 1, 0}, 1, 100000);
  add.opcode = nv::mlx5::kOpAtomicFa;
  w.on_wqe_executed(write);
  w.on_wqe_executed(add);
  const Trace t(w);
  ASSERT_EQ(t.named("RDMA_WRITE").size(), 1u);
  EXPECT_EQ(t.named("RDMA_WRITE")[0]["args"]["opcode"], "RDMA_WRITE");
  ASSERT_EQ(t.named("ATOMIC_FA").size(), 1u);
  EXPECT_TRUE(t.named("ATOMIC_SWAP").empty());
}

TEST(TraceWriter, ErrorWqeHasNoWireOrAckPhase) {
  TraceWriter w(TraceFilter{}, nullptr);
  WqeRecord r = wqe({0, 1, 0}, 0, 1000, 2000, 0, 0, 2000, 3000);
  r.status = udma::cqe_status::kRemoteAccess;
  r.substatus = udma::cqe_substatus::kBadRemoteAddr;
  w.on_wqe_executed(r);
  const Trace t(w);
  EXPECT_TRUE(t.named("wire").empty());
  EXPECT_TRUE(t.named("ack").empty());
  ASSERT_EQ(t.named("cqe").size(), 1u);
  EXPECT_EQ(t.named("WRITE")[0]["args"]["substatus"], udma::cqe_substatus::kBadRemoteAddr);
}

TEST(TraceWriter, OverlappingWqesTakeSeparateLanes) {
  TraceWriter w(TraceFilter{}, nullptr);
  const QpRef q{0, 1, 0};
  w.on_wqe_executed(wqe_at(q, 0, 0));
  w.on_wqe_executed(wqe_at(q, 1, 5000));   // overlaps the first
  w.on_wqe_executed(wqe_at(q, 2, 20000));  // after both: back on lane 0
  const Trace t(w);
  const auto whole = t.named("WRITE");
  ASSERT_EQ(whole.size(), 3u);
  EXPECT_EQ(t.thread_of(whole[0]), "qp 1.0 sq");
  EXPECT_EQ(t.thread_of(whole[1]), "qp 1.0 sq #1");
  EXPECT_EQ(t.thread_of(whole[2]), "qp 1.0 sq");
}

// Past the 512 lanes numbered per queue, a WQE still gets a lane of its own, never a shared one.
TEST(TraceWriter, ThousandsOfOverlappingWqesEachGetALane) {
  TraceWriter w(TraceFilter{}, nullptr);
  const QpRef q{0, 1, 0};
  constexpr uint32_t kWqes = 1500;
  for (uint32_t i = 0; i < kWqes; ++i) w.on_wqe_executed(wqe_at(q, i, i));  // all overlap
  const Trace t(w);
  const auto whole = t.named("WRITE");
  ASSERT_EQ(whole.size(), kWqes);
  std::set<std::pair<int, int>> tracks;
  for (const json& e : whole) tracks.insert({e["pid"].get<int>(), e["tid"].get<int>()});
  EXPECT_EQ(tracks.size(), kWqes);
  EXPECT_EQ(t.thread_of(whole[600]), "qp 1.0 sq #600");
  EXPECT_FALSE(t.doc["otherData"].contains("lane_overflows"));
}

// Slices of one core that partly overlap go to a second lane; one that nests stays.
TEST(TraceWriter, PartlyOverlappingCoreSpansGoToAnotherLane) {
  TraceWriter w(TraceFilter{}, nullptr);
  w.on_core_span(0, 2, "kernel", 1000, 9000);
  w.on_core_span(0, 2, "simt vf", 2000, 3000);  // nests in "kernel"
  w.on_core_span(0, 2, "late", 8000, 12000);    // partly overlaps "kernel"
  const Trace t(w);
  EXPECT_EQ(t.thread_of(t.named("kernel")[0]), "aiv 2");
  EXPECT_EQ(t.thread_of(t.named("simt vf")[0]), "aiv 2");
  EXPECT_EQ(t.thread_of(t.named("late")[0]), "aiv 2 #1");
}

TEST(TraceWriter, DoorbellsAreThreadInstantsAndHazardsGlobal) {
  TraceWriter w(TraceFilter{}, nullptr);
  w.on_sq_doorbell({1, 0, 2}, 8, 3000);
  w.on_cq_doorbell({1, 0, 2}, 4, 4000);
  w.hazard(1, "cq_overflow", 5000, "CQ of PE 1 QP 0.2 \"full\"");
  const Trace t(w);
  const auto sq = t.named("sq doorbell");
  ASSERT_EQ(sq.size(), 1u);
  EXPECT_EQ(sq[0]["ph"], "i");
  EXPECT_EQ(sq[0]["s"], "t");
  EXPECT_EQ(sq[0]["args"]["pi"], 8);
  EXPECT_EQ(t.thread_of(sq[0]), "qp 0.2 sq");
  EXPECT_EQ(t.thread_of(t.named("cq doorbell")[0]), "qp 0.2 cq");
  const auto h = t.named("cq_overflow");
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0]["s"], "g");
  EXPECT_EQ(h[0]["pid"], 1);
  EXPECT_EQ(h[0]["args"]["detail"], "CQ of PE 1 QP 0.2 \"full\"");
}

TEST(TraceWriter, FiltersByPeQpAndWindow) {
  TraceFilter f;
  f.pes = {1};
  f.qps = {0};
  f.window_begin_ps = 10000;
  f.window_end_ps = 20000;
  TraceWriter w(f, nullptr);
  w.on_sq_doorbell({0, 1, 0}, 1, 15000);          // PE filtered out
  w.on_sq_doorbell({1, 0, 1}, 1, 15000);          // QP filtered out
  w.on_sq_doorbell({1, 0, 0}, 1, 5000);           // before the window
  w.on_sq_doorbell({1, 0, 0}, 1, 25000);          // after the window
  w.on_sq_doorbell({1, 0, 0}, 2, 15000);          // kept
  w.on_wqe_executed(wqe_at({1, 0, 0}, 0, 5000));  // overlaps the window: kept whole
  w.on_engine_busy(0, 12000, 13000);              // PE filtered out
  w.on_engine_busy(1, 12000, 13000);              // kept
  const Trace t(w);
  const auto db = t.named("sq doorbell");
  ASSERT_EQ(db.size(), 1u);
  EXPECT_EQ(db[0]["args"]["pi"], 2);
  ASSERT_EQ(t.named("WRITE").size(), 1u);
  EXPECT_DOUBLE_EQ(t.named("WRITE")[0]["ts"].get<double>(), 0.005);
  ASSERT_EQ(t.named("busy").size(), 1u);
  EXPECT_EQ(t.named("busy")[0]["pid"], 1);
  EXPECT_EQ(t.process.count(0), 0u);
  EXPECT_EQ(t.doc["otherData"]["filter"]["pes"], json::parse("[1]"));
}

TEST(TraceWriter, StopsAtMaxEventsAndSaysSo) {
  TraceFilter f;
  f.max_events = 3;
  TraceWriter w(f, nullptr);
  for (uint32_t i = 0; i < 5; ++i) w.on_sq_doorbell({0, 1, 0}, i, 1000 * (i + 1));
  EXPECT_TRUE(w.truncated());
  EXPECT_EQ(w.event_count(), 3u);
  const Trace t(w);
  EXPECT_EQ(t.data_events(), 3u);
  EXPECT_EQ(t.doc["otherData"]["truncated"], true);
  EXPECT_EQ(t.doc["otherData"]["dropped_events"], 2);
  EXPECT_DOUBLE_EQ(t.doc["otherData"]["truncated_at_us"].get<double>(), 0.004);
}

TEST(TraceWriter, EngineBusyMergesBackToBackSpans) {
  TraceWriter w(TraceFilter{}, nullptr);
  w.on_engine_busy(0, 1000, 2000);
  w.on_engine_busy(0, 2000, 3000);
  w.on_engine_busy(0, 5000, 6000);
  const Trace t(w);
  const auto busy = t.named("busy");
  ASSERT_EQ(busy.size(), 2u);
  EXPECT_EQ(t.thread_of(busy[0]), "udma engine");
  EXPECT_DOUBLE_EQ(busy[0]["dur"].get<double>(), 0.002);
  EXPECT_EQ(busy[0]["args"]["wqes"], 2);
}

TEST(TraceWriter, LinkAndCoreTracksAreNamed) {
  Fabric fabric(2, FabricParams{});
  TraceWriter w(TraceFilter{}, &fabric);
  w.on_link_busy(0, 1000, 3000, 512);
  std::string what = "poll_cq";
  w.on_core_span(0, 2, what.c_str(), 1000, 4000);
  what = "changed";  // the writer keeps its own copy of the name
  const Trace t(w);
  const auto link = t.named("busy");
  ASSERT_EQ(link.size(), 1u);
  EXPECT_EQ(t.process.at(link[0]["pid"]), "fabric");
  EXPECT_EQ(t.thread_of(link[0]), fabric.links()[0]->name());
  EXPECT_EQ(link[0]["args"]["bytes"], 512);
  const auto span = t.named("poll_cq");
  ASSERT_EQ(span.size(), 1u);
  EXPECT_EQ(t.thread_of(span[0]), "aiv 2");
}

// Links of another network (NVLink) keep the names the runner gives them, track and counter.
TEST(TraceWriter, LinksOutsideTheFabricTakeTheirGivenNames) {
  Fabric fabric(2, FabricParams{});
  TraceWriter w(TraceFilter{}, &fabric);
  w.name_link(100003, "nvswitch0->gpu1");
  w.on_link_busy(100003, 1000, 3000, 64);
  w.on_link_busy(100004, 1000, 3000, 64);  // not named: "link N" as before
  const Trace t(w);
  const auto busy = t.named("busy");
  ASSERT_EQ(busy.size(), 2u);
  std::set<std::string> tracks{t.thread_of(busy[0]), t.thread_of(busy[1])};
  EXPECT_EQ(tracks, (std::set<std::string>{"nvswitch0->gpu1", "link 100004"}));
  EXPECT_EQ(t.named("nvswitch0->gpu1").size(), 2u);  // its counter steps: 1, then 0
}

// The same hook calls in the same order give the same bytes, sorted by time.
TEST(TraceWriter, OutputIsDeterministicAndTimeOrdered) {
  const auto feed = [](TraceWriter& w) {
    for (uint32_t i = 0; i < 50; ++i) {
      const QpRef q{static_cast<int>(i % 2), static_cast<int>((i + 1) % 2), 0};
      const Ps t = 300000 - 4000 * i;  // arrive out of time order
      w.on_wqe_posted(q, i, udma::kWrite, 0, t);
      w.on_sq_doorbell(q, i + 1, t + 500);
      w.on_wqe_executed(wqe_at(q, i, t + 500));
      w.on_engine_busy(q.pe, t + 1500, t + 2500);
      w.on_cqe_reaped(q, i, nullptr, 0, t + 30000);
    }
    w.hazard(-1, "deadlock", 1000, "all wait");
  };
  TraceWriter a(TraceFilter{}, nullptr), b(TraceFilter{}, nullptr);
  feed(a);
  feed(b);
  const std::string text = text_of(a);
  EXPECT_EQ(text, text_of(b));
  EXPECT_EQ(text, text_of(a));  // write() does not consume the buffer
  double last = -1;
  const json doc = json::parse(text);
  for (const json& e : doc["traceEvents"]) {
    if (e["ph"] == "M") continue;
    EXPECT_GE(e["ts"].get<double>(), last);
    last = e["ts"].get<double>();
  }
}

TEST(Stats, NearestRankPercentile) {
  std::vector<uint32_t> v(100);
  std::iota(v.begin(), v.end(), 1u);
  std::shuffle(v.begin(), v.end(), std::mt19937(7));
  EXPECT_EQ(nearest_rank_percentile(v, 50), 50u);
  EXPECT_EQ(nearest_rank_percentile(v, 90), 90u);
  EXPECT_EQ(nearest_rank_percentile(v, 99), 99u);
  EXPECT_EQ(nearest_rank_percentile(v, 100), 100u);
  std::vector<uint32_t> ten = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  EXPECT_EQ(nearest_rank_percentile(ten, 50), 5u);
  EXPECT_EQ(nearest_rank_percentile(ten, 90), 9u);
  EXPECT_EQ(nearest_rank_percentile(ten, 99), 10u);
  std::vector<uint32_t> one = {42}, none;
  EXPECT_EQ(nearest_rank_percentile(one, 50), 42u);
  EXPECT_EQ(nearest_rank_percentile(none, 50), 0u);
}

// A QP's latencies spanning fewer ns than there are of them are counted by value, others partly
// sorted: both read the same nearest-rank values as nearest_rank_percentile.
TEST(Stats, LatencyPercentilesAsNearestRankForDenseAndSparseValues) {
  std::mt19937 rng(11);
  for (const uint32_t span_ns : {1u, 7u, 40u, 999u, 5000u, 100000u}) {
    for (const uint32_t n : {1u, 2u, 3u, 10u, 99u, 100u, 101u, 1000u}) {
      StatsCollector s;
      const QpRef q{0, 1, 0};
      std::vector<uint32_t> want;
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t ns = 500 + static_cast<uint32_t>(rng() % span_ns);
        want.push_back(ns);
        s.on_wqe_executed(wqe(q, i, 1000, 2000, 3000, 5000, 8000, 1000 + Ps{ns} * 1000, i));
      }
      const json lat = s.to_json(1, Fabric(2, FabricParams{}), {0, 0})["pes"][0]["qps"][0]["latency_ns"];
      SCOPED_TRACE(testing::Message() << "span " << span_ns << " ns, " << n << " values");
      EXPECT_EQ(lat["count"], n);
      EXPECT_EQ(lat["max"], *std::max_element(want.begin(), want.end()));
      EXPECT_EQ(lat["p50"], nearest_rank_percentile(want, 50));
      EXPECT_EQ(lat["p90"], nearest_rank_percentile(want, 90));
      EXPECT_EQ(lat["p99"], nearest_rank_percentile(want, 99));
    }
  }
}

TEST(Stats, CountsPerPeQpAndLink) {
  Fabric fabric(2, FabricParams{});
  fabric.send(0, 1, 4096, 0);
  StatsCollector s;
  const QpRef q{0, 1, 0};
  s.on_sq_doorbell(q, 1, 1000);
  s.on_sq_doorbell(q, 2, 2000);
  for (uint32_t i = 0; i < 4; ++i)  // latencies doorbell -> CQE: 10, 20, 30, 40 ns
    s.on_wqe_executed(wqe(q, i, 1000, 2000, 3000, 5000, 8000, 1000 + 10000 * (i + 1), i));
  WqeRecord bad = wqe(q, 4, 1000, 2000, 0, 0, 2000, 0);  // error, no CQE
  bad.status = udma::cqe_status::kLocalError;
  s.on_wqe_executed(bad);
  s.on_wqe_executed(wqe({1, 0, 3}, 0, 0, 100, 200, 300, 700, 0));  // no CQE: doorbell -> complete
  s.on_cqe_reaped(q, 0, nullptr, 0, 50000);
  s.on_cq_doorbell(q, 1, 51000);

  EXPECT_EQ(s.total_wqes(), 6u);
  EXPECT_EQ(s.total_cqes(), 4u);
  EXPECT_EQ(s.total_bytes(), 5u * 4096);

  const json j = s.to_json(100000, fabric, {4 * 500, 0});  // PE 0's engine busy 4 x 0.5 ns
  ASSERT_EQ(j["pes"].size(), 2u);
  const json& pe0 = j["pes"][0];
  EXPECT_EQ(pe0["pe"], 0);
  EXPECT_EQ(pe0["engine"]["wqes"], 5);
  EXPECT_EQ(pe0["engine"]["doorbells"], 2);
  EXPECT_EQ(pe0["engine"]["errors"], 1);
  EXPECT_EQ(pe0["engine"]["busy_ns"], 2.0);
  EXPECT_EQ(pe0["engine"]["utilization"], 0.02);
  ASSERT_EQ(pe0["qps"].size(), 1u);
  const json& qp = pe0["qps"][0];
  EXPECT_EQ(qp["slot"], 1);
  EXPECT_EQ(qp["cqes"], 4);
  EXPECT_EQ(qp["cqes_reaped"], 1);
  EXPECT_EQ(qp["cq_doorbells"], 1);
  EXPECT_EQ(qp["latency_ns"], json::parse(R"({"count":4,"p50":20,"p90":40,"p99":40,"max":40})"));
  EXPECT_EQ(j["pes"][1]["qps"][0]["qp"], 3);
  EXPECT_EQ(j["pes"][1]["qps"][0]["latency_ns"]["max"], 1);  // 0.7 ns rounds to 1

  // Only the two links the 0 -> 1 message crossed, in link-id order.
  ASSERT_EQ(j["links"].size(), 2u);
  EXPECT_EQ(j["links"][0]["name"], fabric.links()[0]->name());
  EXPECT_EQ(j["links"][1]["name"], "l1.0->pe1");
  EXPECT_EQ(j["links"][0]["bytes"], fabric.links()[0]->bytes());
  EXPECT_EQ(j["links"][0]["messages"], 1);
  EXPECT_EQ(j["totals"], json::parse(R"({"wqes":6,"bytes":20480,"doorbells":2,"cqes":4,"errors":1})"));
}

TEST(Stats, QpsSortedAndJsonDeterministic) {
  Fabric fabric(4, FabricParams{});
  StatsCollector a, b;
  for (StatsCollector* s : {&a, &b}) {
    for (int slot : {3, 1, 2}) s->on_sq_doorbell({0, slot, 1}, 1, 1000);
    s->on_sq_doorbell({0, 1, 0}, 1, 1000);
  }
  const json j = a.to_json(1000, fabric);
  std::vector<std::pair<int, int>> keys;
  for (const json& q : j["pes"][0]["qps"]) keys.push_back({q["slot"], q["qp"]});
  EXPECT_EQ(keys, (std::vector<std::pair<int, int>>{{1, 0}, {1, 1}, {2, 1}, {3, 1}}));
  EXPECT_TRUE(j["links"].empty());
  EXPECT_EQ(j.dump(), b.to_json(1000, fabric).dump());
}

}  // namespace
}  // namespace symsim

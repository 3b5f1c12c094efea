// Loads: the latency of one dependent 8 B load against the working set (1 MiB .. 4 GiB: the
// L2 capacity knee and the HBM miss path), and memory-level parallelism: time per round and
// loads per second with 1..16 loads in flight per thread, for one thread, one warp, one SM
// (1024 threads) and every SM, from L2 and from HBM (chase.cuh says how).
#include "chase.cuh"

namespace calib {

namespace {

constexpr size_t kMiB = size_t(1) << 20;

// A working set of about `bytes`: a power-of-two number of slots of at least 128 B (8 B steps).
ScatterBuffer working_set(uint64_t* base, size_t bytes) {
  uint64_t slots = 1;
  while (slots * 2 * 128 <= bytes) slots *= 2;
  const uint32_t slot_bytes = static_cast<uint32_t>(bytes / slots / 8 * 8);
  return {base, slots * slot_bytes, slot_bytes};
}

}  // namespace

void bench_load_mlp() {
  const size_t total = size_t(4) << 30;
  uint64_t *buf = nullptr, *cta_ns = nullptr;
  CALIB_CHECK(cudaMalloc(&buf, total));
  CALIB_CHECK(cudaMemset(buf, 0, total));
  CALIB_CHECK(cudaMalloc(&cta_ns, 4096 * sizeof(uint64_t)));

  for (size_t mib : {1, 4, 16, 24, 32, 40, 48, 56, 64, 72, 80, 96, 128, 256, 1024, 4096}) {
    const ScatterBuffer ws = working_set(buf, mib * kMiB);
    touch(ws, cta_ns);
    add_row({"mem.load_latency.ws_" + std::to_string(mib) + "mib_ns",
             "one dependent 8 B ld.global.cg, random slots of a " + std::to_string(mib) + " MiB working set read just before", round_ns<false>(1, ws, 1, 1, 5000, cta_ns),
             "ns", "one thread, 5000 loads each on the last one's value, slots of " + std::to_string(ws.slot_bytes) + " B (median of 3 after a warm-up)"});
  }

  struct Mode {
    const char* id;
    ScatterBuffer ws;
    bool warm;
  };
  const Mode modes[] = {{"l2", working_set(buf, 4 * kMiB), true}, {"hbm", working_set(buf, total), false}};
  for (const Mode& m : modes) {
    double unloaded_ns = 0;
    for (const Issuers& who : issuer_levels()) {
      double best = 0;
      for (int k : kInflightPerThread) {
        if (m.warm) touch(m.ws, cta_ns);
        const double ns = round_ns<false>(k, m.ws, who.blocks, who.threads, who.rounds, cta_ns);
        const double gloads = static_cast<double>(who.blocks) * who.threads * k / ns;
        if (unloaded_ns == 0) unloaded_ns = ns;
        best = std::max(best, gloads);
        const std::string id = std::string("mlp.") + m.id + "." + who.name + ".x" + std::to_string(k);
        const std::string how = std::to_string(who.blocks) + " CTA(s) x " + std::to_string(who.threads) + " threads, " + std::to_string(k) +
                                " independent dependent-chains each, " + std::to_string(who.rounds) + " rounds, 128 B slots of " +
                                std::to_string(m.ws.bytes >> 20) + " MiB (median of 3 after a warm-up)";
        add_row({id + ".round_ns", std::string("time per round, ") + std::to_string(k) + " loads in flight per thread, " + who.name + ", " + m.id,
                 ns, "ns", how});
        add_row({id + "_gloads", std::string("loads per second, ") + std::to_string(k) + " in flight per thread, " + who.name + ", " + m.id,
                 gloads, "G loads/s", how});
      }
      const std::string id = std::string("mlp.") + m.id + "." + who.name;
      add_row({id + ".max_gloads", std::string("best load rate of ") + who.name + ", " + m.id, best, "G loads/s", "maximum of the rows above"});
      add_row({id + ".knee_inflight", std::string("loads in flight at which ") + who.name + " reaches its best rate, " + m.id, best * unloaded_ns,
               "loads", "Little's law: best rate x unloaded round (thread, 1 in flight, " + num(unloaded_ns) + " ns)"});
    }
  }
  CALIB_CHECK(cudaFree(buf));
  CALIB_CHECK(cudaFree(cta_ns));
}

}  // namespace calib

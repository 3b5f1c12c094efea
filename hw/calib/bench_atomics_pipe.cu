// Atomics beyond one address under full load (bench_atomics.cu): the latency of one returning
// atomic on a line in L2 and on one in HBM; independent atomics on distinct addresses kept in
// flight (1..16 per thread; thread, warp, SM, GPU), i.e. how the atomic unit pipelines; red
// (no return) on distinct addresses; serialisation on one address against the number of SMs
// issuing; and one warp's atomics with its 32 lanes on 1..32 addresses (warp aggregation).
#include "chase.cuh"

namespace calib {

namespace {

constexpr size_t kL2Bytes = size_t(32) << 20;  // 1 Mi slots of 32 B
constexpr size_t kHbmBytes = size_t(4) << 30;  // 32 Mi slots of 128 B
constexpr int kOps = 20000;

// Fire-and-forget adds to distinct 32 B slots, scattered as in chase.cuh.
__global__ void red_distinct(uint32_t* buf, uint64_t slot_mask, int per_thread, uint64_t* cta_ns) {
  const uint64_t threads = uint64_t(gridDim.x) * blockDim.x, me = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  __syncthreads();
  const uint64_t t0 = globaltimer_ns();
  for (int i = 0; i < per_thread; ++i) {
    const uint64_t slot = ((i * threads + me) * 0x9E3779B97F4A7C15ull) & slot_mask;
    asm volatile("red.relaxed.gpu.global.add.u32 [%0], 1;" ::"l"(buf + slot * 8) : "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) cta_ns[blockIdx.x] = globaltimer_ns() - t0;
}

// Thread 0 of each CTA adds to one word n times: dependent (each add's operand comes from the
// last one's result) or fire-and-forget (red).
template <bool kDependent>
__global__ void one_address(uint32_t* word, int n, uint64_t* cta_ns) {
  if (threadIdx.x != 0) return;
  uint32_t v = 0;
  const uint64_t t0 = globaltimer_ns();
  for (int i = 0; i < n; ++i) {
    if constexpr (kDependent)
      asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], %2;" : "=r"(v) : "l"(word), "r"(1u + (v >> 31)) : "memory");
    else
      asm volatile("red.relaxed.gpu.global.add.u32 [%0], 1;" ::"l"(word) : "memory");
  }
  cta_ns[blockIdx.x] = globaltimer_ns() - t0;
  if (v == 0xffffffffu) cta_ns[gridDim.x] = v;
}

// One warp: `lanes` active lanes, lane l on address l % addresses (128 B apart), n warp-wide
// atomics, dependent or fire-and-forget.
template <bool kDependent>
__global__ void warp_atomics(uint32_t* base, int lanes, int addresses, int n, uint64_t* out_ns) {
  if (static_cast<int>(threadIdx.x) >= lanes) return;
  uint32_t* p = base + (threadIdx.x % addresses) * 32;
  uint32_t v = 0;
  __syncwarp(__activemask());
  const uint64_t t0 = globaltimer_ns();
  for (int i = 0; i < n; ++i) {
    if constexpr (kDependent)
      asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], %2;" : "=r"(v) : "l"(p), "r"(1u + (v >> 31)) : "memory");
    else
      asm volatile("red.relaxed.gpu.global.add.u32 [%0], 1;" ::"l"(p) : "memory");
  }
  __syncwarp(__activemask());
  if (threadIdx.x == 0) out_ns[0] = globaltimer_ns() - t0;
  if (v == 0xffffffffu) out_ns[1] = v;
}

template <typename Launch>
double max_cta_ns(Launch launch, unsigned blocks, uint64_t* cta_ns) {
  std::vector<double> v;
  std::vector<uint64_t> h(blocks);
  for (int rep = 0; rep < 4; ++rep) {
    launch();
    CALIB_CHECK(cudaGetLastError());
    CALIB_CHECK(cudaDeviceSynchronize());
    CALIB_CHECK(cudaMemcpy(h.data(), cta_ns, blocks * sizeof(uint64_t), cudaMemcpyDeviceToHost));
    if (rep > 0) v.push_back(static_cast<double>(*std::max_element(h.begin(), h.end())));
  }
  return median(v);
}

}  // namespace

void bench_atomics_pipe() {
  uint64_t *buf = nullptr, *cta_ns = nullptr;
  CALIB_CHECK(cudaMalloc(&buf, kHbmBytes));
  CALIB_CHECK(cudaMemset(buf, 0, kHbmBytes));
  CALIB_CHECK(cudaMalloc(&cta_ns, 4096 * sizeof(uint64_t)));
  const ScatterBuffer l2{buf, kL2Bytes, 32}, hbm{buf, kHbmBytes, 128};

  touch(l2, cta_ns);
  const double lat_l2 = round_ns<true>(1, l2, 1, 1, 5000, cta_ns);
  add_row({"atomic.latency.l2_ns", "one atom.add.u64 (adds 0), result waited for, line in L2, no other traffic", lat_l2, "ns",
           "one thread, 5000 atomics each on the last one's value, random 32 B slots of 32 MiB read just before (median of 3 after a warm-up)"});
  add_row({"atomic.latency.hbm_ns", "one atom.add.u64 (adds 0), result waited for, line not in L2", round_ns<true>(1, hbm, 1, 1, 2000, cta_ns), "ns",
           "one thread, 2000 atomics each on the last one's value, random 128 B slots of 4 GiB never touched before (median of 3 after a warm-up)"});

  for (const Issuers& who : issuer_levels()) {
    double best = 0;
    for (int k : kInflightPerThread) {
      if (uint64_t(who.blocks) * who.threads * k > l2.slots()) continue;  // two atomics in flight on one slot would contend
      touch(l2, cta_ns);
      const double ns = round_ns<true>(k, l2, who.blocks, who.threads, who.rounds, cta_ns);
      const double gops = static_cast<double>(who.blocks) * who.threads * k / ns;
      best = std::max(best, gops);
      const std::string id = std::string("atomic_pipe.") + who.name + ".x" + std::to_string(k);
      const std::string how = std::to_string(who.blocks) + " CTA(s) x " + std::to_string(who.threads) + " threads, " + std::to_string(k) +
                              " independent chains of atom.add.u64 (adds 0) each, " + std::to_string(who.rounds) +
                              " rounds, distinct 32 B slots of 32 MiB in L2 (median of 3 after a warm-up)";
      add_row({id + ".round_ns", std::string("time per round, ") + std::to_string(k) + " returning atomics in flight per thread, distinct addresses, " + who.name,
               ns, "ns", how});
      add_row({id + "_gops", std::string("returning atomics per second, ") + std::to_string(k) + " in flight per thread, distinct addresses, " + who.name,
               gops, "G ops/s", how});
    }
    add_row({std::string("atomic_pipe.") + who.name + ".max_gops", std::string("best returning-atomic rate on distinct addresses, ") + who.name, best,
             "G ops/s", "maximum of the rows above"});
    add_row({std::string("atomic_pipe.") + who.name + ".knee_inflight",
             std::string("atomics in flight at which ") + who.name + " reaches its best rate", best * lat_l2, "atomics",
             "Little's law: best rate x atomic.latency.l2_ns"});
  }

  const uint64_t l2_mask = l2.slots() - 1;
  auto* words = reinterpret_cast<uint32_t*>(buf);
  for (const Issuers& who : issuer_levels()) {
    const int per_thread = who.blocks * who.threads > 1024 ? 200 : 4000;
    touch(l2, cta_ns);
    const double ns = max_cta_ns([&] { red_distinct<<<who.blocks, who.threads>>>(words, l2_mask, per_thread, cta_ns); }, who.blocks, cta_ns);
    add_row({std::string("atomic.red_distinct.") + who.name + "_gops", std::string("red.add (no return) on distinct addresses, ") + who.name,
             static_cast<double>(who.blocks) * who.threads * per_thread / ns, "G ops/s",
             std::to_string(who.blocks) + " CTA(s) x " + std::to_string(who.threads) + " threads x " + std::to_string(per_thread) +
                 " reds to random 32 B slots of 32 MiB in L2 (median of 3 after a warm-up)"});
  }

  uint32_t* word = words;  // one address from here on (contents no longer matter)
  const int sms = sm_count();
  for (int n_sm : {1, 2, 4, 8, 16, 32, 66, sms}) {
    const unsigned blocks = static_cast<unsigned>(n_sm);
    const int n = 4000;
    const double ns_red = max_cta_ns([&] { one_address<false><<<blocks, 32>>>(word, n, cta_ns); }, blocks, cta_ns);
    const double ns_atom = max_cta_ns([&] { one_address<true><<<blocks, 32>>>(word, n, cta_ns); }, blocks, cta_ns);
    const std::string how = std::to_string(n_sm) + " CTAs (one per SM), thread 0 of each adding " + std::to_string(n) +
                            " times to one word (median of 3 after a warm-up)";
    add_row({"atomic.one_address.red.sms" + std::to_string(n_sm) + "_gops", "red.add on one address, one thread on each of " + std::to_string(n_sm) + " SMs",
             static_cast<double>(n_sm) * n / ns_red, "G ops/s", how});
    add_row({"atomic.one_address.atom_dep.sms" + std::to_string(n_sm) + "_ns",
             "atom.add on one address, each waited for, one thread on each of " + std::to_string(n_sm) + " SMs: time per atomic per thread",
             ns_atom / n, "ns", how + "; each add's operand from the last one's result"});
  }

  struct WarpCase {
    int lanes, addresses;
  };
  for (const WarpCase c : {WarpCase{1, 1}, WarpCase{32, 1}, WarpCase{32, 2}, WarpCase{32, 4}, WarpCase{32, 8}, WarpCase{32, 16}, WarpCase{32, 32}}) {
    const std::string tag = "lanes" + std::to_string(c.lanes) + ".addr" + std::to_string(c.addresses);
    const std::string how = "one warp, " + std::to_string(kOps) + " warp-wide atomics, lane l on address l % " + std::to_string(c.addresses) +
                            " (128 B apart) (median of 3 after a warm-up)";
    const double dep = max_cta_ns([&] { warp_atomics<true><<<1, 32>>>(words, c.lanes, c.addresses, kOps, cta_ns); }, 1, cta_ns) / kOps;
    const double red = max_cta_ns([&] { warp_atomics<false><<<1, 32>>>(words, c.lanes, c.addresses, kOps, cta_ns); }, 1, cta_ns) / kOps;
    add_row({"atomic.warp." + tag + ".atom_dep_ns",
             "one warp's atom.add, " + std::to_string(c.lanes) + " lanes on " + std::to_string(c.addresses) + " address(es), each waited for",
             dep, "ns", how + "; each add's operand from the last one's result"});
    add_row({"atomic.warp." + tag + ".red_ns", "one warp's red.add, " + std::to_string(c.lanes) + " lanes on " + std::to_string(c.addresses) + " address(es), back to back",
             red, "ns", how});
  }
  CALIB_CHECK(cudaFree(buf));
  CALIB_CHECK(cudaFree(cta_ns));
}

}  // namespace calib

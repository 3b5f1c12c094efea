// Host driver of calib_probe: sets up the window (written first when the row wants it in L2),
// runs one configuration and reports its figure in the row's unit as "value=..." (hw_diff.py
// compares it with the calibration row and with the GPU's run of the same probe).
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/nvlink/calib/calib_probe.cuh"
#include "cuda_runtime.h"
#include "kernels/nvlink/intranode/intranode_dispatch.cuh"
#include "kernels/nvlink/pull/pull_dispatch.cuh"
#include "kernels/registry/kernel_registry.h"
#include "symsim/cuda/ibgda_host.h"
#include "symsim/cuda/runtime.h"

namespace {

constexpr double kSmClockGhz = 1.98;  // clock64 ticks per ns on an H200 running (row sm.clock_ghz)
constexpr int kSmemBudget = 200 * 1024;

// `heap` 2: the probe's cudaMalloc memory is given back when the probe returns (after its
// figures are read), so a run's repetitions do not pile up never-freed windows.
class FreedAtReturn {
 public:
  explicit FreedAtReturn(bool on) : m_on(on) {}
  FreedAtReturn(const FreedAtReturn&) = delete;
  FreedAtReturn& operator=(const FreedAtReturn&) = delete;
  ~FreedAtReturn() {
    for (void* p : m_ptrs) cudaFree(p);
  }
  void add(void* p) {
    if (m_on && p != nullptr) m_ptrs.push_back(p);
  }

 private:
  bool m_on;
  std::vector<void*> m_ptrs;
};

// The window written by a kernel's stores (calib_probe mode 5: one CTA of 1024 threads, 16 B each),
// waited for, before the probe's own launch (`hot` 8).
void write_by_kernel(const CalibProbeArgs& probe, uint64_t window, FreedAtReturn& freed) {
  CalibProbeArgs w = probe;
  w.mode = kProbeStoreSm;
  w.window_bytes = window;
  cudaMalloc(reinterpret_cast<void**>(&w.cycles), 2 * sizeof(unsigned long long));
  freed.add(w.cycles);
  launch_calib_probe(1, 1024, 0, w);
  cudaDeviceSynchronize();
}

// Mode 24: intranode_dispatch itself over mode 22's window and words (one PE: every token to
// this PE); `inflight` 1 adds the application host's three memsets just before the launch.
// The figure is the GPU's events around the launch (hw_diff.py); the value is the tokens packed.
void app_dispatch(int rank, int ctas, int threads, const CalibProbeArgs& p) {
  const int tokens = p.per_thread, hidden = static_cast<int>(p.bytes);
  const int msg_bytes = static_cast<int>(sizeof(DispatchHeader)) + hidden;
  IntranodeDispatchArgs args{};
  args.x = p.buf;
  args.recv_buf = p.buf + static_cast<int64_t>(tokens) * hidden;
  args.recv_x = args.recv_buf + static_cast<int64_t>(tokens) * msg_bytes;
  args.ws = reinterpret_cast<comm::Workspace*>(p.word);
  args.send_counter = p.word + kDispatchProbeCounterInt;
  args.recv_count = args.send_counter + 1;
  args.recv_total = args.send_counter + 2;
  args.topk_idx = args.send_counter + 4;
  args.window = symsim::cuda::sym_window();
  args.num_tokens = tokens, args.hidden_bytes = hidden, args.topk = p.topk, args.num_experts = p.experts;
  args.max_tokens = tokens;
  if (p.inflight & 1) {
    cudaMemset(args.send_counter, 0, sizeof(int));
    cudaMemset(args.recv_count, 0, sizeof(int));
    cudaMemset(args.ws, 0, sizeof(comm::Workspace));
  }
  const int launched = launch_intranode_dispatch(ctas, threads, args);
  const cudaError_t status = cudaDeviceSynchronize();
  symsim::check(launched == cudaSuccess && status == cudaSuccess, fmt::format("gpu {}: calib_probe completed", rank),
                fmt::format("launch {}, synchronize {} ({})", launched, status, cudaGetErrorString(status)));
  int total = 0;
  cudaMemcpy(&total, args.recv_total, sizeof(int), cudaMemcpyDeviceToHost);
  symsim::check(total == tokens, fmt::format("gpu {}: calib_probe mode 24 packed every token", rank),
                fmt::format("value={} tokens", total));
}

// Mode 26's stamps: per phase, the slowest and the fastest warp (ns from each warp's entry);
// the loop's ns per step, the slowest warp's; the spread of the CTAs' entries and
// the body by the global timer (first entry to last exit).
void report_pull_phases(int rank, int warps, const unsigned long long* device_stamps) {
  std::vector<unsigned long long> s(static_cast<size_t>(warps) * kPullPhaseStamps);
  cudaMemcpy(s.data(), device_stamps, sizeof(unsigned long long) * s.size(), cudaMemcpyDeviceToHost);
  auto at = [&](int w, int k) { return static_cast<double>(s[static_cast<size_t>(w) * kPullPhaseStamps + k]); };
  std::string phases;
  const char* names[] = {"setup", "barrier1", "loop", "store_wait", "barrier2"};
  double whole = 0, most_steps = 0, step_ns = 0;
  for (int k = 0; k < 5; ++k) {
    double hi = 0, lo = 1e300;
    for (int w = 0; w < warps; ++w) {
      const double ns = (at(w, k) - (k ? at(w, k - 1) : 0)) / kSmClockGhz;
      hi = std::max(hi, ns), lo = std::min(lo, ns);
    }
    phases += fmt::format(" {}={:.0f}/{:.0f}", names[k], hi, lo);
  }
  // The global timer in whole ns (a double would round its ~1.8e18 to 256 ns).
  auto raw = [&](int w, int k) { return s[static_cast<size_t>(w) * kPullPhaseStamps + k]; };
  unsigned long long g_first = ~0ull, g_entry_last = 0, g_last = 0;
  std::string per_warp;  // each warp's loop ns per step, in warp order (which warps are slow)
  for (int w = 0; w < warps; ++w) {
    whole = std::max(whole, at(w, 4) / kSmClockGhz);
    most_steps = std::max(most_steps, at(w, 7));
    const double warp_step_ns = at(w, 7) > 0 ? (at(w, 2) - at(w, 1)) / kSmClockGhz / at(w, 7) : 0.0;
    step_ns = std::max(step_ns, warp_step_ns);
    per_warp += fmt::format(" {:.0f}", warp_step_ns);
    g_first = std::min(g_first, raw(w, 5)), g_entry_last = std::max(g_entry_last, raw(w, 5)), g_last = std::max(g_last, raw(w, 6));
  }
  symsim::check(true, fmt::format("gpu {}: calib_probe mode 26 phases (ns, slowest/fastest warp)", rank),
                fmt::format("{}; loop per step {:.0f} over {:.0f} steps; global timer: entries spread {}, body {}, "
                            "first entry {}, last exit {}; loop per step by warp:{}",
                            phases, step_ns, most_steps, g_entry_last - g_first, g_last - g_first, g_first, g_last, per_warp));
  symsim::check(whole > 0, fmt::format("gpu {}: calib_probe mode 26 measured", rank), fmt::format("value={:.4g} ns", whole));
}

// Mode 25: pull_dispatch itself at one PE over the probe's window (x: its first `count` rows)
// and routing (zeros: every token is this PE's); the rows go to `out`, in slot order, or with
// `inflight` 1 to the window's second half (written before it, as the window); `inflight` 2
// puts the barrier's workspace and the routing in the symmetric heap, as pull's host does. The
// figure is the GPU's events around the launch; the value is the tokens pulled.
// Mode 26: the same with pull_phases_probe (pull_dispatch's copy with stamps) launched instead;
// the value is the slowest warp's body in ns, a second check gives every phase.
void app_pull(int rank, int ctas, int threads, const CalibProbeArgs& p) {
  const int tokens = p.per_thread, hidden = static_cast<int>(p.bytes);
  PullDispatchArgs args{};
  args.x = p.buf;
  args.recv_x = (p.inflight & 1) ? p.buf + p.window_bytes / 2 : p.out;
  const size_t route_bytes = sizeof(int) * (static_cast<size_t>(tokens) * p.topk + 2 * tokens + 1);
  const bool heap = p.inflight & 2;
  int* route = nullptr;
  if (heap) {
    route = static_cast<int*>(symsim::cuda::sym_malloc(route_bytes, 128));
    args.ws = static_cast<comm::Workspace*>(symsim::cuda::sym_malloc(sizeof(comm::Workspace)));
  } else {
    cudaMalloc(reinterpret_cast<void**>(&route), route_bytes);
    cudaMalloc(reinterpret_cast<void**>(&args.ws), sizeof(comm::Workspace));
  }
  cudaMemset(route, 0, route_bytes);
  cudaMemset(args.ws, 0, sizeof(comm::Workspace));
  args.topk_idx = route;
  args.recv_src = route + static_cast<size_t>(tokens) * p.topk;
  args.recv_counter = args.recv_src + 2 * tokens;
  args.num_ranks = 1, args.num_tokens = tokens, args.hidden_bytes = hidden, args.topk = p.topk, args.num_experts = p.experts;
  const bool stamped = p.mode == kProbePullPhases;
  const int launched = stamped ? launch_pull_phases_probe(ctas, threads, args, p.cycles)
                               : launch_pull_dispatch(ctas, threads, args, layout::SymBuffer<>{});
  const cudaError_t status = cudaDeviceSynchronize();
  symsim::check(launched == cudaSuccess && status == cudaSuccess, fmt::format("gpu {}: calib_probe completed", rank),
                fmt::format("launch {}, synchronize {} ({})", launched, status, cudaGetErrorString(status)));
  int total = 0;
  cudaMemcpy(&total, args.recv_counter, sizeof(int), cudaMemcpyDeviceToHost);
  if (!stamped) {
    symsim::check(total == tokens, fmt::format("gpu {}: calib_probe mode 25 pulled every token", rank),
                  fmt::format("value={} tokens", total));
    return;
  }
  symsim::check(total == tokens, fmt::format("gpu {}: calib_probe mode 26 pulled every token", rank),
                fmt::format("{} tokens", total));
  report_pull_phases(rank, ctas * threads / 32, p.cycles);
}

void calib_probe_host(int rank, const symsim::KernelArgs& a) {
  CalibProbeArgs args{};
  args.mode = static_cast<int>(a.u64("mode"));
  args.bytes = static_cast<uint32_t>(a.u64("bytes"));
  args.inflight = static_cast<int>(a.u64("inflight"));
  args.per_thread = static_cast<int>(a.u64("count"));
  args.stride = static_cast<uint32_t>(a.u64("stride"));
  const int warps = static_cast<int>(a.u64("warps"));
  const bool mbar_rounds = args.mode == kProbeTmaMbar || args.mode == kProbeTmaMbarCode;
  const bool tma = args.mode == kProbeTmaLoad || args.mode == kProbeTmaStore || mbar_rounds || args.mode == kProbeTmaStoreCode;
  int ctas = 1, threads = 32;
  if (args.mode == kProbeRedOneAddr) ctas = a.blocks();
  if (tma) threads = 32 * warps;
  if (args.mode == kProbeStoreSm || args.mode == kProbeAtomicSm) threads = 1024;
  const bool chain = args.mode == kProbeShflChain || args.mode == kProbeBallotChain || args.mode == kProbeCodeLoop;
  if (chain) threads = 32 * warps;
  const bool shim = is_shim_probe(args.mode);
  const bool shim_copies = args.mode == kProbeCopyRound || args.mode == kProbeCopyRoundWarp || is_copy_round(args.mode) ||
                           args.mode >= kProbeLoadRoundWarp;
  if (shim) threads = 32 * warps, ctas = a.blocks();
  uint64_t window = a.u64("window_kib") * 1024;
  if (tma) window -= window % (static_cast<uint64_t>(warps) * args.bytes);
  if (tma && (a.u64("hot") == 0 || a.u64("hot") == 5)) {  // streamed: no copy revisits a line
    args.per_thread = static_cast<int>(std::min<uint64_t>(args.per_thread, window / (static_cast<uint64_t>(warps) * args.bytes)));
  }
  args.bufs = tma ? std::max(1, std::min(args.inflight, kSmemBudget / (warps * static_cast<int>(args.bytes)))) : 1;
  if (mbar_rounds) args.bufs = args.inflight;  // every copy of a round lands at once
  int smem = tma ? kCalibProbeMbarBytes + warps * args.bufs * static_cast<int>(args.bytes) : 0;
  if (shim) smem = kCalibProbeMbarBytes + (shim_copies ? warps * 2 * static_cast<int>(args.bytes) : 0);
  window = std::max<uint64_t>(window, args.mode == kProbeAtomicSm ? 1024 * 128 : 16);
  const bool app = args.mode == kProbeAppDispatch;  // mode 22's memory, the application kernel
  const bool phases = args.mode == kProbeDispatchPhases || app;
  const bool pull = args.mode == kProbeAppPull || args.mode == kProbePullPhases;  // the application's pull over the window
  if (pull) {  // `count` tokens of `bytes` (x), then as much again (recv_x with `inflight` 1)
    threads = 32 * warps, ctas = a.blocks();
    window = std::max<uint64_t>(window, 2 * static_cast<uint64_t>(args.per_thread) * args.bytes);
  }
  const uint64_t msg_bytes = args.bytes + 16;
  if (phases) {  // dispatch's kernel at one PE: `count` tokens, CTAs of `warps` warps
    threads = 32 * warps, ctas = a.blocks();
    smem = kCalibProbeMbarBytes + warps * 2 * static_cast<int>(msg_bytes);
    window = std::max<uint64_t>(window, static_cast<uint64_t>(args.per_thread) * (args.bytes + 2 * msg_bytes));
  }
  const bool dispatch_step = args.mode == kProbeDispatchStep;
  if (dispatch_step) {  // CTAs of `warps` warps; loads from the window's first half, messages to its second
    threads = 32 * warps, ctas = a.blocks();
    smem = kCalibProbeMbarBytes + warps * 2 * static_cast<int>(msg_bytes);
    window = std::max<uint64_t>(window, 2 * static_cast<uint64_t>(args.per_thread) * ctas * warps * msg_bytes);
  }
  const bool fresh_rows = args.mode == kProbeFreshRows;
  if (fresh_rows) {  // `count` rows of `bytes`, each once, over CTAs of `warps` warps
    threads = 32 * warps, ctas = a.blocks();
    smem = kCalibProbeMbarBytes + warps * 2 * static_cast<int>(args.bytes);
    window = std::max<uint64_t>(window, static_cast<uint64_t>(args.per_thread) * args.bytes);
  }
  const uint64_t hot = a.u64("hot");
  // `heap` 1 (or `hot` 4): the window in the symmetric heap, as the kernels' windows; its memory is
  // the same at every repetition (symsim-hw starts the heap over), a cudaMalloc window is new memory
  // each time. `heap` 2: cudaMalloc memory given back when the probe returns. The simulator has no
  // such difference (cudaFree is a no-op there; docs/hw-accuracy.md, thirty-fifth pass (s29-heap)).
  const uint64_t placement = a.u64("heap");
  const bool in_heap = hot == 4 || placement == 1;
  FreedAtReturn freed(placement == 2);
  if (in_heap) {
    args.buf = static_cast<uint8_t*>(symsim::cuda::sym_malloc(window, 1024));
  } else {
    cudaMalloc(reinterpret_cast<void**>(&args.buf), window);
    freed.add(args.buf);
  }
  const bool varied = hot == 3 || hot == 4;
  if (hot >= 1 && hot <= 4) {  // written just before: the window is in L2 (zeros, or with 3 and 4 bytes as varied as a token's)
    std::vector<uint8_t> bytes(window, 0);
    if (varied) {
      uint32_t x = 12345;
      for (uint8_t& b : bytes) b = static_cast<uint8_t>((x = x * 1664525u + 1013904223u) >> 24);
    }
    cudaMemcpy(args.buf, bytes.data(), window, cudaMemcpyHostToDevice);
  }
  // `hot` 6-8 (issue 19, thirty-sixth pass (s30-route)): how the window's lines stand after the ways a
  // program writes memory other than a host copy, for a load chain to read: 6 a host cudaMemset (zeros),
  // 7 the same then pushed out as 2 is, 8 a kernel's 16 B stores (mode 5's loop, one CTA).
  if (hot == 6 || hot == 7) cudaMemset(args.buf, 0, window);
  if (hot == 8) write_by_kernel(args, window, freed);
  if (hot == 2 || hot == 5 || hot == 7) {  // then pushed out of L2 (60 MiB) by writing 160 MiB elsewhere (5: never written)
    constexpr size_t kEvictBytes = size_t{160} << 20;
    void* evict = nullptr;
    cudaMalloc(&evict, kEvictBytes);
    freed.add(evict);
    cudaMemset(evict, 1, kEvictBytes);
    cudaDeviceSynchronize();
  }
  args.window_bytes = window;
  const bool flags = args.mode == kProbeFlagPingPong;
  if (flags) cudaMemset(args.buf, 0, 256), ctas = 2;  // both flags 0 before the first round trip
  // Mode 21: the slot counter, the routing table and the slots' source words (pull's arrays).
  const size_t word_bytes = args.mode == kProbePullStep || dispatch_step ? kPullProbeWordBytes
                            : fresh_rows && (args.inflight & 128) ? std::max<size_t>(4096, 2 * sizeof(int) * static_cast<size_t>(args.per_thread))
                            : fresh_rows           ? 2 * sizeof(int) * static_cast<size_t>(args.per_thread)
                            : phases ? (kDispatchProbeCounterInt + 4 + 8 * static_cast<size_t>(args.per_thread)) * sizeof(int)
                                     : sizeof(int);
  cudaMalloc(reinterpret_cast<void**>(&args.word), word_bytes);
  freed.add(args.word);
  cudaMemset(args.word, 0, word_bytes);
  const size_t stamps = pull ? static_cast<size_t>(ctas) * warps * kPullPhaseStamps : 2 * ctas + 1;  // mode 22: then globaltimer ns
  cudaMalloc(reinterpret_cast<void**>(&args.cycles), sizeof(unsigned long long) * stamps);
  freed.add(args.cycles);
  args.ranks = 1, args.topk = 8, args.experts = 64;
  const bool slot_rows = args.mode == kProbePullStep && (args.inflight & 32);
  if (slot_rows || pull) {  // never written: as the application's recv_x
    const uint64_t rows = slot_rows ? static_cast<uint64_t>(args.per_thread) * ctas * warps : args.per_thread;
    if (placement == 1) {  // the rows' slots in the heap too
      args.out = static_cast<uint8_t*>(symsim::cuda::sym_malloc(rows * args.bytes, 1024));
    } else {
      cudaMalloc(reinterpret_cast<void**>(&args.out), rows * args.bytes);
      freed.add(args.out);
    }
    if (slot_rows && varied) cudaMemset(args.out, 0, rows * args.bytes);  // written before, as the window
  }
  if (app) {
    app_dispatch(rank, ctas, threads, args);
    return;
  }
  if (pull) {
    app_pull(rank, ctas, threads, args);
    return;
  }

  const bool flag_beside = flags && ((args.inflight >> kFlagProbeAtomicOffsetShift) & 3) != 0;
  const int launched = flag_beside  ? launch_flag_beside_probe(args)
                       : flags      ? launch_flag_probe(args)
                       : phases     ? launch_dispatch_phases_probe(ctas, threads, smem, args)
                       : fresh_rows ? launch_fresh_rows_probe(ctas, threads, smem, args)
                       : dispatch_step && args.stride >= (1u << 16) ? launch_dispatch_route_probe(ctas, threads, smem, args)
                       : (args.mode == kProbeGridSync || args.mode == kProbeSignalWait) && args.stride >= (1u << 16) ? launch_sync_probe(ctas, threads, args)
                       : dispatch_step ? launch_dispatch_step_probe(ctas, threads, smem, args)
                       : args.mode == kProbeCodeLoop ? launch_code_probe(threads, args)
                       : args.mode == kProbeTmaMbarCode || args.mode == kProbeTmaStoreCode ? launch_tma_code_probe(threads, smem, args)
                       : args.mode >= kProbeLoadRoundWarp ? launch_shim_parts_probe(ctas, threads, smem, args)
                       : shim                      ? launch_shim_probe(ctas, threads, smem, args)
                                                   : launch_calib_probe(ctas, threads, smem, args);
  const cudaError_t status = cudaDeviceSynchronize();
  symsim::check(launched == cudaSuccess && status == cudaSuccess, fmt::format("gpu {}: calib_probe completed", rank),
                fmt::format("launch {}, synchronize {} ({})", launched, status, cudaGetErrorString(status)));
  if (launched != cudaSuccess || status != cudaSuccess) return;
  std::vector<unsigned long long> cycles(ctas);
  cudaMemcpy(cycles.data(), args.cycles, sizeof(unsigned long long) * ctas, cudaMemcpyDeviceToHost);
  const double ns = static_cast<double>(*std::max_element(cycles.begin(), cycles.end())) / kSmClockGhz;
  if (phases) {  // the slowest CTA's phase by the GPU's global timer (0 in the simulator)
    std::vector<unsigned long long> global(ctas);
    cudaMemcpy(global.data(), args.cycles + ctas + 1, sizeof(unsigned long long) * ctas, cudaMemcpyDeviceToHost);
    symsim::check(true, fmt::format("gpu {}: calib_probe mode 22 by the global timer", rank),
                  fmt::format("globaltimer_ns={}", *std::max_element(global.begin(), global.end())));
  }
  double value = 0;
  const char* unit = "";
  switch (args.mode) {
    case kProbeTmaLoad:
    case kProbeTmaStore:
      value = static_cast<double>(args.bytes) * args.per_thread * warps / ns, unit = "GB/s";
      break;
    case kProbeLoadChain:
    case kProbeAtomicChain:
    case kProbeShflChain:
    case kProbeBallotChain:
    case kProbeTmaMbar:
    case kProbeTmaMbarCode:
    case kProbeTmaStoreCode:
    case kProbeCodeLoop:
    case kProbeCopyRound:
    case kProbeCopyRoundWarp:
    case kProbeReduceRow:
    case kProbeGridSync:
    case kProbeSignalWait:
    case kProbeCopyRoundRead:
    case kProbeCopyRoundTwoBufs:
    case kProbeCopyRoundOther:
    case kProbeLoadRoundWarp:
    case kProbeStoreRoundWarp:
    case kProbePullStep:
    case kProbeDispatchStep:
      value = ns / args.per_thread, unit = "ns";
      break;
    case kProbeFlagPingPong:
      value = ns / args.per_thread / 2, unit = "ns";  // one way: a round trip is two flag passes
      break;
    case kProbeDispatchPhases:
    case kProbeFreshRows:
      value = ns, unit = "ns";
      break;
    case kProbeRedOneAddr:
      value = static_cast<double>(ctas) * args.per_thread / ns, unit = "G ops/s";
      break;
    case kProbeStoreSm:
      value = static_cast<double>(window) / ns, unit = "GB/s";
      break;
    default:
      value = static_cast<double>(threads) * args.per_thread / ns, unit = "G ops/s";
      break;
  }
  symsim::check(value > 0, fmt::format("gpu {}: calib_probe mode {} measured", rank, args.mode),
                fmt::format("value={:.4g} {}", value, unit));
}

}  // namespace

SYMSIM_REGISTER_KERNEL(calib_probe, {"calib_probe", "nvidia",
                                     "the per-SM calibration rows (TMA streams, load and atomic chains, same-address "
                                     "reductions, an SM's stores and atomics, shuffle and vote chains, a loop of index arithmetic) as a kernel both the simulator and the GPU run",
                                     {{"mode", "0 TMA loads, 1 TMA stores, 2 load chain, 3 atomic chain, 4 red on one word from every CTA, 5 one CTA's stores, 6 one CTA's atomics, 7 shuffle chain, 8 ballot chain, 9 rounds of bulk loads on one mbarrier, 10 loop iterations of index arithmetic; the kernels' steps (shim_probe.cu, CTAs of `warps` warps, ns per step and warp): 11 combine's send step, 12 dispatch's send step, 13 combine's reduce of one row from `inflight` rows, 14 grid sync, 15 NVLink barrier signal and wait at one PE (14, 15 with `stride` >= 65536: sync_probe.cu, `stride` >> 16 bits 1 that kernel, 2 the arrival or signal relaxed, 4 mode 15's signal red.release.gpu); 16-18 mode 11 with wait_group.read, with two buffers, storing the other buffer; 19, 20 mode 12's loads alone, its stores alone; 21 pull's step per token (`inflight` bits: 1 routing load, 2 slot atomic, 4 slot stores, 8 the routing and the row through SymBuffer::map with a run-time source, 16 the pair's token, source and experts per rank by run-time divisions, 32 each row to its slot in memory never written (written before with `hot` 3 or 4), 64 two buffers and wait_group 1, these two only with 24); 22 intranode_dispatch at one PE, `count` tokens of `bytes`, to the end of phase `inflight` (1 send and grid sync, 2 signal round and grid sync, 3 receive side, 0 the set-up; + 4: timed from the CTA's entry; + 8: ranks, top-k and experts as run-time values, as the application kernel was before its kNumRanks; + 16, 32, 64, 128: one of them alone, the counts' and signal's rank count, top-k, the experts-per-rank division, the receive side's rank count and before[64]); 23 `count` rows of `bytes` written or read once (`inflight` 1 bulk stores, 2 plain stores, 3 bulk loads, 4 plain loads, 5 bulk stores each followed by two 4 B stores; + 64: store_chain_probe.cu's variants of the bulk-store loop, `inflight` & 7; + 16 / + 32: store_order_probe, there + 128 with op 5 the first row's words stored once before the timed loop, + 8 two words 1 KiB further); 24 the application's intranode_dispatch over mode 22's memory (`inflight` 1: the application's three memsets before the launch; the figure is the launch's events); 25 the application's pull_dispatch at one PE over the window, `count` tokens of `bytes`, rows to memory never written in slot order (`inflight` 1: to the window's second half; 2: its workspace and routing in the symmetric heap; the figure is the launch's events); 26 mode 25 with a copy of pull_dispatch stamping clock64 per warp at each phase's end (the figure: the slowest warp's body, ns; a check gives every phase); 27 mode 9 with `stride` iterations of row code.loop_iter's loop before each copy (1000 + n: n once per round, after the wait), the code counted as the kernels' (tma_code_probe.cu); 28 one bulk store per round, commit, wait_group 0, then `stride` iterations of that code; 29 mode 12's round with dispatch's per-token work between its load and its store, `stride` bits 1 the routing ldg and shuffles, 2 the slot atomicAdd on one shared word, 4 the header, from 16 `stride` / 16 iterations of mode 27's code there (dispatch_step_probe.cu; `bytes` loaded, `bytes` + 16 stored); from 65536 the routing's parts alone, `stride` >> 16 bits 1 this round bare, 2 the ldg, 4 the division, 8 the shuffle loop, 16 one 128 B line a token in the table, 32 the load a plain ld.global (L1 allocating), 64 message k stored at k x the message rounded up to whole 128 B lines (7296 B for 7184) (dispatch_route_probe.cu); 30 flag ping-pong between thread 0 of two CTAs, `count` round trips, ns one way (`inflight` & 7: 0 st/ld.relaxed.sys, 1 st.release.sys / ld.acquire.sys, 2 relaxed.gpu, 3 release/acquire.gpu, 4 volatile; + 8 the poller's atom.add 0 on its own flag before each wait; + 64 / 128 / 192 with 2 + 8: that atomic 4 / 256 / 4096 B after the flag; flag_probe.cu, hw/calib/bench_flags.cu's rows)", 0, 30, 0},
                                      {"bytes", "bytes per bulk copy (multiple of 16)", 16, 1 << 16, 1024},
                                      {"inflight", "bulk copies in flight per issuing warp (1, 2, 4 or 8), or per mbarrier round (mode 9), or mode 21's parts, mode 22's phase, mode 23's operation (+ 8: its shared buffers filled with varied bytes first)", 0, 255, 1},
                                      {"warps", "issuing warps (TMA modes) or warps running the chain or loop (modes 7, 8, 10), or warps per CTA (modes 11-15)", 1, kCalibProbeMaxWarps, 1},
                                      {"count", "copies per issuing warp, loads, atomics, shuffles, votes or loop iterations per thread, reductions per CTA", 1, 1 << 20, 1024},
                                      {"window_kib", "KiB of memory the probe walks", 1, 1 << 22, 1024},
                                      {"hot", "0: the window is never written (fresh memory), 1: written with zeros just before (in L2), 2: written, then 160 MiB elsewhere (out of L2), 3: written with varied bytes, 4: as 3 in the symmetric heap, 5: never written, then 160 MiB elsewhere (the L2 as after 2, the window as 0), 6: written with zeros by a host cudaMemset just before, 7: 6 then 160 MiB elsewhere, 8: written by a kernel's 16 B stores just before (mode 5's loop, one CTA)", 0, 8, 1},
                                      {"heap", "where the window is (the bytes as `hot` says): 0 cudaMalloc memory, kept to the run's end (as every stored row), 1 the symmetric heap (as `hot` 4; mode 21's slot rows and modes 25-26's rows there too), 2 cudaMalloc memory given back when the probe returns", 0, 2, 0},
                                      {"stride", "bytes between chain elements (mode 27: code loop iterations before each copy; 1000 + n: n once per round after the wait; mode 28: after each store's wait; mode 29: the per-token work's parts, from 1 << 16 the routing's)", 0, 1 << 23, 256}},
                                     132, calib_probe_host});

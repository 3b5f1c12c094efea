// Host driver of moe_dispatch_combine: per launch it generates this rank's routing and tokens,
// runs dispatch then combine, and verifies: every token this rank's experts should receive sits
// in its slot byte for byte (regenerated from every source's seed), the per-(expert, source)
// counts match, and the combined output equals the host reference bit for bit.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <vector>

#include "kernels/moe/aiv_direct/aiv_input.h"
#include "kernels/moe/common/moe_tiling.h"
#include "acl/acl.h"
#include "models/memory/sparse_region.h"
#include "kernels/registry/kernel_constraints.h"
#include "kernels/registry/kernel_registry.h"
#include "kernels/moe/host/combine_check.h"
#include "kernels/moe/host/moe_timing.h"
#include "kernels/moe/host/moe_workload.h"
#include "shmem.h"
#include "kernels/common/shmem_setup.h"
#include "symsim/udma_tables.h"

void launch_moe_dispatch(void* stream, uint8_t* tiling, uint32_t writers, uint32_t receivers);
void launch_moe_combine(void* stream, uint8_t* tiling, uint32_t writers, uint32_t receivers);
void launch_moe_aiv_dispatch(void* stream, uint8_t* tiling, uint32_t cores);
void launch_moe_aiv_combine(void* stream, uint8_t* tiling, uint32_t cores);

namespace moe {
namespace {

uint8_t* device_alloc(uint64_t bytes) {
  void* p = nullptr;
  if (aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
    throw std::runtime_error(fmt::format("aclrtMalloc of {} bytes failed", bytes));
  return static_cast<uint8_t*>(p);
}

template <typename T>
void upload(uint64_t device, const std::vector<T>& host) {
  aclrtMemcpy(reinterpret_cast<void*>(device), host.size() * sizeof(T), host.data(), host.size() * sizeof(T),
              ACL_MEMCPY_HOST_TO_DEVICE);
}

MoeTiling make_tiling(const WorkloadSpec& w, uint32_t rank, uint32_t writers, uint32_t variant) {
  MoeTiling t;
  t.ep = w.ep;
  t.my_rank = rank;
  t.tokens = w.tokens;
  t.hidden = w.hidden;
  t.top_k = w.top_k;
  t.experts_per_rank = w.experts_per_rank;
  t.elem_bytes = w.elem_bytes();
  t.writers = writers;
  t.variant = variant;
  t.token_payload_bytes = kTokenHeaderBytes + w.hidden * w.elem_bytes();
  t.token_blocks = blocks_for(t.token_payload_bytes);
  t.comb_payload_bytes = 2 * w.hidden;
  t.comb_blocks = blocks_for(t.comb_payload_bytes);
  t.window_half_bytes = t.head_bytes() + uint64_t{w.experts_per_rank} * w.ep * w.tokens * t.token_stride();
  t.comb_half_bytes = uint64_t{w.tokens} * w.top_k * t.comb_stride();
  return t;
}

// Device bytes as the host program sees them after a synchronise, read in place: the checks
// are the simulator's, not the host program's, so they take no simulated time (a copy to the
// host would delay the combine launch that follows the dispatch check).
template <typename T = uint8_t>
const T* device_view(uint64_t addr) {
  return reinterpret_cast<const T*>(addr);
}

// Dispatch check: what this rank's experts must hold, regenerated from every source rank. Runs
// between dispatch and combine: combine's experts clear the slots as they read them.
void verify_dispatch(const WorkloadSpec& w, const MoeTiling& t, uint32_t launch) {
  const uint32_t pe = t.my_rank;
  const uint32_t* counts = device_view<uint32_t>(t.recv_count);
  const uint32_t* src_tokens = device_view<uint32_t>(t.recv_src_token);
  uint64_t tokens = 0, wrong_tokens = 0, wrong_counts = 0;
  std::string first;
  // A source's token is drawn once per check, however many of this rank's experts it went to
  // (drawing it for every slot was 10,300 instructions a WQE at EP 8 full size; docs/performance.md,
  // session 29). Kept in one buffer for the run, as verify_combine's landing: a buffer made per
  // check would be fresh pages to fault in on every rank.
  static std::vector<uint8_t> drawn;  // [token][payload] of the source being checked
  if (drawn.size() < size_t{w.tokens} * t.token_payload_bytes) drawn.resize(size_t{w.tokens} * t.token_payload_bytes);
  std::vector<bool> is_drawn(w.tokens);
  std::vector<std::vector<uint32_t>> routed(w.experts_per_rank);
  std::vector<int64_t> per_expert(w.experts_per_rank, 0);  // tokens each local expert received
  for (uint32_t src = 0; src < w.ep; ++src) {
    const Routing& r = routing_of(w, src, launch);
    // The tokens of `src` for each local expert, in the order they took slots there.
    for (std::vector<uint32_t>& toks : routed) toks.clear();
    std::fill(is_drawn.begin(), is_drawn.end(), false);
    for (uint32_t i = r.rank_begin[pe]; i < r.rank_begin[pe + 1]; ++i) {  // this rank's pairs, in pair order
      const uint32_t p = r.by_rank[i];
      routed[static_cast<uint32_t>(r.topk_idx[p]) % w.experts_per_rank].push_back(p / w.top_k);
    }
    for (uint32_t le = 0; le < w.experts_per_rank; ++le) {
      const std::vector<uint32_t>& toks = routed[le];
      per_expert[le] += static_cast<int64_t>(toks.size());
      for (uint32_t j = 0; j < toks.size(); ++j) {
        uint8_t* want = &drawn[size_t{toks[j]} * t.token_payload_bytes];
        if (!is_drawn[toks[j]]) {
          token_payload(w, r, src, launch, toks[j], want);
          is_drawn[toks[j]] = true;
        }
        ++tokens;
        const bool same = std::memcmp(device_view(t.recv_addr(le, src, j)), want, t.token_payload_bytes) == 0 &&
                          src_tokens[t.slot(le, src, j)] == toks[j];
        if (!same && wrong_tokens++ == 0)
          first = fmt::format("token {} of rank {} for expert {} (slot {}) differs", toks[j], src,
                              pe * w.experts_per_rank + le, j);
      }
      if (counts[le * w.ep + src] != toks.size() && wrong_counts++ == 0 && first.empty())
        first = fmt::format("rank {} sent {} tokens to expert {}, the count block said {}", src, toks.size(),
                            pe * w.experts_per_rank + le, counts[le * w.ep + src]);
    }
  }
  if (t.variant == kVariantAivDirect) {  // the operator's expertTokenNums, in the window head
    const auto* nums = device_view<int64_t>(t.window + t.half() * t.window_half_bytes + t.token_nums_offset(0));
    for (uint32_t le = 0; le < w.experts_per_rank; ++le)
      if (nums[le] != per_expert[le] && wrong_counts++ == 0 && first.empty())
        first = fmt::format("expert {} received {} tokens, its token count says {}", pe * w.experts_per_rank + le,
                            per_expert[le], nums[le]);
  }
  symsim::check(wrong_tokens == 0 && wrong_counts == 0,
                fmt::format("pe {} launch {}: all {} routed tokens landed in their expert slots byte for byte", pe,
                            launch, tokens),
                wrong_tokens + wrong_counts == 0
                    ? ""
                    : fmt::format("{} tokens and {} counts wrong; first: {}", wrong_tokens, wrong_counts, first));
}

// After combine: every window slot that held a token this launch is empty again (combine clears
// what it read), so the launch after next finds no stale Data-as-Flag blocks there and the
// simulator holds no pages for them. (Count blocks: variants 0-2 clear them, variant 3's flags
// carry the launch's epoch instead.)
void verify_window_cleared(const WorkloadSpec& w, const MoeTiling& t, uint32_t launch) {
  const uint32_t* counts = device_view<uint32_t>(t.recv_count);
  // The memory model's own zero test (libc memcmp against zeros): a loop of 64-bit ORs here was
  // 1,200 instructions a WQE at full size (docs/performance.md, session 29).
  const auto zero = [](const uint8_t* p, uint64_t n) { return symsim::SparseRegion::is_zero(p, n); };
  uint64_t dirty = 0, slots = 0;
  std::string first;
  for (uint32_t le = 0; le < w.experts_per_rank; ++le)
    for (uint32_t src = 0; src < w.ep; ++src) {
      const uint32_t count = counts[le * w.ep + src];
      // A source's slots are adjacent. Combine handed their whole pages back, so they are tested
      // together without reading those pages: reading each would map the zero page, a fault a
      // page (521,137 at EP 256 full size; docs/performance.md, session 34). Slot by slot only
      // when something is left, to count and name the first.
      if (count > 0 && symsim::SparseRegion::reads_zero(device_view(t.recv_addr(le, src, 0)), count * t.token_stride())) {
        slots += count;
        continue;
      }
      for (uint32_t j = 0; j < count; ++j, ++slots)
        if (!zero(device_view(t.recv_addr(le, src, j)), t.token_stride()) && dirty++ == 0)
          first = fmt::format("slot {} of rank {} for local expert {}", j, src, le);
    }
  symsim::check(dirty == 0,
                fmt::format("pe {} launch {}: the dispatch window's {} token slots are clear after combine",
                            t.my_rank, launch, slots),
                dirty == 0 ? "" : fmt::format("{} not clear; first: {}", dirty, first));
}

void verify_combine(const WorkloadSpec& w, const MoeTiling& t, uint32_t launch) {
  // The copy is what reading the output back costs the host program (simulated time); the check
  // then reads the bytes in place (as the dispatch check does) against a reference built after
  // the copy. Every rank's host program waits in this copy at the same time: a copy buffer and a
  // reference held by each were 3.6 MB a rank at hidden 7168 (0.9 GB at EP 256). So the copies
  // land in one buffer that nothing reads, and the bytes in place go to the check.
  const uint64_t out_bytes = 2 * uint64_t{w.tokens} * w.hidden;
  static std::vector<uint8_t> landing;  // same size on every rank of a run: never reallocated under a copy
  if (landing.size() < out_bytes) landing.resize(out_bytes);
  aclrtMemcpy(landing.data(), out_bytes, reinterpret_cast<void*>(t.out), out_bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  // The reference (the inputs generated again, then combined) and the compare run on a helper
  // thread, on a copy of the output taken now (combine_check.h); the check keeps its place.
  check_combine_later(w, routing_of(w, t.my_rank, launch), t.my_rank, launch, device_view<uint16_t>(t.out));
}

void record_times(const MoeTiling& t, uint32_t writers, uint32_t receivers) {
  const uint32_t cores = t.variant == kVariantAivDirect ? kMaxCores : 2 * writers + receivers;
  std::vector<uint64_t> stamps(size_t{kKernels} * kMaxCores * 2);
  aclrtMemcpy(stamps.data(), stamps.size() * 8, reinterpret_cast<void*>(t.timing), stamps.size() * 8,
              ACL_MEMCPY_DEVICE_TO_HOST);
  MoeTimes& times = moe_times();
  for (uint32_t k = 0; k < kKernels; ++k) {
    for (uint32_t c = 0; c < cores; ++c) {
      const uint64_t s = stamps[(k * kMaxCores + c) * 2], e = stamps[(k * kMaxCores + c) * 2 + 1];
      const Role role = t.variant == kVariantAivDirect ? kRoleReceive  // every core has every role
                        : c < writers ? kRoleStage : c < 2 * writers ? kRoleWrite : kRoleReceive;
      times.role[k][role].add(s, e);
      times.kernel[k].add(s, e);
    }
  }
  if (++times.pes_reported == t.ep) {
    symsim::check(true, fmt::format("simulated {}", describe(times, kDispatch)));
    symsim::check(true, fmt::format("simulated {}", describe(times, kCombine)));
  }
}

WorkloadSpec workload_of(const symsim::KernelArgs& a, int pes) {
  WorkloadSpec w;
  w.ep = static_cast<uint32_t>(pes);
  w.tokens = static_cast<uint32_t>(a.u64("tokens"));
  w.hidden = static_cast<uint32_t>(a.u64("hidden"));
  w.top_k = static_cast<uint32_t>(a.u64("top_k"));
  w.experts_per_rank = static_cast<uint32_t>(a.u64("experts_per_rank"));
  w.dtype = a.u64("bf16") != 0 ? kBf16 : kInt8;
  w.zipf_s = a.number("zipf_s");
  w.seed = a.u64("routing_seed");
  return w;
}

// Argument combinations that are each in range but can never run (validation and the driver).
std::optional<symsim::KernelArgProblem> check_args(const symsim::KernelArgs& a, int pes) {
  const WorkloadSpec w = workload_of(a, pes);
  if (w.top_k > w.experts())
    return symsim::KernelArgProblem{"top_k", fmt::format("top_k ({}) is larger than the number of experts "
                                                         "(experts_per_rank x pes = {})", w.top_k, w.experts())};
  if (2 * a.u64("writers") + a.u64("receivers") > kMaxCores)
    return symsim::KernelArgProblem{"writers", fmt::format("2 x writers + receivers ({}) exceeds the {} AIV cores",
                                                           2 * a.u64("writers") + a.u64("receivers"), kMaxCores)};
  if (w.experts_per_rank * 4 > kBlockPayloadBytes)
    return symsim::KernelArgProblem{"experts_per_rank", "experts_per_rank above 120"};
  if (a.u64("send_ring") % 2 != 0)
    return symsim::KernelArgProblem{"send_ring", "send_ring must be even (the writer releases half rings)"};
  return std::nullopt;
}

void host(int pe, const symsim::KernelArgs& a) {
  if (const auto problem = check_args(a, aclshmem_n_pes())) throw std::runtime_error(problem->what);
  const WorkloadSpec w = workload_of(a, aclshmem_n_pes());
  const auto writers = static_cast<uint32_t>(a.u64("writers"));
  const auto receivers = static_cast<uint32_t>(a.u64("receivers"));
  const auto variant = static_cast<uint32_t>(a.u64("variant"));
  const auto send_ring = static_cast<uint32_t>(a.u64("send_ring"));
  const auto launches = static_cast<uint32_t>(a.u64("launches"));
  const bool verify = a.u64("verify") != 0;

  MoeTiling t = make_tiling(w, static_cast<uint32_t>(pe), writers, variant);
  t.send_ring = send_ring;
  const uint64_t slots = uint64_t{w.experts_per_rank} * w.ep * w.tokens;  // most tokens one rank can receive
  aclrtStream stream = kernel_host::setup(pe, 2 * (t.window_half_bytes + t.comb_half_bytes) + (4u << 20), writers);
  // The windows are fresh (zero) heap pages: every flag starts clear. Pages are touched on use.
  t.window = reinterpret_cast<uint64_t>(aclshmem_malloc(2 * t.window_half_bytes));
  t.comb_window = reinterpret_cast<uint64_t>(aclshmem_malloc(2 * t.comb_half_bytes));
  t.udma_info = reinterpret_cast<uint64_t>(symsim::shim::udma_tables());
  const bool bf16_input = variant == kVariantAivDirect;  // variant 3 quantises BF16 tokens on the device
  const uint64_t x_bytes = uint64_t{w.tokens} * w.hidden * (bf16_input ? 2 : w.elem_bytes());
  const uint64_t staging_bytes = uint64_t{w.ep} * kBlockBytes + w.tokens * t.token_stride();
  const uint64_t rings_bytes = uint64_t{writers} * send_ring * t.comb_stride();
  if (variant == kVariantApi || variant == kVariantDirect) {
    // Closed loop: every dispatch put has completed (quiet, or its CQE reaped) before dispatch
    // ends, and the next launch uploads its input after combine, so dispatch's input and
    // staging are dead while combine runs: its send rings take the same bytes (the simulator
    // holds every page a kernel touched: 1.9 MB a rank, 0.47 GB at EP 256). The open loop
    // never reaps, so its combine rows would rewrite sources still in flight.
    const uint64_t x_offset = (staging_bytes + 511) / 512 * 512;
    const uint64_t area = reinterpret_cast<uint64_t>(device_alloc(std::max(x_offset + x_bytes, rings_bytes)));
    t.staging = area;
    t.x = area + x_offset;
    t.comb_staging = area;
  } else {
    t.staging = reinterpret_cast<uint64_t>(device_alloc(staging_bytes));
    t.comb_staging = reinterpret_cast<uint64_t>(device_alloc(rings_bytes));
    t.x = reinterpret_cast<uint64_t>(device_alloc(x_bytes));
  }
  t.scales = reinterpret_cast<uint64_t>(device_alloc(4 * w.tokens));
  t.topk_idx = reinterpret_cast<uint64_t>(device_alloc(4 * w.tokens * w.top_k));
  t.topk_weight = reinterpret_cast<uint64_t>(device_alloc(4 * w.tokens * w.top_k));
  t.recv_src_token = reinterpret_cast<uint64_t>(device_alloc(4 * slots));
  t.expert_counts = reinterpret_cast<uint64_t>(device_alloc(4 * uint64_t{w.experts()}));
  t.comb_order = reinterpret_cast<uint64_t>(device_alloc(4 * uint64_t{writers} * slots));
  t.ring_dest = reinterpret_cast<uint64_t>(device_alloc(64 * uint64_t{writers} * send_ring));
  t.recv_count = reinterpret_cast<uint64_t>(device_alloc(4 * uint64_t{w.experts_per_rank} * w.ep));
  t.out = reinterpret_cast<uint64_t>(device_alloc(2 * uint64_t{w.tokens} * w.hidden));
  t.core_flags = reinterpret_cast<uint64_t>(device_alloc(kFlagSlots * 64 * 64));
  t.timing = reinterpret_cast<uint64_t>(device_alloc(kKernels * kMaxCores * 16));
  aclrtMemset(reinterpret_cast<void*>(t.core_flags), kFlagSlots * 64 * 64, 0, kFlagSlots * 64 * 64);
  aclrtMemset(reinterpret_cast<void*>(t.timing), kKernels * kMaxCores * 16, 0, kKernels * kMaxCores * 16);
  uint8_t* tiling = device_alloc(sizeof(MoeTiling));
  aclshmem_barrier_all();

  for (uint32_t launch = 0; launch < launches; ++launch) {
    {
      const RankInput in = make_rank_input(w, static_cast<uint32_t>(pe), launch);
      if (bf16_input && w.dtype == kInt8) upload(t.x, aiv::bf16_tokens(w, in));
      else upload(t.x, in.x);
      upload(t.scales, in.scales);
      upload(t.topk_idx, in.topk_idx);
      upload(t.topk_weight, in.topk_weight);
    }
    t.launch = launch;
    t.recv_tokens = t.window + t.half() * t.window_half_bytes + t.slot_offset(0, 0, 0);
    aclrtMemcpy(tiling, sizeof t, &t, sizeof t, ACL_MEMCPY_HOST_TO_DEVICE);
    if (variant == kVariantAivDirect) launch_moe_aiv_dispatch(stream, tiling, kMaxCores);
    else launch_moe_dispatch(stream, tiling, writers, receivers);
    if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
      symsim::check(false, fmt::format("pe {} launch {}: moe_dispatch_kernel completed", pe, launch), "it trapped");
      break;
    }
    if (verify) verify_dispatch(w, t, launch);
    if (variant == kVariantAivDirect) launch_moe_aiv_combine(stream, tiling, kMaxCores);
    else launch_moe_combine(stream, tiling, writers, receivers);
    if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
      symsim::check(false, fmt::format("pe {} launch {}: moe_combine_kernel completed", pe, launch), "it trapped");
      break;
    }
    if (verify) {
      verify_combine(w, t, launch);
      verify_window_cleared(w, t, launch);
    }
    if (launch + 1 == launches) record_times(t, writers, receivers);
  }
  aclshmem_barrier_all();
  help_combine_checks();  // every rank's checks are queued: run them here too rather than wait at the end
  kernel_host::teardown(stream);
}

}  // namespace
}  // namespace moe

SYMSIM_REGISTER_KERNEL(moe_dispatch_combine,
                       {"moe_dispatch_combine", "ascend",
                        "MoE dispatch + combine over UDMA with Data-as-Flag blocks: variant 0 one put_nbi per token "
                        "and destination, 1 AIV direct drive (SIMT WQE batches, one doorbell per SQ, credit check, "
                        "CQ reaping), 2 direct drive without the closed loop (as the article's kernel), 3 AIV-direct (every "
                        "AIV core stores into the peer's window through MTE3, no UDMA)",
                        {{"tokens", "tokens per rank", 1, 4096, 128},
                         {"hidden", "hidden size (elements)", 16, 16384, 7168},
                         {"top_k", "experts per token", 1, moe::kMaxTopK, 8},
                         {"experts_per_rank", "experts on each rank", 1, 120, 1},
                         {"bf16", "0: INT8 dispatch with a per-token scale, 1: BF16 dispatch", 0, 1, 0},
                         {"zipf_s", "gating skew: Zipf exponent over experts (0: uniform)", 0, 4, 0, false},
                         {"routing_seed", "seed of the gating and the token data", 0, 1e9, 1},
                         {"writers", "stage cores = writer cores = QPs per peer", 1, 16, 2},
                         {"receivers", "receiver cores", 1, 32, 2},
                         {"variant", "0 API put_nbi, 1 direct drive (closed loop), 2 direct drive open loop, 3 AIV-direct MTE stores", 0, 3, 1},
                         {"send_ring", "combine rows in each writer's send ring (even; slots reused after completion)",
                          2, 65536, 4096},
                         {"launches", "dispatch + combine rounds (double buffer alternates)", 1, 64, 1},
                         {"verify", "1: check every token and the combine output on the host", 0, 1, 1}},
                        48, moe::host});
SYMSIM_REGISTER_KERNEL_ARGS_CHECK(moe_dispatch_combine, moe::check_args);

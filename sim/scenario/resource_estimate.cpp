#include "sim/scenario/resource_estimate.h"

#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "kernels/registry/kernel_constraints.h"

namespace symsim {

namespace {

constexpr uint64_t kKiB = 1024, kMiB = kKiB << 10, kGiB = kMiB << 10;

// Mirrors of the models' fixed mappings (models/platform/ascend_system.cpp, models/ascend/
// udma_engine.cpp, models/nvidia/device_memory.h, models/nvidia/nic.h).
constexpr uint64_t kAscendMetaBytes = 256 * kMiB;     // carved from each PE's HBM before the heap
constexpr uint64_t kAscendHeapAlignBytes = 2 * kMiB;  // the heap's alignment in HBM
constexpr uint64_t kAscendDoorbellBytes = 64 * kMiB;  // UDMA doorbell window per PE
constexpr uint64_t kNvidiaGranuleBytes = 2 * kMiB;    // per-GPU HBM stride granule
constexpr uint64_t kNvidiaRuntimeBytes = 256 * kMiB;  // runtime area of each GPU's HBM
constexpr uint64_t kNvidiaUarBytes = 1 * kMiB;        // NIC doorbell window per GPU

// Resident-memory costs, fitted upper-leaning to the maximum resident set size (/usr/bin/time
// -f %M) of udma_put_signal with 64-byte puts at 2, 64, 256, 512 and 1000 PEs: 13, 16, 56, 165
// and 591 MB (docs/robustness.md, "Estimates"). Rings, Unified Buffers and HBM are sparse:
// only what the kernel touches is resident, which the kernel's declared heap bounds.
constexpr uint64_t kProcessBytes = 16 * kMiB;   // the executable, SystemC, tables
constexpr uint64_t kPerPeBytes = 64 * kKiB;     // one PE's models and checker state
constexpr uint64_t kPerPePairBytes = 640;       // per-peer state (routes, QP and checker maps)
constexpr uint64_t kPerCoreBytes = 160 * kKiB;  // one running core: coroutine stack, pipes
// Written heap bytes cost 3-6% more (the checkers' and the visibility queue's records of the
// writes: 16 PEs x 4 MiB all-gather 1103 MB, 32 x 1 MiB 1078 MB): counted as 9/8 of them.
constexpr uint64_t kTraceEventBytes = 160;       // one buffered trace event
constexpr uint64_t kTraceMaxEvents = 2'000'000;  // TraceFilter::max_events

uint64_t round_up(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }

uint64_t param_u64(const Scenario& s, const char* key) {
  const auto it = s.params.find(key);
  return it == s.params.end() ? 0 : static_cast<uint64_t>(it->second);
}

void add(ResourceEstimate& e, std::string what, uint64_t bytes) {
  e.memory.push_back({std::move(what), bytes});
  e.memory_bytes += bytes;
}

}  // namespace

std::string format_bytes(uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    ++u;
  }
  if (u == 0) return fmt::format("{} B", bytes);
  return fmt::format("{:.1f} {}", v, units[u]);
}

std::string ResourceEstimate::address_space_summary() const {
  std::string out;
  for (const AddressRegion& r : regions)
    out += fmt::format("{}{} x {} {}", out.empty() ? "" : " + ", r.count, format_bytes(r.bytes), r.what);
  return out;
}

std::string ResourceEstimate::memory_summary() const {
  std::string out = format_bytes(memory_bytes) + " =";
  for (size_t i = 0; i < memory.size(); ++i)
    out += fmt::format("{} {} ({})", i ? " +" : "", format_bytes(memory[i].bytes), memory[i].what);
  return out;
}

ResourceEstimate estimate_resources(const Scenario& s, bool tracing) {
  ResourceEstimate e;
  const auto pes = static_cast<uint64_t>(s.pes);
  const uint64_t hbm = param_u64(s, "hbm.bytes");
  if (const KernelHeapBytes* declared = find_kernel_heap(s.kernel)) {
    const KernelHeap heap = (*declared)(KernelArgs(s.args, s.blocks), s.pes);
    e.heap_bytes_per_pe = heap.reserved_bytes;
    e.heap_touched_bytes_per_pe = heap.touched_bytes;
  }
  uint64_t cores_per_pe = static_cast<uint64_t>(std::max(s.blocks, 1));
  if (s.platform_family == "ascend") {
    const uint64_t cores = param_u64(s, "aiv.cores");
    const uint64_t per_qp = param_u64(s, "udma.sq_depth_bb") * 64 + param_u64(s, "udma.cq_depth") * 64;
    e.regions = {
        {"hbm per PE", hbm, pes, true},
        {"UDMA doorbell window", kAscendDoorbellBytes, pes, false},
        {"SQ/CQ rings per PE (one QP per block)", std::max<uint64_t>(per_qp * cores_per_pe, 1), pes, true},
        {"Unified Buffers per PE", std::max<uint64_t>(cores * param_u64(s, "aiv.ub_bytes"), 1), pes, true}};
    e.heap_limit_bytes_per_pe =
        hbm > kAscendMetaBytes + kAscendHeapAlignBytes ? hbm - kAscendMetaBytes - kAscendHeapAlignBytes : 0;
  } else {
    const uint64_t stride = round_up(std::max<uint64_t>(hbm, 1), kNvidiaGranuleBytes);
    e.regions = {
        {fmt::format("HBM mapping of all GPUs ({} x {})", pes, format_bytes(stride)), stride * pes, 1, true},
        {"NIC doorbell window", kNvidiaUarBytes, pes, false}};
    e.heap_limit_bytes_per_pe = hbm > 2 * kNvidiaRuntimeBytes ? (hbm - kNvidiaRuntimeBytes) / 2 : 0;
  }
  for (const AddressRegion& r : e.regions) e.address_space_bytes += r.bytes * r.count;

  add(e, "process", kProcessBytes);
  add(e, fmt::format("models: {} PEs x {}", pes, format_bytes(kPerPeBytes)), pes * kPerPeBytes);
  add(e, fmt::format("peers: {} PEs^2 x {} B", pes, kPerPePairBytes), pes * pes * kPerPePairBytes);
  add(e, fmt::format("cores: {} PEs x {} x {}", pes, cores_per_pe, format_bytes(kPerCoreBytes)),
      pes * cores_per_pe * kPerCoreBytes);
  if (e.heap_touched_bytes_per_pe)
    add(e,
        fmt::format("symmetric heap written: {} PEs x {} x 9/8", pes,
                    format_bytes(*e.heap_touched_bytes_per_pe)),
        pes * *e.heap_touched_bytes_per_pe / 8 * 9);
  else
    e.memory.push_back(
        {fmt::format("symmetric heap: not declared by kernel '{}', not counted", s.kernel), 0});
  if (tracing)
    add(e, fmt::format("trace buffer: up to {} events", kTraceMaxEvents), kTraceMaxEvents * kTraceEventBytes);
  return e;
}

AddressSpaceProbe probe_address_space(const ResourceEstimate& e, uint64_t headroom_bytes) {
  AddressSpaceProbe probe;
  std::vector<std::pair<void*, uint64_t>> mapped;
  auto reserve = [&](uint64_t bytes, bool accessible, const std::string& what) {
    void* p = mmap(nullptr, bytes, accessible ? PROT_READ | PROT_WRITE : PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
      probe.ok = false;
      probe.failed_at = fmt::format("{} failed", what);
      return false;
    }
    mapped.emplace_back(p, bytes);
    probe.reserved_bytes += bytes;
    return true;
  };
  // The run maps region kinds in this order, one region per PE of each (ascend_system.cpp).
  for (size_t k = 0; k < e.regions.size() && probe.ok; ++k) {
    const AddressRegion& r = e.regions[k];
    for (uint64_t i = 0; i < r.count && probe.ok; ++i)
      if (!reserve(r.bytes, r.accessible, fmt::format("{} #{} ({})", r.what, i, format_bytes(r.bytes))) &&
          i == 0 && k == 0)
        probe.first_pe_fits = false;
  }
  if (probe.ok)
    reserve(headroom_bytes, false,
            fmt::format("headroom for the rest of the run ({})", format_bytes(headroom_bytes)));
  for (const auto& [p, bytes] : mapped) munmap(p, bytes);
  return probe;
}

uint64_t available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream ss(line.substr(13));
    uint64_t kib = 0;
    ss >> kib;
    return kib * 1024;
  }
  return 0;
}

}  // namespace symsim

// The CUDA shim's runtime: one host program per GPU (a SystemC thread), the host calls of
// cuda_runtime.h and runtime.h, kernel launches onto the GPU schedulers, and the per-thread
// builtins (threadIdx and friends).
#include <systemc>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "cooperative_groups.h"
#include "cuda_runtime.h"
#include "models/core/sanitizers.h"
#include "models/nvidia/gpu_scheduler.h"
#include "models/nvidia/nvidia_system.h"
#include "symsim/cuda/runtime.h"

namespace symsim::cuda {

namespace {

struct Host {
  int rank = 0;
  bool finished = false;
  std::string waiting_on;
  cudaError_t last_error = cudaSuccess;
  cudaError_t sticky = cudaSuccess;
  std::vector<std::shared_ptr<nv::Launch>> launches;  // not yet synchronised
};

struct World {
  nv::NvidiaSystem* sys = nullptr;
  std::vector<Host> hosts;
  Host* current = nullptr;
  std::vector<LaunchError> errors;
  std::vector<KernelSpan> spans;
  int barrier_arrived = 0;
  uint64_t barrier_generation = 0;
  sc_core::sc_event barrier_event;
};
std::unique_ptr<World> g_world;

Ps now_ps() { return static_cast<Ps>(sc_core::sc_time_stamp().value()); }

Host& host() {
  if (!g_world || !g_world->current) throw std::logic_error("a CUDA host call was made outside a host program");
  return *g_world->current;
}

// Blocks the host program on `ev` (or for `d`), saying on what; restores "current" after.
void host_wait_event(sc_core::sc_event& ev, const std::string& what) {
  Host& h = host();
  h.waiting_on = what;
  g_world->sys->host_busy(-1);
  sc_core::wait(ev);
  g_world->sys->host_busy(+1);
  g_world->current = &h;
  h.waiting_on.clear();
}
void host_wait_time(Ps d) {
  Host& h = host();
  if (d > 0) sc_core::wait(sc_core::sc_time::from_value(d));
  g_world->current = &h;
}

Ps copy_ps(size_t bytes) {
  const auto& p = g_world->sys->params();
  return ns_to_ps(p.host_memcpy_latency_us * 1000.0) + transfer_ps(bytes, p.host_memcpy_gbytes_per_s);
}

cudaError_t set_error(cudaError_t e) {
  host().last_error = e;
  return e;
}

}  // namespace

nv::NvidiaSystem& system() { return *g_world->sys; }
int my_rank() { return host().rank; }
int n_ranks() { return g_world->sys->n_gpus(); }
int nvlink_domain_size() { return static_cast<int>(g_world->sys->params().nvlink_gpus_per_domain); }
uint8_t* sym_heap_base() { return g_world->sys->memory().sym_base(my_rank()); }
uint64_t sym_heap_stride() { return g_world->sys->memory().stride(); }

void host_barrier() {
  World& w = *g_world;
  Host& h = host();
  const uint64_t gen = w.barrier_generation;
  if (++w.barrier_arrived == static_cast<int>(w.hosts.size())) {
    w.barrier_arrived = 0;
    ++w.barrier_generation;
    w.barrier_event.notify(sc_core::SC_ZERO_TIME);
    sc_core::wait(sc_core::SC_ZERO_TIME);
    w.current = &h;
    return;
  }
  while (w.barrier_generation == gen) host_wait_event(w.barrier_event, "a host barrier");
}

void* sym_malloc(size_t bytes, size_t align) {
  uint8_t* p = g_world->sys->memory().sym_alloc(my_rank(), bytes, align);
  host_barrier();  // as nvshmem_malloc: every GPU has it before anyone uses it
  return p;
}

void fill_device(void* dst, const void* src, size_t bytes) { cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice); }

int launch_kernel(const char* name, dim3 grid, dim3 block, size_t dyn_smem_bytes, cudaStream_t, std::function<void()> body,
                  bool cooperative) {
  Host& h = host();
  nv::NvidiaSystem& sys = *g_world->sys;
  const auto& p = sys.params();
  const uint32_t threads = block.x * block.y * block.z;
  const uint32_t ctas = grid.x * grid.y * grid.z;
  if (threads == 0 || threads > p.sm_max_threads || ctas == 0 || dyn_smem_bytes > p.sm_smem_bytes) {
    return set_error(cudaErrorInvalidValue);
  }
  if (cooperative && ctas > p.sm_count) return set_error(cudaErrorCooperativeLaunchTooLarge);
  if (h.sticky != cudaSuccess) return set_error(h.sticky);
  auto l = std::make_shared<nv::Launch>();
  l->name = name;
  l->gpu = h.rank;
  l->grid = {grid.x, grid.y, grid.z};
  l->block = {block.x, block.y, block.z};
  l->dyn_smem_bytes = dyn_smem_bytes;
  l->entry = std::move(body);
  host_wait_time(ns_to_ps(p.host_launch_us * 1000.0));  // the host's own cost of the launch call
  l->queued_ps = now_ps();
  l->start_ps = l->queued_ps + ns_to_ps(p.launch_start_us * 1000.0);
  // The cooperative grid barrier's counter, zero at launch.
  l->grid_sync_word = sys.memory().runtime_alloc(h.rank, 8, 8);
  std::memset(l->grid_sync_word, 0, 8);
  sys.scheduler(h.rank).enqueue(l);
  h.launches.push_back(l);
  return set_error(cudaSuccess);
}

cudaError_t stream_sync() {
  Host& h = host();
  cudaError_t result = cudaSuccess;
  for (auto& l : h.launches) {
    while (!l->done) host_wait_event(l->finished, fmt::format("kernel {} to finish", l->name));
    g_world->spans.push_back({h.rank, l->name, l->queued_ps, l->end_ps});
    if (l->failed) {
      g_world->errors.push_back({h.rank, l->name, l->error});
      h.sticky = l->error.rfind("deadlock", 0) == 0 || l->error.rfind("timeout", 0) == 0 ? cudaErrorLaunchTimeout
                                                                                           : cudaErrorLaunchFailure;
      result = h.sticky;
    }
  }
  h.launches.clear();
  if (result == cudaSuccess && h.sticky != cudaSuccess) result = h.sticky;
  return set_error(result);
}


void start(nv::NvidiaSystem& sys, std::function<void(int)> host_main) {
  g_world = std::make_unique<World>();
  World& w = *g_world;
  w.sys = &sys;
  nv::current_system() = &sys;
  w.hosts.resize(static_cast<size_t>(sys.n_gpus()));
  for (int r = 0; r < sys.n_gpus(); ++r) {
    Host& h = w.hosts[static_cast<size_t>(r)];
    h.rank = r;
    sys.host_busy(+1);
    constexpr size_t kStackBytes = 512 * 1024;
    sc_core::sc_spawn_options opts;
    opts.set_stack_size(kStackBytes);
    sc_core::sc_spawn(
        [&h, host_main]() {
          const CoroutineStackRoot live(kStackBytes);
          g_world->current = &h;
          host_main(h.rank);
          g_world->current = &h;
          // Work a program leaves behind still runs; the program is done when it has.
          if (!h.launches.empty()) stream_sync();
          h.finished = true;
          g_world->sys->host_busy(-1);
        },
        fmt::format("host_gpu{}", r).c_str(), &opts);
  }
}

void stop() {
  g_world.reset();
  nv::current_system() = nullptr;
}

bool all_hosts_finished() {
  for (const Host& h : g_world->hosts)
    if (!h.finished) return false;
  return true;
}

std::vector<std::string> host_waits() {
  std::vector<std::string> out;
  for (const Host& h : g_world->hosts)
    if (!h.finished)
      out.push_back(fmt::format("host program of GPU {} waits on {}", h.rank, h.waiting_on.empty() ? "nothing (running)" : h.waiting_on));
  return out;
}

const std::vector<LaunchError>& launch_errors() { return g_world->errors; }
const std::vector<KernelSpan>& kernel_spans() { return g_world->spans; }

uint3 thread_idx() {
  const nv::Dim3& d = nv::this_thread().idx;
  return {d.x, d.y, d.z};
}
uint3 block_idx() {
  const nv::Dim3& d = nv::this_thread().cta->idx;
  return {d.x, d.y, d.z};
}
dim3 block_dim() {
  const nv::Dim3& d = nv::this_thread().cta->launch->block;
  return {d.x, d.y, d.z};
}
dim3 grid_dim() {
  const nv::Dim3& d = nv::this_thread().cta->launch->grid;
  return {d.x, d.y, d.z};
}
void* dynamic_smem() { return nv::this_thread().cta->smem.data(); }

}  // namespace symsim::cuda

using namespace symsim;

cudaError_t cudaMalloc(void** p, size_t bytes) {
  cuda::host();
  if (!p) return cuda::set_error(cudaErrorInvalidValue);
  try {
    // The GPU's driver puts an allocation of 2 MiB or more on its own 2 MiB pages (s28-part).
    const uint64_t align = bytes >= nv::DeviceMemory::kLargeAllocAlign ? nv::DeviceMemory::kLargeAllocAlign : 256;
    *p = cuda::system().memory().private_alloc(cuda::my_rank(), bytes, align);
  } catch (const std::exception&) {
    return cuda::set_error(cudaErrorMemoryAllocation);
  }
  return cuda::set_error(cudaSuccess);
}

cudaError_t cudaFree(void*) { return cudaSuccess; }  // bump allocation: freed with the run

cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  cuda::host();
  const auto& p = cuda::system().params();
  // Device to device: the GPU's copy engine reads and writes HBM; otherwise a host transfer.
  cuda::host_wait_time(kind == cudaMemcpyDeviceToDevice
                           ? ns_to_ps(p.memcpy_d2d_us * 1000.0) + transfer_ps(bytes, p.memcpy_d2d_gbytes_per_s)
                           : cuda::copy_ps(bytes));
  cuda::system().visibility().settle(cuda::now_ps());  // device data that has landed by now
  std::memmove(dst, src, bytes);
  cuda::system().l2_access(dst, bytes, /*write=*/true);  // copy-engine writes allocate in the destination's L2
  return cuda::set_error(cudaSuccess);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t) {
  cudaStreamSynchronize(nullptr);
  return cudaMemcpy(dst, src, bytes, kind);
}

cudaError_t cudaMemset(void* dst, int value, size_t bytes) {
  cuda::host();
  cuda::host_wait_time(cuda::copy_ps(0));
  cuda::system().visibility().settle(cuda::now_ps());
  std::memset(dst, value, bytes);
  // Its writes allocate in L2 (what does not fit pushes out what was there).
  // Without that, they still pass through it and push out what they need room for
  // (rows fresh.*.evicted: a 160 MiB memset leaves the window out of L2 on the GPU).
  const auto& p = cuda::system().params();
  if (p.l2_memset_allocates) {
    cuda::system().l2_access(dst, bytes, /*write=*/true);  // its lines dirty, as a copy's
  } else if (p.l2_memset_displaces) {
    cuda::system().l2_displace(dst, bytes);
  }
  return cuda::set_error(cudaSuccess);
}

cudaError_t cudaStreamSynchronize(cudaStream_t) { return cuda::stream_sync(); }
cudaError_t cudaDeviceSynchronize() { return cuda::stream_sync(); }

cudaError_t cudaStreamCreate(cudaStream_t* s) {
  if (s) *s = nullptr;
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaGetLastError() {
  cuda::Host& h = cuda::host();
  const cudaError_t e = h.last_error;
  h.last_error = h.sticky;
  return e;
}
cudaError_t cudaPeekAtLastError() { return cuda::host().last_error; }
const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
  }
  return "unknown error";
}
cudaError_t cudaGetDevice(int* d) {
  if (d) *d = cuda::my_rank();
  return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int* n) {
  if (n) *n = 1;  // each host program sees its own GPU
  return cudaSuccess;
}

// Events: where the GPU's queue stood when the host recorded it (the last launch queued before).
struct CUevent_st {
  bool recorded = false;
  Ps host_ps = 0;
  std::shared_ptr<nv::Launch> after;
};

namespace {
bool event_done(const CUevent_st& e) { return !e.after || e.after->done; }
Ps event_ps(const CUevent_st& e) { return e.after ? std::max(e.host_ps, e.after->end_ps) : e.host_ps; }
}  // namespace

cudaError_t cudaEventCreate(cudaEvent_t* e) { return cudaEventCreateWithFlags(e, cudaEventDefault); }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned) {
  if (!e) return cuda::set_error(cudaErrorInvalidValue);
  *e = new CUevent_st;
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t e) {
  delete e;
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t) {
  cuda::Host& h = cuda::host();
  if (!e) return cuda::set_error(cudaErrorInvalidResourceHandle);
  e->recorded = true;
  e->host_ps = cuda::now_ps();
  e->after = h.launches.empty() ? nullptr : h.launches.back();
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  cuda::host();
  if (!e) return cuda::set_error(cudaErrorInvalidResourceHandle);
  while (!event_done(*e)) cuda::host_wait_event(e->after->finished, fmt::format("an event after kernel {}", e->after->name));
  return cudaSuccess;
}
cudaError_t cudaEventQuery(cudaEvent_t e) {
  if (!e) return cudaErrorInvalidResourceHandle;
  return event_done(*e) ? cudaSuccess : cudaErrorNotReady;
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms || !start || !end) return cuda::set_error(cudaErrorInvalidValue);
  if (!start->recorded || !end->recorded) return cuda::set_error(cudaErrorInvalidResourceHandle);
  if (!event_done(*start) || !event_done(*end)) return cuda::set_error(cudaErrorNotReady);
  *ms = static_cast<float>((static_cast<double>(event_ps(*end)) - static_cast<double>(event_ps(*start))) / 1e9);
  return cudaSuccess;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t e, unsigned) {
  return e ? cudaSuccess : cudaErrorInvalidResourceHandle;  // one in-order queue per GPU
}

namespace cooperative_groups {

// The grid barrier: thread 0 of every CTA adds to a counter with release semantics (CTA 0
// adds 0x80000000 - (n - 1), the others 1, so bit 31 flips when all have arrived) and polls it
// with acquire semantics, between two CTA barriers.
void grid_group::sync(::symsim::nv::Site s) const {
  nv::CudaThread& t = nv::this_thread();
  auto* word = reinterpret_cast<uint32_t*>(t.cta->launch->grid_sync_word);
  const uint32_t n = t.cta->launch->grid.count();
  __syncthreads(s);
  if (t.tid == 0) {
    const uint32_t add = t.cta->index == 0 ? 0x80000000u - (n - 1) : 1u;
    const uint32_t old = cuda::atom<uint32_t>(word, nv::AtomicOp::Add, add, 0u, nv::Sem::Release, nv::Scope::Gpu, true, s);
    while (((cuda::ld<uint32_t>(word, nv::Sem::Acquire, nv::Scope::Gpu, s) ^ old) & 0x80000000u) == 0) {
    }
  }
  __syncthreads(s);
}
unsigned long long grid_group::size() const {
  const nv::Launch& l = *nv::this_thread().cta->launch;
  return static_cast<unsigned long long>(l.grid.count()) * l.block.count();
}
unsigned long long grid_group::thread_rank() const {
  const nv::CudaThread& t = nv::this_thread();
  return static_cast<unsigned long long>(t.cta->index) * t.cta->launch->block.count() + t.tid;
}
unsigned thread_block::thread_rank() const { return nv::this_thread().tid; }
unsigned thread_block::size() const { return nv::this_thread().cta->launch->block.count(); }
grid_group this_grid() { return {}; }
thread_block this_thread_block() { return {}; }

}  // namespace cooperative_groups

// symsim-hw's world: PEs, GPUs and the symmetric heap (CUDA virtual memory management), and
// the host-side calls of the shim's runtime.h / ibgda_host.h for real GPUs.
#include "hw/runtime/hw_world.h"

#include <cuda.h>

#include <condition_variable>
#include <ctime>
#include <mutex>
#include <stdexcept>
#include <string>

#include "symsim/cuda/ibgda_host.h"
#include "symsim/cuda/runtime.h"

namespace symsim::hw {

namespace {

void drv(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) {
    const char* msg = nullptr;
    cuGetErrorString(r, &msg);
    throw std::runtime_error(std::string(what) + ": " + (msg ? msg : "unknown CUDA driver error"));
  }
}

struct World {
  int pes = 0;
  int gpus = 1;
  size_t stride = 0;
  CUdeviceptr base = 0;
  std::vector<CUmemGenericAllocationHandle> handles;
  std::vector<size_t> offsets;  // per PE, bytes used of its heap
  // host_barrier
  std::mutex mutex;
  std::condition_variable cv;
  int arrived = 0;
  uint64_t generation = 0;
  bool aborted = false;
  std::vector<LaunchRecord> launches;
  int repetition = -1;  // counted by world_reset()
};

World& world() {
  static World w;
  return w;
}

thread_local int t_pe = -1;
thread_local LaunchRecord t_pending;
LaunchHold g_hold = LaunchHold::kNone;
// The calling thread's hold flag (mapped pinned host memory) and the value that releases the
// next launch: counting up, so the flag never has to be reset between launches.
thread_local uint32_t* t_hold_flag = nullptr;
thread_local uint32_t t_hold_value = 0;

__global__ void hold_spin(const volatile uint32_t* flag, uint32_t value) {
  while (*flag < value) {
  }
}

int current_pe() {
  if (t_pe < 0) throw std::logic_error("a shim call outside a PE's host program");
  return t_pe;
}

}  // namespace

void world_init(int pes, size_t heap_bytes, int gpus_to_use) {
  World& w = world();
  w.pes = pes;
  w.gpus = gpus_to_use;
  drv(cuInit(0), "cuInit");
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  size_t granularity = 0;
  drv(cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED), "cuMemGetAllocationGranularity");
  w.stride = (heap_bytes + granularity - 1) / granularity * granularity;
  drv(cuMemAddressReserve(&w.base, w.stride * pes, granularity, 0, 0), "cuMemAddressReserve");
  for (int pe = 0; pe < pes; ++pe) {
    prop.location.id = gpu_of(pe);
    CUmemGenericAllocationHandle h;
    drv(cuMemCreate(&h, w.stride, &prop, 0), "cuMemCreate");
    drv(cuMemMap(w.base + w.stride * pe, w.stride, 0, h, 0), "cuMemMap");
    w.handles.push_back(h);
  }
  std::vector<CUmemAccessDesc> access(static_cast<size_t>(w.gpus));
  for (int g = 0; g < w.gpus; ++g) {
    access[g].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    access[g].location.id = g;
    access[g].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  }
  drv(cuMemSetAccess(w.base, w.stride * pes, access.data(), access.size()), "cuMemSetAccess (every GPU reaches every heap)");
  w.offsets.assign(static_cast<size_t>(pes), 0);
  // Load the spin kernel now: loading it lazily at its first launch would wait for other PEs' held streams.
  cudaFuncAttributes spin{};
  for (int g = 0; g < w.gpus && g_hold == LaunchHold::kSpin; ++g)
    if (cudaSetDevice(g) != cudaSuccess || cudaFuncGetAttributes(&spin, hold_spin) != cudaSuccess)
      throw std::runtime_error("SYMSIM_HW_HOLD_LAUNCH=spin: loading the spin kernel failed");
}

void world_finish() {
  World& w = world();
  if (!w.base) return;
  cuMemUnmap(w.base, w.stride * w.pes);
  for (CUmemGenericAllocationHandle h : w.handles) cuMemRelease(h);
  cuMemAddressFree(w.base, w.stride * w.pes);
  w.base = 0;
  w.handles.clear();
}

void world_reset() {
  World& w = world();
  const std::lock_guard<std::mutex> lock(w.mutex);
  w.offsets.assign(static_cast<size_t>(w.pes), 0);
  ++w.repetition;
  w.arrived = 0;
  w.aborted = false;
  for (LaunchRecord& r : w.launches) {
    cudaEventDestroy(r.start);
    cudaEventDestroy(r.stop);
  }
  w.launches.clear();
}

int world_pes() { return world().pes; }
int world_gpus() { return world().gpus; }
int gpu_of(int pe) { return pe % world().gpus; }

void enter_pe(int pe) {
  t_pe = pe;
  if (cudaSetDevice(gpu_of(pe)) != cudaSuccess) throw std::runtime_error("cudaSetDevice failed");
}

void abort_host_barriers() {
  World& w = world();
  const std::lock_guard<std::mutex> lock(w.mutex);
  w.aborted = true;
  w.cv.notify_all();
}

std::vector<LaunchRecord> launches() {
  World& w = world();
  const std::lock_guard<std::mutex> lock(w.mutex);
  return w.launches;
}

// ---- launch timing hooks (kernels/shim/cuda/device/symsim_launch.cuh) --------------------
namespace {
long long realtime_ns() {
  timespec t{};
  clock_gettime(CLOCK_REALTIME, &t);
  return static_cast<long long>(t.tv_sec) * 1000000000LL + t.tv_nsec;
}

// Queues the stream's wait for the flag to reach the next value (before the start event).
void hold_stream() {
  if (!t_hold_flag) {
    void* p = nullptr;
    if (cudaHostAlloc(&p, sizeof(uint32_t), cudaHostAllocMapped | cudaHostAllocPortable) != cudaSuccess)
      throw std::runtime_error("SYMSIM_HW_HOLD_LAUNCH: cudaHostAlloc of the hold flag failed");
    t_hold_flag = static_cast<uint32_t*>(p);
    *t_hold_flag = 0;
  }
  ++t_hold_value;
  void* dev = nullptr;
  if (cudaHostGetDevicePointer(&dev, t_hold_flag, 0) != cudaSuccess)
    throw std::runtime_error("SYMSIM_HW_HOLD_LAUNCH: cudaHostGetDevicePointer of the hold flag failed");
  if (g_hold == LaunchHold::kWait)
    drv(cuStreamWaitValue32(CU_STREAM_PER_THREAD, reinterpret_cast<CUdeviceptr>(dev), t_hold_value, CU_STREAM_WAIT_VALUE_GEQ),
        "SYMSIM_HW_HOLD_LAUNCH=wait: cuStreamWaitValue32");
  else
    hold_spin<<<1, 1, 0, cudaStreamPerThread>>>(static_cast<const uint32_t*>(dev), t_hold_value);
}
}  // namespace

void set_launch_hold(LaunchHold hold) { g_hold = hold; }

const char* launch_hold_name(LaunchHold hold) {
  return hold == LaunchHold::kWait ? "wait" : hold == LaunchHold::kSpin ? "spin" : "none";
}

void launch_begin(const char* kernel) {
  t_pending = LaunchRecord{};
  t_pending.pe = current_pe();
  t_pending.gpu = gpu_of(t_pending.pe);
  t_pending.kernel = kernel;
  // The first repetition goes as issued: its launches load the kernels lazily, and a load waits
  // for the whole context, held stream included (CUDA's lazy loading; it hung every held row).
  t_pending.hold = world().repetition > 0 ? g_hold : LaunchHold::kNone;
  cudaEventCreate(&t_pending.start);
  cudaEventCreate(&t_pending.stop);
  if (t_pending.hold != LaunchHold::kNone) hold_stream();
  t_pending.host_ns[0] = realtime_ns();
  cudaEventRecord(t_pending.start, cudaStreamPerThread);
  t_pending.host_ns[1] = realtime_ns();
}

cudaError_t launch_end(cudaError_t launched) {
  t_pending.host_ns[2] = realtime_ns();
  cudaEventRecord(t_pending.stop, cudaStreamPerThread);
  if (t_pending.hold != LaunchHold::kNone) __atomic_store_n(t_hold_flag, t_hold_value, __ATOMIC_SEQ_CST);  // release the stream
  t_pending.host_ns[3] = realtime_ns();
  t_pending.launched = launched;
  World& w = world();
  const std::lock_guard<std::mutex> lock(w.mutex);
  w.launches.push_back(t_pending);
  return launched;
}

}  // namespace symsim::hw

// ---- the shim's host API (kernels/shim/cuda/include/symsim/cuda/*.h) on real GPUs ---------
namespace symsim::cuda {

using hw::world;

int my_rank() { return hw::current_pe(); }
int n_ranks() { return world().pes; }
int nvlink_domain_size() { return world().pes; }  // one GPU, or GPUs of one host: all peers

void host_barrier() {
  hw::World& w = world();
  std::unique_lock<std::mutex> lock(w.mutex);
  const uint64_t gen = w.generation;
  if (!w.aborted && ++w.arrived == w.pes) {
    w.arrived = 0;
    ++w.generation;
    w.cv.notify_all();
  } else {
    w.cv.wait(lock, [&] { return w.generation != gen || w.aborted; });
  }
  if (w.aborted) throw std::runtime_error("another PE's host program failed: host barrier abandoned");
}

void* sym_malloc(size_t bytes, size_t align) {
  hw::World& w = world();
  const int pe = hw::current_pe();
  size_t off = 0;
  {
    const std::lock_guard<std::mutex> lock(w.mutex);
    size_t& used = w.offsets[static_cast<size_t>(pe)];
    off = (used + align - 1) / align * align;
    if (off + bytes > w.stride)
      throw std::runtime_error("symmetric heap exhausted: raise symsim-hw --heap-mib (" + std::to_string(w.stride >> 20) + " MiB per PE)");
    used = off + bytes;
  }
  host_barrier();  // as nvshmem_malloc: every PE has it before anyone uses it
  return reinterpret_cast<void*>(w.base + w.stride * pe + off);
}

uint8_t* sym_heap_base() { return reinterpret_cast<uint8_t*>(world().base + world().stride * hw::current_pe()); }
uint64_t sym_heap_stride() { return world().stride; }

void fill_device(void* dst, const void* src, size_t bytes) {
  if (cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice) != cudaSuccess) throw std::runtime_error("fill_device: cudaMemcpy failed");
}

SymWindow sym_window() {
  SymWindow win;
  win.rank = my_rank();
  win.n_ranks = n_ranks();
  win.lsa_size = nvlink_domain_size();
  win.lsa_team = win.rank / win.lsa_size;
  win.lsa_base_ptr = sym_heap_base();
  win.lsa_stride = sym_heap_stride();
  return win;
}

std::vector<int64_t> sym_addresses(const void* p) {
  const int64_t off = static_cast<const uint8_t*>(p) - sym_heap_base();
  std::vector<int64_t> out;
  for (int r = 0; r < n_ranks(); ++r) out.push_back(static_cast<int64_t>(world().base + world().stride * r) + off);
  return out;
}

ibgda::State* ibgda_init(const IbgdaOptions&) {
  throw std::runtime_error(
      "GPU-driven RDMA (IBGDA) needs an RDMA NIC with its queues mapped into GPU memory; symsim-hw has no NIC driver, so "
      "kernels/ibgda kernels are compiled for sm_90a but cannot run here");
}
gin::Handle gin_init(const IbgdaOptions& o) {
  ibgda_init(o);
  return {};
}

}  // namespace symsim::cuda

// An NVIDIA platform of n GPUs: HBM of every GPU (one flat reservation), NVLink domains behind
// NVSwitches, one RC NIC per GPU over PCIe and the InfiniBand fabric between NICs, the shared
// visibility queue, the memory-ordering model and one SM scheduler per GPU. Built before
// sc_start; one per process. The platform is the SystemC module "platform": "platform.gpu0"
// (gpu.h: SMs, TMA units, HBM target, NIC) and "platform.nvlink" (its links) are its children.
#pragma once
#include <systemc>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/core/bandwidth.h"
#include "models/core/observer.h"
#include "models/fabric/fabric.h"
#include "models/memory/address_map.h"
#include "models/memory/visibility_queue.h"
#include "models/nvidia/current_system.h"
#include "models/nvidia/device_memory.h"
#include "models/nvidia/fiber.h"
#include "models/nvidia/gpu_scheduler.h"
#include "models/nvidia/l2_residency.h"
#include "models/nvidia/mem_order.h"
#include "models/nvidia/nvidia_params.h"
#include "models/nvidia/nvlink.h"
#include "models/ptx/ptx_rng.h"

namespace symsim::nv {

class Gpu;
class Nic;

// When a write lands: unit k of `unit_bytes` at first_ps + k * interval_ps, all by last_ps.
struct Landing {
  Ps first_ps = 0;
  Ps interval_ps = 0;
  uint32_t unit_bytes = 0;
  Ps last_ps = 0;
};

class NvidiaSystem : public sc_core::sc_module {
 public:
  NvidiaSystem(const NvidiaParams& params, int n_gpus, uint64_t seed, sc_core::sc_module_name name = "platform");
  ~NvidiaSystem() override;
  const char* kind() const override { return "symsim::nv::NvidiaSystem"; }

  int n_gpus() const { return m_n_gpus; }
  const NvidiaParams& params() const { return m_params; }
  DeviceMemory& memory() { return m_memory; }
  NvlinkNetwork& nvlink() { return m_nvlink; }
  Fabric& ib() { return m_ib; }
  VisibilityQueue& visibility() { return m_visibility; }
  Hooks& hooks() { return m_hooks; }
  OrderModel& order() { return m_order; }
  AddressMap& addresses() { return m_addresses; }
  StackPool& stacks() { return m_stacks; }
  GpuScheduler& scheduler(int gpu) { return *m_schedulers[gpu]; }
  Gpu& gpu(int gpu) { return *m_gpus[gpu]; }
  Nic& nic(int gpu);
  BandwidthResource& hbm_port(int gpu) { return m_hbm_ports[gpu]; }
  L2Residency& l2(int gpu) { return m_l2[gpu]; }
  // What a load that has just missed `gpu`'s L2 waits for the write-back of the dirty lines its
  // lines pushed out (L2Residency::last_dirty_victims): their bytes at l2.dirty_victim_gbytes_per_s,
  // at most l2.dirty_victim_max_ns (docs/hw-accuracy.md, thirty-eighth pass (s32-bulk)).
  Ps dirty_victims_wait_ps(int gpu) const;
  // Brings [p, p + bytes) into its owner's L2 when it is GPU memory (writes of any agent
  // allocate there); true when it was all there already.
  bool l2_access(const void* p, uint64_t bytes, bool write = false);  // write: its lines are dirty after it
  void l2_displace(const void* p, uint64_t bytes);  // a host memset's writes that do not stay
  BandwidthResource& pcie_up(int gpu) { return m_pcie_up[gpu]; }      // GPU -> NIC
  BandwidthResource& pcie_down(int gpu) { return m_pcie_down[gpu]; }  // NIC -> GPU

  // --- Timing of the memory paths (what an SM or the NIC sees) ---
  // True when `from` may access memory of `owner` directly (itself or an NVLink peer).
  bool reachable(int from, int owner) const { return from == owner || m_nvlink.connected(from, owner); }
  // One-way latency from an SM of `from` to the memory of `owner` (request or store head).
  Ps one_way_ps(int from, int owner) const;
  // When `bytes` written by an SM of `from` at `t_ps` land in the memory of `owner`.
  Landing store_landing(int from, int owner, uint64_t bytes, Ps t_ps);
  // When `bytes` read from `owner` (sampled at `sample_ps`) are back at an SM of `to`.
  Ps read_return_ps(int owner, int to, uint64_t bytes, Ps sample_ps);
  // Seeded extra delay of a weak or relaxed store: 0 .. mem.reorder_window_ns (local) or
  // nvlink.reorder_window_ns (to a peer).
  Ps reorder_jitter_ps(bool remote);
  ptx::Rng& rng() { return m_rng; }

  // --- Hang detection: threads that can make no progress on their own ---
  // A thread started (+1) or finished (-1).
  void thread_live(int delta) { m_live += delta; }
  // A thread became idle (blocked, or polling with nothing changing) or busy again.
  // (A deadlock needs every live thread idle: the common case returns here, inline.)
  void thread_idle(bool idle) {
    idle ? ++m_idle : --m_idle;
    if (m_idle >= m_live) check_deadlock();
  }
  // An idle thread polled again: in-flight work may have drained meanwhile.
  void idle_poll() {
    if (m_idle >= m_live) check_deadlock();
  }
  // Host programs doing something other than waiting for a kernel.
  void host_busy(int delta) { m_hosts_busy += delta; check_deadlock(); }
  bool deadlocked() const { return m_deadlocked; }
  uint64_t live_threads() const { return m_live; }
  // Called by the scheduler that found a deadlock: stops every GPU's launch.
  void abort_all(const std::string& why);
  // A launch stopped because it could not progress: `kind` is deadlock or timeout.
  struct Hang {
    int gpu;
    std::string kind;
    std::vector<std::string> waits;
    Ps time_ps;
  };
  void record_hang(int gpu, const std::string& kind, std::vector<std::string> waits);
  const std::vector<Hang>& hangs() const { return m_hangs; }

 private:
  void check_deadlock();

  NvidiaParams m_params;
  int m_n_gpus;
  DeviceMemory m_memory;
  NvlinkNetwork m_nvlink;
  Fabric m_ib;
  VisibilityQueue m_visibility;
  Hooks m_hooks;
  OrderModel m_order;
  AddressMap m_addresses;
  StackPool m_stacks;
  ptx::Rng m_rng;
  std::vector<BandwidthResource> m_hbm_ports, m_pcie_up, m_pcie_down;
  std::vector<L2Residency> m_l2;
  std::vector<std::unique_ptr<GpuScheduler>> m_schedulers;
  std::vector<std::unique_ptr<Gpu>> m_gpus;
  uint64_t m_live = 0, m_idle = 0;
  int m_hosts_busy = 0;
  bool m_deadlocked = false;
  std::vector<Hang> m_hangs;
};

// A name for a simulated address that is the same in every run ("gpu1.heap+0x200",
// "smem+0x40", "gpu0.nic.uar"): host addresses differ from run to run.
std::string addr_text(uintptr_t a);
inline std::string addr_text(const void* p) { return addr_text(reinterpret_cast<uintptr_t>(p)); }

}  // namespace symsim::nv

// The runtime side of translated inline PTX (symsim/cuda/inline_ptx.h): shared-window
// addresses, vector loads and stores as one access, special registers, elect.sync.
#include "symsim/cuda/inline_ptx.h"

#include <string>

#include "models/core/time.h"
#include "models/nvidia/cuda_thread.h"
#include "models/nvidia/nvidia_params.h"
#include "models/nvidia/nvidia_system.h"

extern "C" {
extern uint8_t __start_symsim_shared[] __attribute__((weak));
}

namespace symsim::cuda {

namespace {
// 32-bit shared addresses: the static __shared__ section from 0, dynamic shared memory
// (extern __shared__) from kDynamicBase, as the hardware puts dynamic after static, and a kernel
// library's static __shared__ variables (static_smem) from kLibraryStaticBase.
constexpr uint64_t kDynamicBase = 0x100000;
constexpr uint64_t kLibraryStaticBase = 0x400000;
}  // namespace

void* dynamic_smem();

}  // namespace symsim::cuda

// Generic -> shared window, and back (nvcc builtins).
size_t __cvta_generic_to_shared(const void* p) {
  const auto a = reinterpret_cast<uintptr_t>(p);
  const auto dyn = reinterpret_cast<uintptr_t>(symsim::cuda::dynamic_smem());
  const symsim::nv::Cta& cta = *symsim::nv::this_thread().cta;
  if (a >= dyn && a - dyn < cta.smem.size() + 1) return static_cast<size_t>(symsim::cuda::kDynamicBase + (a - dyn));
  const auto vars = reinterpret_cast<uintptr_t>(cta.static_vars.get());
  if (vars && a >= vars && a - vars < cta.static_vars_bytes + 1)
    return static_cast<size_t>(symsim::cuda::kLibraryStaticBase + (a - vars));
  return static_cast<size_t>(a - reinterpret_cast<uintptr_t>(__start_symsim_shared));
}
void* __cvta_shared_to_generic(size_t a) { return symsim::cuda::ptx_asm::ptr(a, 0); }

namespace symsim::cuda::ptx_asm {

void* ptr(uint64_t address, int64_t offset_bytes) {
  uint8_t* base;
  if (address >> 32) {
    base = reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(address));
  } else if (address >= kLibraryStaticBase) {
    base = nv::this_thread().cta->static_vars.get() + (address - kLibraryStaticBase);
  } else if (address >= kDynamicBase) {
    base = static_cast<uint8_t*>(dynamic_smem()) + (address - kDynamicBase);
  } else {
    base = __start_symsim_shared + address;
  }
  return base + offset_bytes;
}

void ld(uint64_t* out, void* address, uint32_t elem_bytes, uint32_t n, Sem sem, Scope scope, Site site) {
  uint8_t buf[64] = {};
  nv::load(buf, address, elem_bytes * n, sem, scope, site);
  for (uint32_t i = 0; i < n; ++i) {
    out[i] = 0;
    std::memcpy(&out[i], buf + i * elem_bytes, elem_bytes);
  }
}

void st(void* address, const uint64_t* values, uint32_t elem_bytes, uint32_t n, Sem sem, Scope scope, Site site) {
  uint8_t buf[64] = {};
  for (uint32_t i = 0; i < n; ++i) std::memcpy(buf + i * elem_bytes, &values[i], elem_bytes);
  nv::store(address, buf, elem_bytes * n, sem, scope, site);
}

uint64_t special(const char* name) {
  const nv::CudaThread& t = nv::this_thread();
  const nv::Cta& c = *t.cta;
  const nv::Launch& l = *c.launch;
  const std::string r = name;
  auto dim = [&r](const nv::Dim3& d) -> uint64_t { return r.back() == 'x' ? d.x : r.back() == 'y' ? d.y : d.z; };
  const nv::Dim3 tid{t.idx.x, t.idx.y, t.idx.z};
  if (r == "%smid") return static_cast<uint64_t>(c.sm);
  if (r == "%nsmid") return static_cast<uint64_t>(nv::this_system().params().sm_count);
  if (r == "%laneid") return t.lane;
  if (r == "%warpid") return t.warp;
  if (r == "%clock" || r == "%clock64") return nv::clock64();
  if (r == "%globaltimer") return static_cast<uint64_t>(t.local_ps / 1000);  // ns
  if (r.rfind("%tid.", 0) == 0) return dim(tid);
  if (r.rfind("%ntid.", 0) == 0) return dim(l.block);
  if (r.rfind("%ctaid.", 0) == 0) return dim(c.idx);
  if (r.rfind("%nctaid.", 0) == 0) return dim(l.grid);
  const uint32_t lane_bit = 1u << t.lane;
  if (r == "%lanemask_eq") return lane_bit;
  if (r == "%lanemask_lt") return lane_bit - 1;
  if (r == "%lanemask_le") return (lane_bit - 1) | lane_bit;
  if (r == "%lanemask_gt") return ~((lane_bit - 1) | lane_bit) & 0xffffffffu;
  if (r == "%lanemask_ge") return ~(lane_bit - 1) & 0xffffffffu;
  nv::trap(("inline PTX reads an unknown special register " + r).c_str());
}

uint64_t mbar_arrive_token(void* mbar, uint32_t count, uint32_t tx_bytes, Site site) {
  nv::Cta& c = *nv::this_thread().cta;
  const auto it = c.mbarriers.find(reinterpret_cast<uintptr_t>(mbar));
  const uint64_t phase = it == c.mbarriers.end() ? 0 : it->second.phase;  // arrive traps when uninitialised
  nv::mbar_arrive(mbar, count, tx_bytes, site);
  return phase;
}

void mbar_inval(void* mbar) {
  nv::this_thread().cta->mbarriers.erase(reinterpret_cast<uintptr_t>(mbar));
  nv::work(1);
}

uint32_t elect(uint32_t mask, bool& is_elected, nv::Site site) {
  // .sync: every lane of the mask reaches the instruction before any goes on (what the lanes
  // stored before it, e.g. into shared memory for the leader's bulk copy, is then in place).
  nv::warp_op(nv::WarpOp::Sync, mask, 0, 0, 32, site);
  const uint32_t candidates = mask & nv::live_lanes();
  const uint32_t leader = candidates ? static_cast<uint32_t>(__builtin_ctz(candidates)) : 0;
  is_elected = nv::this_thread().lane == leader;
  return leader;
}

}  // namespace symsim::cuda::ptx_asm

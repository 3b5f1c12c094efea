// What the AscendC and CANN SHMEM shims share: the running block's context, call sites, traps.
// Kernel authors never include this directly.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace symsim {
class AivCore;
class AscendSystem;
}  // namespace symsim

namespace symsim::shim {

// Where in the kernel a shim call was made (for hazard reports): the return address of the shim
// entry point the kernel called. Recording it costs a pointer store; code_site.h turns it into
// file:line from the kernel's debug information only when a report names it.
struct CallSite {
  const void* pc = nullptr;
};

// At a shim entry point, a function compiled into symsim that kernel code calls: the call site.
// Shim code never calls an entry point itself (it calls the internal form that takes a CallSite),
// so the return address always lies in the kernel's code.
#define SYMSIM_CALLER() (::symsim::shim::CallSite{__builtin_return_address(0)})
// A shim header function between the kernel's call and an entry point: always inlined, so that
// the entry's return address lies in the kernel's function, and upstream's signature is kept.
#define SYMSIM_INLINE __attribute__((always_inline)) inline

// A kernel stopped on the device (trap(), a failed completion, a UB overflow).
struct KernelTrap : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The block running on an AIV core.
struct BlockContext {
  const char* kernel = "";
  uint32_t block_idx = 0;
  uint32_t block_num = 1;
  uint64_t ub_used_bytes = 0;  // TPipe allocations
  uint8_t* ub = nullptr;
  uint64_t ub_bytes = 0;
};

// system(), has_system() and core(): symsim/shim_runtime.h (inline there, where ExecContext is known).
BlockContext& block();      // the running block
int my_pe();
int n_pes();

[[noreturn]] void trap(const std::string& why);

// Uncached device store/load (bisheng st_dev / ld_dev): a store to a doorbell is an MMIO event.
// `observed`: the bytes the caller goes on to read.
// Stops the kernel when called inside a SIMT VF (st_dev / ld_dev are scalar-only).
namespace simt {
void reject_in_vf(const char* what);
}
void device_store(void* addr, uint64_t value, uint32_t bytes);
uint64_t device_load(const void* addr, uint32_t bytes);
// dcci: write back and invalidate; later loads see what others wrote up to now.
void cache_clean_invalidate(const void* addr, uint64_t bytes, uint64_t observed = 0);
// AscendC::printf: prints with a "[pe N aiv M]" prefix.
void kernel_printf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace symsim::shim

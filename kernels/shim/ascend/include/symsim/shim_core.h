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

// Where in the kernel source a shim call was made (for hazard reports).
struct CallSite {
  const char* file;
  int line;
  static constexpr CallSite here(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return {file, line};
  }
};

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

AscendSystem& system();
bool has_system();
AivCore& core();            // the running block's core (throws on a host thread)
BlockContext& block();      // the running block
int my_pe();
int n_pes();

[[noreturn]] void trap(const std::string& why);

// Uncached device store/load (bisheng st_dev / ld_dev): a store to a doorbell is an MMIO event.
// `site` is the kernel's call (hazard reports); `observed` the bytes the caller goes on to read.
// Stops the kernel when called inside a SIMT VF (st_dev / ld_dev are scalar-only).
namespace simt {
void reject_in_vf(const char* what, CallSite site);
}
void device_store(void* addr, uint64_t value, uint32_t bytes, CallSite site = {});
uint64_t device_load(const void* addr, uint32_t bytes, CallSite site = {});
// dcci: write back and invalidate; later loads see what others wrote up to now.
void cache_clean_invalidate(const void* addr, uint64_t bytes, CallSite site = {}, uint64_t observed = 0);
// AscendC::printf: prints with a "[pe N aiv M]" prefix.
void kernel_printf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace symsim::shim

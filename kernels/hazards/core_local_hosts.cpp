// Host drivers of the core-local hazard kernels: each copies `bytes` through the Unified
// Buffer and the driver checks the output (hazard_host::run_copy_kernel).
#include <fmt/format.h>

#include "kernels/hazards/common/hazard_host.h"

void launch_pipe_sync_missing(bool fixed, void* stream, uint8_t* in, uint8_t* out, uint32_t bytes);
void launch_event_id_unpaired(bool fixed, void* stream, uint8_t* in, uint8_t* out, uint32_t bytes);
void launch_ub_out_of_bounds(bool fixed, void* stream, uint8_t* in, uint8_t* out, uint32_t bytes);
void launch_unaligned_access(bool fixed, void* stream, uint8_t* in, uint8_t* out, uint32_t bytes);
void launch_core_write_race(bool fixed, void* stream, uint8_t* in, uint8_t* out, uint32_t bytes, uint32_t stagger_ns);

namespace {

template <hazard_host::CopyLaunch L>
void host(int pe, const symsim::KernelArgs& a, const char* name) {
  hazard_host::run_copy_kernel(pe, a, L, name);
}

symsim::KernelArg bytes_arg(double def, double min = 32) { return {"bytes", "bytes copied", min, 65536, def}; }
const symsim::KernelArg kFixed{"fixed", "1: the corrected kernel", 0, 1, 0};

}  // namespace

SYMSIM_REGISTER_KERNEL(hazard_pipe_sync_missing,
                       {"hazard_pipe_sync_missing", "ascend",
                        "pipe_sync_missing: MTE3 reads UB that MTE2 fills with no flag pair between (fixed: flags)",
                        {bytes_arg(16384), kFixed}, 1,
                        [](int pe, const symsim::KernelArgs& a) {
                          host<launch_pipe_sync_missing>(pe, a, "pipe_sync_missing kernel");
                        }});
SYMSIM_REGISTER_KERNEL(hazard_event_id_unpaired,
                       {"hazard_event_id_unpaired", "ascend",
                        "event_id_unpaired: a loop's last SetFlag<MTE3_MTE2> never waited (fixed: epilogue WaitFlag)",
                        {bytes_arg(16384), kFixed}, 1,
                        [](int pe, const symsim::KernelArgs& a) {
                          host<launch_event_id_unpaired>(pe, a, "event_id_unpaired kernel");
                        }});
SYMSIM_REGISTER_KERNEL(hazard_ub_out_of_bounds,
                       {"hazard_ub_out_of_bounds", "ascend",
                        "ub_out_of_bounds: DataCopy given bytes where it counts elements (fixed: bytes / 4)",
                        {bytes_arg(4096), kFixed}, 1,
                        [](int pe, const symsim::KernelArgs& a) {
                          host<launch_ub_out_of_bounds>(pe, a, "ub_out_of_bounds kernel");
                        }});
SYMSIM_REGISTER_KERNEL(hazard_unaligned_access,
                       {"hazard_unaligned_access", "ascend",
                        "unaligned_access: DataCopy of a length that is not a multiple of 32 B (fixed: DataCopyPad)",
                        {bytes_arg(100, 1), kFixed}, 1,
                        [](int pe, const symsim::KernelArgs& a) {
                          host<launch_unaligned_access>(pe, a, "unaligned_access kernel");
                        }});
SYMSIM_REGISTER_KERNEL(hazard_core_write_race,
                       {"hazard_core_write_race", "ascend",
                        "core_write_race: two cores store their halves to the same GM (fixed: each its own half)",
                        {bytes_arg(8192, 64), {"stagger_ns", "core 1 starts this much later (other work)", 0, 1e6, 0},
                         kFixed},
                        2,
                        [](int pe, const symsim::KernelArgs& a) {
                          const auto stagger_ns = static_cast<uint32_t>(a.u64("stagger_ns"));
                          const auto bytes = static_cast<uint32_t>(a.u64("bytes"));
                          aclrtStream stream = hazard_host::setup(pe, 5 * uint64_t{bytes} + (1u << 20));
                          auto* in = static_cast<uint8_t*>(aclshmem_malloc(4 * uint64_t{bytes}));
                          auto* out = static_cast<uint8_t*>(aclshmem_calloc(1, bytes));
                          hazard_host::fill(in, 4 * uint64_t{bytes}, pe, 0);
                          launch_core_write_race(a.u64("fixed") != 0, stream, in, out, bytes, stagger_ns);
                          hazard_host::sync(pe, stream, "core_write_race kernel");
                          hazard_host::check_pattern(pe, out, bytes, pe, 0,
                                                     fmt::format("core_write_race kernel copied {} bytes intact", bytes));
                          hazard_host::teardown(stream);
                        }});

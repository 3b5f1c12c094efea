// AscendC vector instructions on the AIV core's vector pipe (symsim/ascendc_vector.h).
#include <fmt/format.h>

#include "kernel_operator.h"
#include "models/memory/address_map.h"
#include "symsim/code_site.h"
#include "kernels/shim/ascend/src/world.h"

namespace AscendC::detail {

void vector_reject(const char* call, const char* why) {
  symsim::shim::trap(fmt::format("{}: AscendC::{} was given {}", symsim::shim::where(SYMSIM_CALLER()), call, why));
}

void vector_issue(const char* call, std::initializer_list<VecRange> reads, std::initializer_list<VecRange> writes,
                  double repeats) {
  const symsim::shim::CallSite site = SYMSIM_CALLER();
  const symsim::shim::UncountedCall uncounted;
  symsim::AivCore& c = symsim::shim::core();
  symsim::AscendSystem& sys = symsim::shim::system();
  const symsim::AscendParams& p = sys.params();
  // Vector instructions reach the core's own Unified Buffer only: anything else would read or
  // write the simulator's memory.
  const symsim::Region* ub = nullptr;  // this core's Unified Buffer, which holds every range
  for (const auto* list : {&reads, &writes})
    for (const VecRange& r : *list) {
      const symsim::Region* region = sys.addresses().find(r.p, r.bytes ? r.bytes : 1);
      if (!region || region->kind != symsim::RegionKind::kUnifiedBuffer || region->pe != c.pe() || region->core != c.core())
        symsim::shim::trap(fmt::format("{}: AscendC::{} {} {} bytes at {:#x}, outside this AIV core's Unified Buffer",
                                       symsim::shim::where(site), call, list == &reads ? "reads" : "writes",
                                       r.bytes, reinterpret_cast<uintptr_t>(r.p)));
      ub = region;
    }
  const symsim::Ps duration =
      symsim::ns_to_ps(p.aiv_vector_issue_ns) + static_cast<symsim::Ps>(repeats * p.aiv_vector_repeat_ns * 1000.0);
  const symsim::Ps issue = std::max(c.local_ps(), c.pipe_free_ps(symsim::AivPipe::kVector));
  const symsim::Ps done = c.occupy(symsim::AivPipe::kVector, duration);
  // One record per (source, destination) pair; an instruction without a source reads nothing.
  for (const VecRange& w : writes) {
    symsim::CopyRecord rec;
    rec.pe = c.pe();
    rec.core = c.core();
    rec.pipe = static_cast<int>(symsim::AivPipe::kVector);
    rec.dst = static_cast<uint8_t*>(const_cast<void*>(w.p));
    rec.dst_region = rec.src_region = ub;
    rec.dst_bytes = w.bytes;
    rec.byte_granular = true;  // element counts, not 32 B blocks (addresses still 32 B aligned)
    rec.issue_ps = issue;
    rec.visible_ps = done;
    rec.site = symsim::shim::site_ref(site);
    if (reads.size() == 0) {
      rec.src = rec.dst;
      rec.bytes = 0;
      if (w.bytes) sys.hooks().emit<&symsim::AscendObserver::on_copy>(rec);
    }
    for (const VecRange& r : reads) {
      rec.src = static_cast<const uint8_t*>(r.p);
      rec.bytes = r.bytes;
      if (r.bytes || w.bytes) sys.hooks().emit<&symsim::AscendObserver::on_copy>(rec);
    }
  }
}

}  // namespace AscendC::detail

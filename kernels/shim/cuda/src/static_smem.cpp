// Static __shared__ variables of programs built by tools/symsim-nvcc (device.h, static_smem):
// each CTA's variables live in its own shared-memory arena (Cta::static_vars, which the model
// treats as shared memory), sized as the hardware leaves it: the SM's shared memory less the
// launch's dynamic part. A variable gets its zeroed place when the CTA first reaches it.
#include <fmt/format.h>

#include <map>
#include <memory>
#include <unordered_map>

#include "models/nvidia/cuda_thread.h"
#include "models/nvidia/nvidia_params.h"
#include "models/nvidia/nvidia_system.h"
#include "models/nvidia/thread_ops.h"
#include "symsim/cuda/device.h"

namespace symsim::cuda {

namespace {

struct CtaVariables {
  std::weak_ptr<char> alive;  // the CTA these belong to (a new CTA may reuse its address)
  size_t used_bytes = 0;
  std::map<const void*, size_t> offset_of;  // by tag
};

std::unordered_map<const nv::Cta*, CtaVariables>& variables() {
  static std::unordered_map<const nv::Cta*, CtaVariables> v;
  return v;
}

bool same_owner(const std::weak_ptr<char>& a, const std::shared_ptr<char>& b) {
  return !a.expired() && !a.owner_before(b) && !b.owner_before(a);
}

}  // namespace

void* static_smem(const void* tag, size_t bytes, size_t align) {
  nv::Cta& cta = *nv::this_thread().cta;
  auto& all = variables();
  auto it = all.find(&cta);
  if (it == all.end() || !same_owner(it->second.alive, cta.alive)) {
    // Forget the variables of CTAs that have ended, then open this one's arena.
    for (auto i = all.begin(); i != all.end();) i = i->second.alive.expired() ? all.erase(i) : std::next(i);
    it = all.insert_or_assign(&cta, CtaVariables{cta.alive, 0, {}}).first;
    const auto limit = static_cast<size_t>(nv::this_system().params().sm_smem_bytes);
    cta.static_vars_bytes = limit > cta.smem.size() ? limit - cta.smem.size() : 0;
    cta.static_vars = std::make_unique<uint8_t[]>(cta.static_vars_bytes + 1);  // zeroed
  }
  CtaVariables& v = it->second;
  const auto found = v.offset_of.find(tag);
  if (found != v.offset_of.end()) return cta.static_vars.get() + found->second;
  const size_t offset = (v.used_bytes + align - 1) / align * align;
  if (offset + bytes > cta.static_vars_bytes)
    nv::trap(fmt::format("static __shared__ variables need {} B, but the launch leaves {} B of shared memory beside its "
                         "{} B of dynamic shared memory", offset + bytes, cta.static_vars_bytes, cta.smem.size())
                 .c_str());
  v.used_bytes = offset + bytes;
  v.offset_of.emplace(tag, offset);
  return cta.static_vars.get() + offset;
}

}  // namespace symsim::cuda

// Static __shared__ variables of programs built by tools/symsim-nvcc (device.h, static_smem):
// each CTA keeps its own zeroed copy of every variable it reaches, found by the CTA and the
// variable's tag. A CTA's copies go when the CTA is gone (its `alive` token has expired).
#include <cstdlib>
#include <memory>
#include <new>
#include <unordered_map>

#include "models/nvidia/cuda_thread.h"
#include "models/nvidia/thread_ops.h"
#include "symsim/cuda/device.h"

namespace symsim::cuda {

namespace {

struct AlignedFree {
  void operator()(void* p) const { std::free(p); }
};

struct CtaVariables {
  std::weak_ptr<char> alive;  // the CTA these belong to (a new CTA may reuse its address)
  std::unordered_map<const void*, std::unique_ptr<void, AlignedFree>> by_tag;
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
  const nv::Cta& cta = *nv::this_thread().cta;
  auto& all = variables();
  auto it = all.find(&cta);
  if (it == all.end() || !same_owner(it->second.alive, cta.alive)) {
    // Forget the copies of CTAs that have ended, then start this one's.
    for (auto i = all.begin(); i != all.end();) i = i->second.alive.expired() ? all.erase(i) : std::next(i);
    it = all.insert_or_assign(&cta, CtaVariables{cta.alive, {}}).first;
  }
  auto& slot = it->second.by_tag[tag];
  if (!slot) {
    const size_t rounded = (bytes + align - 1) / align * align;
    void* p = std::aligned_alloc(align, rounded == 0 ? align : rounded);
    if (p == nullptr) throw std::bad_alloc();
    std::memset(p, 0, rounded == 0 ? align : rounded);
    slot.reset(p);
  }
  return slot.get();
}

}  // namespace symsim::cuda

// AscendC's GM atomics (symsim/ascendc_atomic.h): the MTE3 atomic-add mode and the Ascend 950's
// scalar GM atomics.
#include <fmt/format.h>

#include <cstring>
#include <memory>

#include "kernel_operator.h"
#include "models/memory/address_map.h"
#include "kernels/shim/ascend/src/udma_queue.h"
#include "kernels/shim/ascend/src/world.h"

namespace symsim::shim {

namespace {

// dst[i] += src[i] over `bytes` of T elements (integers wrap, 16-bit floats round to nearest).
template <typename T>
void add_elements(uint8_t* dst, const uint8_t* src, uint64_t bytes) {
  for (uint64_t off = 0; off + sizeof(T) <= bytes; off += sizeof(T)) {
    T a, b;
    std::memcpy(&a, dst + off, sizeof(T));
    std::memcpy(&b, src + off, sizeof(T));
    T sum;
    if constexpr (std::is_integral<T>::value) {
      using U = std::make_unsigned_t<T>;
      sum = static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    } else {
      sum = static_cast<T>(static_cast<float>(a) + static_cast<float>(b));
    }
    std::memcpy(dst + off, &sum, sizeof(T));
  }
}

AtomicAddFn add_for(AscendC::detail::AtomicAddType t) {
  using AscendC::detail::AtomicAddType;
  switch (t) {
    case AtomicAddType::kInt8: return &add_elements<int8_t>;
    case AtomicAddType::kInt16: return &add_elements<int16_t>;
    case AtomicAddType::kHalf: return &add_elements<half>;
    case AtomicAddType::kBf16: return &add_elements<bfloat16_t>;
    case AtomicAddType::kInt32: return &add_elements<int32_t>;
    case AtomicAddType::kFloat: return &add_elements<float>;
    case AtomicAddType::kNone: break;
  }
  return nullptr;
}

}  // namespace

AtomicAddFn atomic_add_mode() {
  const ExecContext* ctx = current_exec();
  if (!ctx || !ctx->core) return nullptr;
  return world().blocks[ctx->core->pe()][ctx->core->core()]->atomic_add;
}

}  // namespace symsim::shim

namespace AscendC::detail {

void set_atomic_add(AtomicAddType type) {
  using namespace symsim::shim;
  symsim::AivCore& c = core();
  c.scalar_ops(1);  // a control-register write
  world().blocks[c.pe()][c.core()]->atomic_add = add_for(type);
}

uint64_t gm_atomic(const char* api, GmAtomic op, void* addr, uint32_t width, bool is_float, uint64_t value,
                   uint64_t compare) {
  using namespace symsim;
  using namespace symsim::shim;
  const CallSite site = SYMSIM_CALLER();
  AscendSystem& sys = system();
  const AscendParams& p = sys.params();
  if (p.aiv_gm_atomics == 0)
    trap(fmt::format("{}: {}: scalar GM atomics are an Ascend 950 feature this platform lacks (aiv.gm_atomics = 0; "
                     "upstream aborts the MTE atomics that need them on the 910 cores)",
                     where(site), api));
  const Region* r = sys.addresses().find(addr, width);
  if (!r || r->kind != RegionKind::kHbm)
    trap(fmt::format("{}: {}: the {}-byte word at {} is not in device memory (HBM)", where(site), api, width,
                     address_name(addr)));
  AivCore& c = core();
  c.scalar_ops(1);
  c.sync();
  note_effect();
  const int me = c.pe(), target = r->pe;
  Fabric& f = sys.fabric();
  const Ps op_at = c.local_ps() + (target == me ? 0 : f.control_latency_ps(me, target)) + p.ns(p.hbm_latency_ns);
  const Ps back = op_at + (target == me ? 0 : f.control_latency_ps(target, me));
  auto old = std::make_shared<uint64_t>(0);
  auto* word = static_cast<uint8_t*>(addr);
  sys.visibility().schedule_action(
      op_at,
      [word, width, op, is_float, value, compare, old](Ps) {
        uint64_t cur = 0;
        std::memcpy(&cur, word, width);
        uint64_t now = cur;
        if (op == GmAtomic::kAdd && is_float) {
          float a, b;
          std::memcpy(&a, &cur, 4);
          std::memcpy(&b, &value, 4);
          const float s = a + b;
          now = 0;
          std::memcpy(&now, &s, 4);
        } else if (op == GmAtomic::kAdd) {
          now = cur + value;
        } else if (op == GmAtomic::kCas) {
          now = cur == compare ? value : cur;
        } else {
          now = value;
        }
        std::memcpy(word, &now, width);
        *old = cur;
      },
      word, width);
  c.wait_until(back);
  return *old;
}

}  // namespace AscendC::detail

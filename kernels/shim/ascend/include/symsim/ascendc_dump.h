// AscendC's dump build (upstream's ENABLE_ASCENDC_DUMP / ASCENDC_DUMP=1): InitDump gives the
// block a slice of a GM workspace, and from then on AscendC::printf and DumpTensor records go
// into it instead of to stdout; the host prints them with Adx::AdumpPrintWorkSpace (debug.h)
// after the kernel, as on the device. Without InitDump, printf prints at once and DumpTensor
// stops the kernel (there is no workspace to write to). Included from kernel_operator.h.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

namespace AscendC {
namespace detail {
// The block's slice: workspace + block_idx * (bytes / block_num), bytes / block_num long.
void init_dump(uint8_t* workspace, uint64_t bytes);
// Appends a record to the block's slice (the kernel stops without InitDump). Both are entry
// points: their return address is the kernel's call site.
void dump_record(const std::string& text, uint64_t elements);
template <typename T>
std::string dump_text(const T* p, uint32_t n) {
  std::string s;
  for (uint32_t i = 0; i < n; ++i) {
    if (i) s += ", ";
    if constexpr (std::is_floating_point<T>::value) s += std::to_string(static_cast<double>(p[i]));
    else if constexpr (std::is_signed<T>::value) s += std::to_string(static_cast<long long>(p[i]));
    else s += std::to_string(static_cast<unsigned long long>(p[i]));
  }
  return s;
}
}  // namespace detail

SYMSIM_INLINE void InitDump(bool /*mixFlag*/, GM_ADDR workspace, uint32_t bytes) {
  detail::init_dump(workspace, bytes);
}
// One record: "DumpTensor: desc=D, addr=..., position=UB|GM, count=N: [v0, v1, ...]", the
// first dumpSize elements. Costs one scalar operation per element (assumed).
template <typename T>
SYMSIM_INLINE void DumpTensor(const LocalTensor<T>& t, uint32_t desc, uint32_t dumpSize) {
  const uint32_t n = dumpSize < t.GetSize() ? dumpSize : t.GetSize();
  detail::dump_record("DumpTensor: desc=" + std::to_string(desc) + ", position=UB, count=" + std::to_string(n) + ": [" +
                          detail::dump_text(t.GetPhyAddr(), n) + "]\n",
                      n);
}
template <typename T>
SYMSIM_INLINE void DumpTensor(const GlobalTensor<T>& t, uint32_t desc, uint32_t dumpSize) {
  detail::dump_record("DumpTensor: desc=" + std::to_string(desc) + ", position=GM, count=" + std::to_string(dumpSize) +
                          ": [" + detail::dump_text(t.GetPhyAddr(), dumpSize) + "]\n",
                      dumpSize);
}
template <typename... Args>
SYMSIM_INLINE void PRINTF(const char* fmt, Args... args) { printf(fmt, args...); }
}  // namespace AscendC

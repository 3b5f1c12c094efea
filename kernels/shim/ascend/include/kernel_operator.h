// The AscendC subset symsim runs kernels against (docs/ascendc-subset.md). Same names and
// semantics as CANN's kernel_operator.h for what is here; what is not here does not compile.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "symsim/element_types.h"
#include "symsim/shim_core.h"

// Address-space and function qualifiers are no-ops on the host compiler.
#define __gm__
#define __ubuf__
#define __aicore__
#define __global__
#define __inline__ inline
#define __simt_vf__
#define __simt_callee__
#define LAUNCH_BOUND(n)
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 3510
#endif
#define ASCEND_IS_AIV true
#define ASCEND_IS_AIC false
using GM_ADDR = uint8_t*;

enum pipe_t { PIPE_S = 0, PIPE_V = 1, PIPE_M = 2, PIPE_MTE1 = 3, PIPE_MTE2 = 4, PIPE_MTE3 = 5, PIPE_ALL = 6 };
enum event_t {
  EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7
};
enum class cache_line_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE = 1 };

// Raw intrinsics (also used by CANN library code).
void pipe_barrier(pipe_t pipe);
void set_flag(pipe_t src, pipe_t dst, int event_id);
void wait_flag(pipe_t src, pipe_t dst, int event_id);
void dcci(const void* addr, cache_line_t kind);
template <typename T>
SYMSIM_INLINE void dcci(const T* addr, cache_line_t kind) {
  symsim::shim::cache_clean_invalidate(addr, 64, sizeof(T));
}
template <typename T>
SYMSIM_INLINE void st_dev(T value, T* addr, int offset) {
  static_assert(std::is_integral<T>::value && sizeof(T) <= 8, "st_dev stores an integer of at most 8 bytes");
  symsim::shim::simt::reject_in_vf("st_dev");
  symsim::shim::device_store(reinterpret_cast<uint8_t*>(addr) + offset * sizeof(T), static_cast<uint64_t>(value), sizeof(T));
}
template <typename T>
SYMSIM_INLINE T ld_dev(T* addr, int offset) {
  static_assert(std::is_integral<T>::value && sizeof(T) <= 8, "ld_dev loads an integer of at most 8 bytes");
  symsim::shim::simt::reject_in_vf("ld_dev");
  return static_cast<T>(
      symsim::shim::device_load(reinterpret_cast<uint8_t*>(addr) + offset * sizeof(T), sizeof(T)));
}
[[noreturn]] inline void trap() { symsim::shim::trap("trap() called by the kernel"); }

namespace AscendC {

constexpr uint32_t ONE_BLK_SIZE = 32;
constexpr uint32_t CACHE_LINE_SIZE = 64;

enum class TPosition { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM, TSCM, MAX };
using QuePosition = TPosition;

enum class HardEvent {
  MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V, MTE3_MTE1,
  MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2,
  MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX, MAX
};

enum class CacheLine { SINGLE_CACHE_LINE, ENTIRE_DATA_CACHE };
enum class DcciDst { CACHELINE_ALL, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
enum class MemDsbT { ALL, DDR, UB, SEQ };

int64_t GetBlockIdx();
int64_t GetBlockNum();
int64_t GetSubBlockIdx();
int64_t GetTaskRation();
uint64_t GetSystemCycle();  // 50 MHz system counter, as on the device

namespace detail {
void set_flag(HardEvent e, int id);
void wait_flag(HardEvent e, int id);
void pipe_barrier(pipe_t p);
uint8_t* ub_allocate(uint64_t bytes);
void ub_release_all();
// Contiguous or strided copies between GM and UB / UB and UB, on the pipe the direction implies.
// `byte_granular`: DataCopyPad (no 32 B length rule).
void copy_blocks(uint8_t* dst, uint64_t dst_stride_bytes, const uint8_t* src, uint64_t src_stride_bytes,
                 uint64_t block_bytes, uint64_t blocks, bool byte_granular = false);
void scalar_access();
}  // namespace detail

template <HardEvent E>
SYMSIM_INLINE void SetFlag(int32_t event_id) { detail::set_flag(E, event_id); }
template <HardEvent E>
SYMSIM_INLINE void WaitFlag(int32_t event_id) { detail::wait_flag(E, event_id); }
template <pipe_t P>
SYMSIM_INLINE void PipeBarrier() { detail::pipe_barrier(P); }
template <MemDsbT T = MemDsbT::ALL>
SYMSIM_INLINE void DataSyncBarrier() { detail::pipe_barrier(PIPE_ALL); }

struct TBufAddr {
  uint8_t logicPos = 0;
  uint64_t bufferAddr = 0;  // the UB address (a host pointer in symsim)
  uint32_t dataLen = 0;     // bytes
};

template <typename T>
class LocalTensor {
 public:
  using PrimType = T;
  LocalTensor() = default;
  T* GetPhyAddr() const { return reinterpret_cast<T*>(address_.bufferAddr); }
  T* GetPhyAddr(uint32_t offset) const { return GetPhyAddr() + offset; }
  uint32_t GetSize() const { return address_.dataLen / sizeof(T); }
  uint32_t GetLength() const { return address_.dataLen; }
  void SetSize(uint32_t n) { address_.dataLen = n * sizeof(T); }
  LocalTensor operator[](uint32_t offset) const {
    LocalTensor t = *this;
    t.address_.bufferAddr += offset * sizeof(T);
    t.address_.dataLen = offset * sizeof(T) <= address_.dataLen ? address_.dataLen - offset * sizeof(T) : 0;
    return t;
  }
  T GetValue(uint32_t i) const { detail::scalar_access(); return GetPhyAddr()[i]; }
  void SetValue(uint32_t i, T v) const { detail::scalar_access(); GetPhyAddr()[i] = v; }
  T& operator()(uint32_t i) const { return GetPhyAddr()[i]; }
  template <typename U>
  LocalTensor<U> ReinterpretCast() const {
    LocalTensor<U> t;
    t.address_ = address_;
    return t;
  }
  TPosition GetPosition() const { return static_cast<TPosition>(address_.logicPos); }

  TBufAddr address_;
};

template <typename T>
class GlobalTensor {
 public:
  using PrimType = T;
  GlobalTensor() = default;
  void SetGlobalBuffer(T* buffer, uint64_t size) { m_buffer = buffer; m_size = size; }
  void SetGlobalBuffer(T* buffer) { m_buffer = buffer; m_size = 0; }
  T* GetPhyAddr() const { return m_buffer; }
  T* GetPhyAddr(uint64_t offset) const { return m_buffer + offset; }
  uint64_t GetSize() const { return m_size; }
  GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor t;
    t.m_buffer = m_buffer + offset;
    t.m_size = m_size > offset ? m_size - offset : 0;
    return t;
  }
  T GetValue(uint64_t i) const { detail::scalar_access(); return m_buffer[i]; }
  void SetValue(uint64_t i, T v) const { detail::scalar_access(); m_buffer[i] = v; }
  T& operator()(uint64_t i) const { return m_buffer[i]; }

 private:
  T* m_buffer = nullptr;
  uint64_t m_size = 0;
};

template <TPosition POS>
class TBuf {
 public:
  template <typename T>
  LocalTensor<T> Get() const { return Get<T>(m_bytes / sizeof(T)); }
  template <typename T>
  LocalTensor<T> Get(uint32_t count) const {
    LocalTensor<T> t;
    t.address_ = {static_cast<uint8_t>(POS), reinterpret_cast<uint64_t>(m_base), static_cast<uint32_t>(count * sizeof(T))};
    return t;
  }
  template <typename T>
  LocalTensor<T> GetWithOffset(uint32_t count, uint32_t offset_bytes) const {
    LocalTensor<T> t;
    t.address_ = {static_cast<uint8_t>(POS), reinterpret_cast<uint64_t>(m_base + offset_bytes),
                  static_cast<uint32_t>(count * sizeof(T))};
    return t;
  }
  uint8_t* m_base = nullptr;
  uint32_t m_bytes = 0;
};

// A queue of `DEPTH` equal UB buffers; EnQue/DeQue order the producing and consuming pipes.
template <TPosition POS, int32_t DEPTH = 1>
class TQue {
 public:
  template <typename T>
  LocalTensor<T> AllocTensor() {
    LocalTensor<T> t;
    const uint32_t i = m_next++ % (m_num ? m_num : 1);
    t.address_ = {static_cast<uint8_t>(POS), reinterpret_cast<uint64_t>(m_base + uint64_t{i} * m_len), m_len};
    return t;
  }
  template <typename T>
  void EnQue(const LocalTensor<T>& t) { detail::pipe_barrier(PIPE_ALL); m_last = t.address_; }
  template <typename T>
  LocalTensor<T> DeQue() {
    detail::pipe_barrier(PIPE_ALL);
    LocalTensor<T> t;
    t.address_ = m_last;
    return t;
  }
  template <typename T>
  void FreeTensor(LocalTensor<T>&) {}
  uint8_t* m_base = nullptr;
  uint32_t m_len = 0;
  uint32_t m_num = 0;
  uint32_t m_next = 0;
  TBufAddr m_last;
};
template <TPosition POS, int32_t DEPTH = 1>
using TQueBind = TQue<POS, DEPTH>;

// Owns the block's Unified Buffer allocations; a request past the capacity stops the kernel.
class TPipe {
 public:
  TPipe() = default;
  ~TPipe() { Reset(); }
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;
  template <TPosition POS>
  bool InitBuffer(TBuf<POS>& buf, uint32_t bytes) {
    buf.m_base = detail::ub_allocate(bytes);
    buf.m_bytes = bytes;
    return true;
  }
  template <TPosition POS, int32_t DEPTH>
  bool InitBuffer(TQue<POS, DEPTH>& que, uint8_t num, uint32_t len) {
    que.m_base = detail::ub_allocate(uint64_t{num} * len);
    que.m_len = len;
    que.m_num = num;
    return true;
  }
  void Reset() { detail::ub_release_all(); }
  void Destroy() { Reset(); }
};

struct DataCopyParams {
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;   // in 32 B blocks
  uint16_t srcStride = 0;  // gap between blocks, in 32 B blocks
  uint16_t dstStride = 0;
};
struct DataCopyExtParams {
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;   // bytes
  uint32_t srcStride = 0;  // GM side: bytes; UB side: 32 B blocks
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
};
using DataCopyPadParams = DataCopyExtParams;
template <typename T>
struct DataCopyPadExtParams {
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = 0;
};

// GM -> UB (MTE2), UB -> GM (MTE3), UB -> UB (vector pipe); count in elements, 32 B aligned.
template <typename T>
SYMSIM_INLINE void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count) {
  detail::copy_blocks(reinterpret_cast<uint8_t*>(dst.GetPhyAddr()), 0, reinterpret_cast<const uint8_t*>(src.GetPhyAddr()), 0, uint64_t{count} * sizeof(T), 1, false);
}
template <typename T>
SYMSIM_INLINE void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::copy_blocks(reinterpret_cast<uint8_t*>(dst.GetPhyAddr()), 0, reinterpret_cast<const uint8_t*>(src.GetPhyAddr()), 0, uint64_t{count} * sizeof(T), 1, false);
}
template <typename T>
SYMSIM_INLINE void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::copy_blocks(reinterpret_cast<uint8_t*>(dst.GetPhyAddr()), 0, reinterpret_cast<const uint8_t*>(src.GetPhyAddr()), 0, uint64_t{count} * sizeof(T), 1, false);
}
template <typename T>
SYMSIM_INLINE void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p) {
  const uint64_t len = uint64_t{p.blockLen} * ONE_BLK_SIZE;
  detail::copy_blocks(reinterpret_cast<uint8_t*>(dst.GetPhyAddr()), len + uint64_t{p.dstStride} * ONE_BLK_SIZE,
                      reinterpret_cast<const uint8_t*>(src.GetPhyAddr()), len + uint64_t{p.srcStride} * ONE_BLK_SIZE, len, p.blockCount, false);
}
template <typename T>
SYMSIM_INLINE void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  const uint64_t len = uint64_t{p.blockLen} * ONE_BLK_SIZE;
  detail::copy_blocks(reinterpret_cast<uint8_t*>(dst.GetPhyAddr()), len + uint64_t{p.dstStride} * ONE_BLK_SIZE,
                      reinterpret_cast<const uint8_t*>(src.GetPhyAddr()), len + uint64_t{p.srcStride} * ONE_BLK_SIZE, len, p.blockCount, false);
}
// Byte-granular copies: GM strides in bytes, UB strides in 32 B blocks, UB rows padded to 32 B.
template <typename T>
SYMSIM_INLINE void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p) {
  const uint64_t ub_row = (uint64_t{p.blockLen} + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
  detail::copy_blocks(reinterpret_cast<uint8_t*>(dst.GetPhyAddr()), p.blockLen + uint64_t{p.dstStride},
                      reinterpret_cast<const uint8_t*>(src.GetPhyAddr()), ub_row + uint64_t{p.srcStride} * ONE_BLK_SIZE, p.blockLen, p.blockCount, true);
}
template <typename T>
SYMSIM_INLINE void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                        const DataCopyPadExtParams<T>& = {}) {
  const uint64_t ub_row = (uint64_t{p.blockLen} + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
  detail::copy_blocks(reinterpret_cast<uint8_t*>(dst.GetPhyAddr()), ub_row + uint64_t{p.dstStride} * ONE_BLK_SIZE,
                      reinterpret_cast<const uint8_t*>(src.GetPhyAddr()), p.blockLen + uint64_t{p.srcStride}, p.blockLen, p.blockCount, true);
}

template <typename T, CacheLine L = CacheLine::SINGLE_CACHE_LINE, DcciDst D = DcciDst::CACHELINE_OUT>
SYMSIM_INLINE void DataCacheCleanAndInvalid(const GlobalTensor<T>& t) {
  symsim::shim::cache_clean_invalidate(t.GetPhyAddr(), CACHE_LINE_SIZE, sizeof(T));
}

template <typename A, typename B>
struct IsSameType { static constexpr bool value = std::is_same<A, B>::value; };

template <typename... Args>
inline void printf(const char* fmt, Args... args) { symsim::shim::kernel_printf(fmt, args...); }

}  // namespace AscendC

// Vector instructions on PIPE_V, and the dump build's InitDump/DumpTensor.
#include "symsim/ascendc_vector.h"
#include "symsim/ascendc_dump.h"
// SetAtomicAdd / SetAtomicNone (MTE3 atomic-add copies) and the scalar GM atomics.
#include "symsim/ascendc_atomic.h"

// Known AscendC calls outside the subset: each is a compile error that names it.
#include "symsim/ascendc_unsupported.h"

// Launch `kernel` on `block_dim` AIV cores of the calling PE: ACLRT_LAUNCH_KERNEL(k)(block_dim, stream, args...).
#include "symsim/launch.h"
#define ACLRT_LAUNCH_KERNEL(kernel) ::symsim::shim::Launcher<decltype(&kernel)>(#kernel, &kernel)

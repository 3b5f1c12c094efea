// Host memory for a harness's copy of device data that it checks. A large one (2 MiB or more)
// is mapped for that copy alone, so its pages are touched by the copy itself (after the copy's
// simulated wait) and go back when the check ends. From malloc it sat in the huge-page heap
// (sim/runner/huge_heap.h), where carving a block touches its 2 MiB pages at once and free keeps
// them: every GPU's host program allocates before its copy waits, so all their buffers were
// resident together (LL dispatch: 16 x EP rows per GPU, EP^2 bytes in all, 473 MiB at EP 64).
// With a mapping each, a host's pages are touched, checked and returned before the next host
// runs (SystemC threads take turns). A small one stays in the heap, where freed blocks are
// reused without new faults (a mapping costs a fault per 4 KiB page below 2 MiB).
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

namespace symsim::harness {

class HostCheckBuffer {
 public:
  static constexpr size_t kMapFromBytes = size_t{2} << 20;

  explicit HostCheckBuffer(size_t bytes) : m_bytes(bytes) {
    if (bytes < kMapFromBytes) {
      m_heap.reset(new uint8_t[bytes]);  // not zeroed: the copy writes every byte
      m_data = m_heap.get();
      return;
    }
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    m_data = static_cast<uint8_t*>(p);
    m_mapped = true;
    // The copy writes all of it at once: 2 MiB pages where the host has them (one fault each, not
    // 512; on a host without transparent huge pages this does nothing).
    madvise(p, bytes, MADV_HUGEPAGE);
  }
  ~HostCheckBuffer() {
    if (m_mapped) munmap(m_data, m_bytes);
  }
  HostCheckBuffer(const HostCheckBuffer&) = delete;
  HostCheckBuffer& operator=(const HostCheckBuffer&) = delete;

  uint8_t* data() { return m_data; }
  size_t size() const { return m_bytes; }

 private:
  std::unique_ptr<uint8_t[]> m_heap;
  uint8_t* m_data = nullptr;
  size_t m_bytes;
  bool m_mapped = false;
};

}  // namespace symsim::harness

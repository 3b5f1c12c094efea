#include "models/memory/sparse_region.h"

#include <sys/mman.h>

#include <stdexcept>
#include <utility>

namespace symsim {

SparseRegion::SparseRegion(uint64_t size_bytes, bool accessible, std::string name)
    : m_size(size_bytes), m_name(std::move(name)) {
  const int prot = accessible ? (PROT_READ | PROT_WRITE) : PROT_NONE;
  void* p = mmap(nullptr, size_bytes, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error("cannot reserve " + std::to_string(size_bytes) +
                                                " bytes of address space for " + m_name);
  m_base = static_cast<uint8_t*>(p);
}

SparseRegion::~SparseRegion() {
  if (m_base) munmap(m_base, m_size);
}

SparseRegion::SparseRegion(SparseRegion&& o) noexcept
    : m_base(std::exchange(o.m_base, nullptr)), m_size(o.m_size), m_name(std::move(o.m_name)) {}

SparseRegion& SparseRegion::operator=(SparseRegion&& o) noexcept {
  if (this != &o) {
    if (m_base) munmap(m_base, m_size);
    m_base = std::exchange(o.m_base, nullptr);
    m_size = o.m_size;
    m_name = std::move(o.m_name);
  }
  return *this;
}

uint8_t* BumpAllocator::allocate(uint64_t bytes, uint64_t align_bytes) {
  if (align_bytes == 0) align_bytes = 1;
  const uint64_t start = (m_used + align_bytes - 1) / align_bytes * align_bytes;
  if (start + bytes > m_size || start + bytes < start) return nullptr;
  m_used = start + bytes;
  return m_base + start;
}

}  // namespace symsim

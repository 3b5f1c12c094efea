// Recycled nodes for a node-based container (a std::map) whose entries come and go per WQE: a
// freed node waits on an intrusive free list for the next insert, and new nodes are cut from
// slabs of 64, so inserts call malloc once per 64 nodes until the map has reached its peak size,
// then never. When the last node comes back (src_reuse: every PE's launch has ended) the slabs go
// back to malloc, so the pool does not hold its peak for the rest of the run (measured: +13 MiB
// of peak RSS at MoE EP 64 when it did). Only one node size is pooled (the first one asked
// for); other sizes, and arrays, go to operator new as usual.
#pragma once
#include <cstddef>
#include <memory>
#include <new>
#include <vector>

namespace symsim {

class NodePool {
 public:
  NodePool() = default;
  NodePool(const NodePool&) = delete;
  NodePool& operator=(const NodePool&) = delete;

  void* take(size_t bytes) {
    if (m_bytes == 0 && bytes >= sizeof(Free)) m_bytes = bytes;
    if (bytes != m_bytes) return ::operator new(bytes);
    if (!m_free) cut_slab();
    ++m_live;
    Free* f = m_free;
    m_free = f->next;
    return f;
  }
  void give(void* p, size_t bytes) {
    if (bytes != m_bytes) return ::operator delete(p);
    m_free = new (p) Free{m_free};
    if (--m_live == 0) release();
  }

 private:
  struct Free {
    Free* next;
  };
  static constexpr size_t kSlabNodes = 64;
  // Out of line: once per 64 nodes.
  [[gnu::noinline]] void cut_slab() {
    constexpr size_t kAlign = alignof(std::max_align_t);
    const size_t stride = (m_bytes + kAlign - 1) / kAlign * kAlign;
    m_slabs.emplace_back(new std::max_align_t[(stride * kSlabNodes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t)]);
    auto* base = reinterpret_cast<char*>(m_slabs.back().get());
    for (size_t i = kSlabNodes; i-- > 0;) m_free = new (base + i * stride) Free{m_free};
  }

  // Out of line: once per emptying.
  [[gnu::noinline]] void release() {
    m_free = nullptr;
    m_slabs.clear();
  }

  size_t m_bytes = 0;  // the pooled size (0: none yet)
  size_t m_live = 0;   // nodes taken and not given back
  Free* m_free = nullptr;
  std::vector<std::unique_ptr<std::max_align_t[]>> m_slabs;
};

// A container's allocator drawing single nodes from a NodePool, which must outlive the container.
template <typename T>
class PoolAllocator {
 public:
  using value_type = T;
  explicit PoolAllocator(NodePool* pool) noexcept : m_pool(pool) {}
  template <typename U>
  PoolAllocator(const PoolAllocator<U>& o) noexcept : m_pool(o.pool()) {}

  T* allocate(size_t n) {
    return static_cast<T*>(n == 1 ? m_pool->take(sizeof(T)) : ::operator new(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) noexcept {
    if (n == 1) return m_pool->give(p, sizeof(T));
    ::operator delete(p);
  }
  NodePool* pool() const { return m_pool; }
  template <typename U>
  bool operator==(const PoolAllocator<U>& o) const { return m_pool == o.pool(); }
  template <typename U>
  bool operator!=(const PoolAllocator<U>& o) const { return m_pool != o.pool(); }

 private:
  NodePool* m_pool;
};

}  // namespace symsim

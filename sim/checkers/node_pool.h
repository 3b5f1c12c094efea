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
  // `hot_offset`: where in a node the bytes read most begin (src_reuse: the window, after the
  // tree's header and the key); nodes are then cut at a stride of whole 64-byte lines, placed so
  // that this offset starts a line (a part of up to 64 bytes there costs one cache line, not two).
  explicit NodePool(size_t hot_offset) : m_hot_offset(hot_offset), m_line_aligned(true) {}
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
    const size_t align = m_line_aligned ? kLine : alignof(std::max_align_t);
    const size_t stride = (m_bytes + align - 1) / align * align;
    // A line-aligned slab's nodes start (64 - hot_offset % 64) % 64 bytes into it.
    const size_t lead = m_line_aligned ? (kLine - m_hot_offset % kLine) % kLine : 0;
    m_slabs.emplace_back(static_cast<char*>(::operator new(stride * kSlabNodes + lead, std::align_val_t{align})),
                         SlabFree{align});
    char* base = m_slabs.back().get() + lead;
    for (size_t i = kSlabNodes; i-- > 0;) m_free = new (base + i * stride) Free{m_free};
  }

  // Out of line: once per emptying.
  [[gnu::noinline]] void release() {
    m_free = nullptr;
    m_slabs.clear();
  }

  static constexpr size_t kLine = 64;
  struct SlabFree {
    size_t align;
    void operator()(char* p) const { ::operator delete(p, std::align_val_t{align}); }
  };
  size_t m_bytes = 0;  // the pooled size (0: none yet)
  size_t m_live = 0;   // nodes taken and not given back
  size_t m_hot_offset = 0;
  bool m_line_aligned = false;
  Free* m_free = nullptr;
  std::vector<std::unique_ptr<char, SlabFree>> m_slabs;
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

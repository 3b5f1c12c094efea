// An indexable vector kept in fixed chunks of kChunkItems: growing allocates one chunk and copies
// nothing, so a record store that reaches N entries holds N entries' memory plus one chunk, not a
// doubled array (up to 2N) and, while it doubles, the old array as well (3N). The checkers'
// per-run record pools (dst_write_race's landings, core_write_race's writes) reached 64 MiB each at
// MoE EP 256, in the malloc heap's huge pages (docs/performance.md, Session 26). Chunks of 64-72 KiB
// stay under malloc's mmap threshold (128 KiB): freed, they serve the next chunk of any pool.
// References stay valid while the vector grows.
#pragma once
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace symsim {

template <typename T, size_t kChunkItems>
class ChunkedVector {
  static_assert(kChunkItems > 0 && (kChunkItems & (kChunkItems - 1)) == 0, "a power of two: index by shift and mask");
  // Records of plain fields: a chunk is raw memory, an item is built when pushed and never destroyed.
  static_assert(std::is_trivially_destructible<T>::value, "items are not destroyed");

 public:
  size_t size() const { return m_size; }
  bool empty() const { return m_size == 0; }
  T& operator[](size_t i) { return items(i / kChunkItems)[i % kChunkItems]; }
  const T& operator[](size_t i) const { return items(i / kChunkItems)[i % kChunkItems]; }
  T& back() { return (*this)[m_size - 1]; }

  void push_back(const T& value) {
    if (m_size == m_chunks.size() * kChunkItems) add_chunk();
    new (&items(m_size / kChunkItems)[m_size % kChunkItems]) T(value);
    ++m_size;
  }
  // Forgets the entries and hands the chunks back.
  void clear() {
    m_chunks.clear();
    m_size = 0;
  }

 private:
  // Uninitialised: building kChunkItems records on each new chunk cost core_write_race 60
  // instructions a WQE at MoE EP 8 (its per-PE writes start afresh at every barrier).
  struct Chunk {
    alignas(T) unsigned char bytes[sizeof(T) * kChunkItems];
  };
  T* items(size_t chunk) const { return std::launder(reinterpret_cast<T*>(m_chunks[chunk]->bytes)); }
  // Out of line: once per chunk.
  [[gnu::noinline]] void add_chunk() { m_chunks.emplace_back(new Chunk); }

  std::vector<std::unique_ptr<Chunk>> m_chunks;
  size_t m_size = 0;
};

}  // namespace symsim

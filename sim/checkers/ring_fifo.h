// A FIFO in one power-of-two ring that grows by doubling: push_back and pop_front allocate
// nothing once warm (a std::deque allocates a block every few pushes), and the live entries are
// indexable oldest first (for a binary search over entries kept in order).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace symsim {

// Index: the type of the head, size and mask (uint32_t for the rings in the checkers' per-QP
// records: a 24-byte header, not 32, where each WQE touches their lines; see qp_record.h).
template <typename T, typename Index = size_t>
class RingFifo {
 public:
  bool empty() const { return m_size == 0; }
  size_t size() const { return m_size; }
  T& front() { return m_items[m_head]; }
  const T& front() const { return m_items[m_head]; }
  T& back() { return (*this)[m_size - 1]; }
  const T& back() const { return (*this)[m_size - 1]; }
  // The i-th live entry, oldest first.
  T& operator[](size_t i) { return m_items[(m_head + i) & m_mask]; }
  const T& operator[](size_t i) const { return m_items[(m_head + i) & m_mask]; }

  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (!m_items || m_size > m_mask) grow();
    T& slot = m_items[(m_head + m_size) & m_mask];
    slot = T{std::forward<Args>(args)...};
    ++m_size;
    return slot;
  }
  void pop_front() { drop_front(1); }
  // Drops the n oldest entries (n <= size()).
  void drop_front(size_t n) {
    m_head = static_cast<Index>((m_head + n) & m_mask);
    m_size -= static_cast<Index>(n);
  }

 private:
  // Out of line: callers' pushes stay small (no growth loop and its registers in their frames).
  [[gnu::noinline]] void grow() {
    const size_t capacity = m_items ? 2 * (size_t{m_mask} + 1) : 4;
    // Default-initialised, not zeroed: a slot is written before it is read (emplace_back).
    std::unique_ptr<T[]> bigger(new T[capacity]);
    for (size_t i = 0; i < m_size; ++i) bigger[i] = std::move((*this)[i]);
    m_items = std::move(bigger);
    m_mask = static_cast<Index>(capacity - 1);
    m_head = 0;
  }

  // The ring and its capacity - 1 (a power of two), kept rather than worked out per index.
  std::unique_ptr<T[]> m_items;
  Index m_mask = 0;
  Index m_head = 0;
  Index m_size = 0;
};

}  // namespace symsim

// The newest N entries of a stream (N a power of two), oldest first: a vector that grows as
// usual until it holds N, then overwrites its oldest entry. Nothing moves once it is full, and
// nothing is allocated or initialised beyond what was pushed (a QP that posts ten WQEs keeps ten).
#pragma once
#include <cstddef>
#include <vector>

namespace symsim {

template <typename T, size_t N>
class BoundedRing {
  static_assert(N && (N & (N - 1)) == 0, "N must be a power of two");

 public:
  bool empty() const { return m_items.empty(); }
  size_t size() const { return m_items.size(); }
  // The i-th entry, oldest first (m_next is 0 until the ring is full).
  T& operator[](size_t i) { return m_items[(m_next + i) & (N - 1)]; }
  const T& operator[](size_t i) const { return m_items[(m_next + i) & (N - 1)]; }
  T& back() { return (*this)[size() - 1]; }
  const T& back() const { return (*this)[size() - 1]; }

  void push_back(const T& item) {
    if (m_items.size() < N) {
      m_items.push_back(item);
    } else {
      m_items[m_next] = item;
      m_next = (m_next + 1) & (N - 1);
    }
  }

 private:
  std::vector<T> m_items;
  size_t m_next = 0;  // the oldest entry once full
};

}  // namespace symsim

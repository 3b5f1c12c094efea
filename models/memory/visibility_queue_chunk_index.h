// The visibility queue's records (pending streams, early writes) by the 64 KiB chunks they
// cover. Each put files and removes a stream and, through its forced WQE copy, an early write,
// and nearly every lookup is for a chunk that holds none (a forced write's SQ bytes, a put's
// source): a fixed table of buckets, each a doubly linked chain of nodes (one per chunk a record
// spans) kept in one pool, so filing and removing touch no hash slot and a lookup of an empty
// bucket is one load. for_each visits a chunk's records newest first, as PageMultimap does.
#pragma once
#include <array>
#include <cstdint>
#include <limits>
#include <vector>

namespace symsim {

class ChunkIndex {
 public:
  static constexpr uint32_t kNil = std::numeric_limits<uint32_t>::max();

  ChunkIndex() { m_heads.fill(kNil); }

  // Files record `id` under chunks [first, last]; returns its first node, for erase.
  uint32_t insert(uint32_t id, uint64_t first, uint64_t last) {
    uint32_t head = kNil;
    for (uint64_t c = last + 1; c-- > first;) head = link(id, c, head);
    return head;
  }
  // Removes the nodes of a record, from the one insert returned.
  void erase(uint32_t node) {
    while (node != kNil) {
      Node& n = m_nodes[node];
      (n.prev != kNil ? m_nodes[n.prev].next : m_heads[bucket(n.chunk)]) = n.next;
      if (n.next != kNil) m_nodes[n.next].prev = n.prev;
      const uint32_t sibling = n.sibling;
      n.next = m_free;
      m_free = node;
      --m_used;
      node = sibling;
    }
  }
  bool empty() const { return m_used == 0; }
  // Calls fn(id) for each record filed under `chunk`, newest first; fn must not change the index.
  template <typename Fn>
  void for_each(uint64_t chunk, Fn fn) const {
    for (uint32_t n = m_heads[bucket(chunk)]; n != kNil; n = m_nodes[n].next)
      if (m_nodes[n].chunk == chunk) fn(m_nodes[n].id);
  }

 private:
  static constexpr size_t kBuckets = 1024;
  struct Node {
    uint64_t chunk;
    uint32_t id;
    uint32_t prev;     // newer in the bucket
    uint32_t next;     // older in the bucket; the free list's link
    uint32_t sibling;  // the record's node for its next chunk
  };
  static size_t bucket(uint64_t chunk) { return static_cast<size_t>((chunk * 0x9E3779B97F4A7C15ull) >> 54); }

  uint32_t link(uint32_t id, uint64_t chunk, uint32_t sibling) {
    uint32_t n;
    if (m_free != kNil) {
      n = m_free;
      m_free = m_nodes[n].next;
    } else {
      n = static_cast<uint32_t>(m_nodes.size());
      m_nodes.emplace_back();
    }
    ++m_used;
    uint32_t& head = m_heads[bucket(chunk)];
    m_nodes[n] = Node{chunk, id, kNil, head, sibling};
    if (head != kNil) m_nodes[head].prev = n;
    head = n;
    return n;
  }

  std::array<uint32_t, kBuckets> m_heads;
  std::vector<Node> m_nodes;
  uint32_t m_free = kNil;
  size_t m_used = 0;  // nodes filed
};

}  // namespace symsim

// The visibility queue's records (pending streams, early writes) by the 64 KiB chunks they
// cover. Each put files and removes a stream and, through its forced WQE copy, an early write,
// and nearly every lookup is for a chunk that holds none (a forced write's SQ bytes, a put's
// source): a table of buckets, each a doubly linked chain of nodes (one per chunk a record
// spans) kept in one pool, so filing and removing touch no hash slot and a lookup of an empty
// bucket is one load. for_each visits a chunk's records newest first, as PageMultimap does.
// The table doubles once it holds two nodes a bucket: at MoE EP 256 full size thousands of
// streams are pending at once, and with a fixed 1,024 buckets two thirds of before_write's
// samples were the walk over other chunks' nodes (a cache miss each).
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

namespace symsim {

class ChunkIndex {
 public:
  static constexpr uint32_t kNil = std::numeric_limits<uint32_t>::max();

  ChunkIndex() : m_heads(kMinBuckets, kNil) {}

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
  size_t buckets() const { return m_heads.size(); }
  // Calls fn(id) for each record filed under `chunk`, newest first; fn must not change the index.
  template <typename Fn>
  void for_each(uint64_t chunk, Fn fn) const {
    for (uint32_t n = m_heads[bucket(chunk)]; n != kNil; n = m_nodes[n].next)
      if (m_nodes[n].chunk == chunk) fn(m_nodes[n].id);
  }

 private:
  static constexpr size_t kMinBuckets = 1024;
  static constexpr unsigned kMinShift = 54;  // 64 - log2(kMinBuckets)
  struct Node {
    uint64_t chunk;
    uint32_t id;
    uint32_t prev;     // newer in the bucket
    uint32_t next;     // older in the bucket; the free list's link
    uint32_t sibling;  // the record's node for its next chunk
  };
  // The top bits of a multiplicative hash: doubling the table splits bucket b into 2b and 2b + 1.
  size_t bucket(uint64_t chunk) const { return static_cast<size_t>((chunk * 0x9E3779B97F4A7C15ull) >> m_shift); }

  uint32_t link(uint32_t id, uint64_t chunk, uint32_t sibling) {
    uint32_t n;
    if (m_free != kNil) {
      n = m_free;
      m_free = m_nodes[n].next;
    } else {
      n = static_cast<uint32_t>(m_nodes.size());
      m_nodes.emplace_back();
      // Only here can the filed nodes pass two a bucket (with none free, every node is filed):
      // the test stays off the common path, a node taken from the free list (the put path's).
      if (m_nodes.size() > 2 * m_heads.size()) grow();
    }
    ++m_used;
    uint32_t& head = m_heads[bucket(chunk)];
    m_nodes[n] = Node{chunk, id, kNil, head, sibling};
    if (head != kNil) m_nodes[head].prev = n;
    head = n;
    return n;
  }

  // Twice the buckets. Each old bucket's nodes go, oldest first, to the front of their new
  // bucket (2b or 2b + 1): every new bucket keeps its nodes in the order they had, so a chunk's
  // records are still visited newest first.
  [[gnu::noinline]] void grow() {
    std::vector<uint32_t> old(2 * m_heads.size(), kNil);
    old.swap(m_heads);
    --m_shift;
    for (const uint32_t first : old) {
      if (first == kNil) continue;
      uint32_t n = first;
      while (m_nodes[n].next != kNil) n = m_nodes[n].next;  // the oldest
      while (n != kNil) {
        Node& node = m_nodes[n];
        const uint32_t newer = node.prev;
        uint32_t& head = m_heads[bucket(node.chunk)];
        node.prev = kNil;
        node.next = head;
        if (head != kNil) m_nodes[head].prev = n;
        head = n;
        n = newer;
      }
    }
  }

  std::vector<uint32_t> m_heads;
  unsigned m_shift = kMinShift;
  std::vector<Node> m_nodes;
  uint32_t m_free = kNil;
  size_t m_used = 0;  // nodes filed
};

}  // namespace symsim

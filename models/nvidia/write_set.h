// Writes that are in flight (issued, not yet fully visible), as a small sorted list of byte
// ranges. Overlapping or touching ranges merge (keeping the latest visibility time), so a warp
// copying a token with 32 lanes of 16 B stores ends up as one range per token.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/core/time.h"

namespace symsim::nv {

enum class WriterKind : uint8_t { Thread, Tma, Nic, Host };

// Who issued a write, for hazard reports.
struct WriterRef {
  WriterKind kind = WriterKind::Thread;
  int gpu = -1;
  int cta = -1;     // CTA (= SM) index; -1 for the NIC and the host
  int thread = -1;  // thread index within the CTA
  const char* file = nullptr;
  int line = 0;
  std::string describe() const;
};

// "kernels/nvlink/x.cu:42" for a call site (relative to the project), "" for none.
std::string site_text(const char* file, int line);

struct InFlightWrite {
  uintptr_t begin = 0;
  uintptr_t end = 0;  // one past the last byte
  Ps visible_ps = 0;  // every byte visible to everyone from then on
  WriterRef writer;   // for merged ranges: the writer of the part that lands last
};

class WriteSet {
 public:
  void add(const InFlightWrite& w);
  void add_all(const WriteSet& other, Ps now_ps);
  // Drops writes visible at or before `now_ps`.
  void prune(Ps now_ps);
  bool empty() const { return m_writes.empty(); }
  // No write in the set lands after this (0 when none): a test that skips the list, which is
  // as cold as its thread's state.
  Ps bound_ps() const { return m_bound_ps; }
  size_t size() const { return m_writes.size(); }
  const std::vector<InFlightWrite>& writes() const { return m_writes; }
  // Latest visibility time of the writes overlapping [begin, end); 0 if none.
  Ps overlap_visible_ps(uintptr_t begin, uintptr_t end) const;
  // The first write overlapping [begin, end) still invisible at `t_ps`, or null.
  const InFlightWrite* stale_at(uintptr_t begin, uintptr_t end, Ps t_ps) const;
  // Latest visibility time over writes `pred` selects; 0 if none.
  template <typename Pred>
  Ps latest_ps(Pred pred) const {
    Ps t = 0;
    for (const InFlightWrite& w : m_writes)
      if (pred(w) && w.visible_ps > t) t = w.visible_ps;
    return t;
  }
  // Removes writes `pred` selects.
  template <typename Pred>
  void erase_if(Pred pred) {
    size_t out = 0;
    for (size_t i = 0; i < m_writes.size(); ++i)
      if (!pred(m_writes[i])) m_writes[out++] = m_writes[i];
    m_writes.resize(out);
  }
  void remove(uintptr_t begin, uintptr_t end);
  // Keeps at most `n` ranges, forgetting those that land first.
  void cap(size_t n);
  void clear() {
    m_writes.clear();
    m_bound_ps = 0;
  }

 private:
  std::vector<InFlightWrite> m_writes;  // sorted by begin, non-overlapping, non-touching
  Ps m_bound_ps = 0;                     // the latest visible_ps added (kept when writes leave)
};

}  // namespace symsim::nv

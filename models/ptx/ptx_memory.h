// Shared memory as, per physical location, a list of messages ordered by timestamp: the
// modification order. Writes may be inserted between existing messages (a store can
// become visible "late" relative to others), except inside the atomicity window of a
// read-modify-write that is morally strong with the new write.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "models/ptx/ptx_types.h"
#include "models/ptx/ptx_view.h"

namespace symsim::ptx {

// What a release (a release store, or a release fence before a strong store) makes
// available: an acquirer joins `view` if it is morally strong with the release's start,
// i.e. both `scope` and the acquire's scope include the other thread.
struct Release {
  Placement origin;
  Scope scope = Scope::Sys;
  View view;
};

// Adds `from` into `into`, merging releases with the same origin thread and scope.
void merge_releases(std::vector<Release>& into, const std::vector<Release>& from);

struct Message {
  double ts = 0.0;
  int64_t value = 0;
  bool is_init = false;
  AccessInfo writer;               // placement, strength, scope, proxy, generic address
  std::vector<Release> releases;   // synchronisation carried to acquirers that observe it
  bool is_rmw = false;
  double read_ts = 0.0;            // for an RMW: timestamp of the message it read
};

class Memory {
 public:
  void add_location(int physical, int64_t init_value);
  const std::vector<Message>& at(int physical) const;

  // Timestamps where a new write by `writer` may go: after any message at or above `bound`.
  std::vector<double> write_slots(int physical, double bound, const AccessInfo& writer) const;
  // Timestamp for an RMW that reads message `index` (right after it), if that is allowed.
  std::optional<double> rmw_slot(int physical, size_t index, const AccessInfo& writer) const;

  void insert(int physical, Message m);
  // Value of the last write in modification order.
  int64_t final_value(int physical) const;

 private:
  std::optional<double> gap_after(int physical, size_t index, const AccessInfo& writer) const;
  std::vector<std::vector<Message>> locs_;
};

}  // namespace symsim::ptx

#include "models/ptx/ptx_memory.h"

#include <algorithm>
#include <stdexcept>

namespace symsim::ptx {

void merge_releases(std::vector<Release>& into, const std::vector<Release>& from) {
  for (const Release& r : from) {
    auto same = std::find_if(into.begin(), into.end(), [&](const Release& x) {
      return x.origin.thread == r.origin.thread && x.scope == r.scope;
    });
    if (same == into.end()) {
      into.push_back(r);
    } else {
      same->view.join(r.view);
    }
  }
}

void Memory::add_location(int physical, int64_t init_value) {
  if (physical < 0) throw std::invalid_argument("negative location id");
  if (static_cast<size_t>(physical) >= locs_.size()) locs_.resize(physical + 1);
  Message init;
  init.value = init_value;
  init.is_init = true;
  init.writer.place.thread = -1;
  locs_[physical] = {init};
}

const std::vector<Message>& Memory::at(int physical) const { return locs_.at(physical); }

std::optional<double> Memory::gap_after(int physical, size_t index, const AccessInfo& writer) const {
  const std::vector<Message>& msgs = locs_.at(physical);
  const double lo = msgs[index].ts;
  const bool last = index + 1 == msgs.size();
  const double ts = last ? lo + 1.0 : (lo + msgs[index + 1].ts) / 2.0;
  if (!(ts > lo) || (!last && !(ts < msgs[index + 1].ts))) return std::nullopt;  // precision exhausted
  for (const Message& m : msgs) {
    // Atomicity: no morally strong write between an RMW's read and its write.
    if (m.is_rmw && m.read_ts < ts && ts < m.ts && morally_strong(writer, m.writer)) return std::nullopt;
  }
  return ts;
}

std::vector<double> Memory::write_slots(int physical, double bound, const AccessInfo& writer) const {
  std::vector<double> slots;
  const std::vector<Message>& msgs = locs_.at(physical);
  for (size_t i = 0; i < msgs.size(); ++i) {
    if (msgs[i].ts < bound) continue;
    if (auto ts = gap_after(physical, i, writer)) slots.push_back(*ts);
  }
  return slots;
}

std::optional<double> Memory::rmw_slot(int physical, size_t index, const AccessInfo& writer) const {
  return gap_after(physical, index, writer);
}

void Memory::insert(int physical, Message m) {
  std::vector<Message>& msgs = locs_.at(physical);
  auto pos = std::upper_bound(msgs.begin(), msgs.end(), m.ts,
                              [](double ts, const Message& x) { return ts < x.ts; });
  msgs.insert(pos, std::move(m));
}

int64_t Memory::final_value(int physical) const { return locs_.at(physical).back().value; }

}  // namespace symsim::ptx

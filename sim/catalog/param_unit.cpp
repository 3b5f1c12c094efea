#include "sim/catalog/param_unit.h"

namespace symsim::catalog {

namespace {

bool ends_with(const std::string& s, const char* tail) {
  const std::string t(tail);
  return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

struct Suffix {
  const char* tail;
  const char* unit;
};

// Longest tails first where one ends another ("_gbytes_per_s" before "_bytes").
constexpr Suffix kSuffixes[] = {
    {"gbytes_per_s", "GB/s"},   {"_ns", "ns"},          {"_us", "us"},          {"_ps", "ps"},
    {"bytes", "B"},             {"_ghz", "GHz"},        {"_depth_bb", "WQEBB"}, {"_depth", "entries"},
    {"count", "count"},         {"cores", "count"},     {"max_threads", "count"},
    {"_per_thread", "count"},   {"_per_domain", "count"}, {"_per_leaf", "count"},
    {"_per_node", "count"},     {"_efficiency", "fraction"},
    {"idle_poll_sleep", "0/1"}, {"_atomics", "0/1"},      {"_local_drain", "0/1"},
    {"channels", "count"},      {"_holds_engine", "0/1"},   {"_uses_loads", "0/1"},
    {"_before_use", "count"},   {"_allocates", "0/1"},      {"_pays_fence", "0/1"},
    {"_wait_for_fill", "0/1"}, {"_shifted_unaligned", "0/1"}, {"_on_change", "0/1"},
    {"_displaces", "0/1"},      {"_phase_once", "0/1"},   {"_last_rmw", "0/1"},
    {"engine_mva", "0/1"},      {"_partition_bits", "mask"},  {"engine_mva_segments", "0/1"},
    {"_no_wait", "0/1"},        {"_cycles", "cycles"},      {"_first_poll", "0/1"},
    {"_pass_linear", "0/1"},    {"_own_turn", "0/1"},     {"_streams_aligned", "0/1"},
    {"_skips_use", "0/1"},      {"_pair_fixed_pass", "0/1"},  {"_first_store_head", "0/1"},
};

}  // namespace

const char* param_unit(const std::string& key) {
  for (const Suffix& s : kSuffixes)
    if (ends_with(key, s.tail)) return s.unit;
  return nullptr;
}

}  // namespace symsim::catalog

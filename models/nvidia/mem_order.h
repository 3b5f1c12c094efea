// The PTX memory-ordering rules the NVIDIA models apply at run time, on real bytes with
// simulated visibility times. Vocabulary and the synchronisation test are the ones of the
// operational litmus model (models/ptx: scopes, semantics, placements, "morally strong");
// what differs is that writes here have times: a weak or relaxed store lands at its own
// (seeded, possibly late) time, and
//  * a release at scope S stalls its thread until the thread's in-scope writes have landed
//    (sys: all; gpu/cta: those to the thread's own GPU); writes outside the scope travel on
//    with the release as obligations ("carried"), which is what makes releases cumulative;
//  * an acquire that synchronises with a release (morally strong: both scopes include the
//    other thread) inherits those obligations: the acquirer's later loads of those bytes wait
//    for them (and its own later releases wait for them as for its own writes);
//  * TMA (async-proxy) stores are not ordered by a release until `tma_store_wait` completes;
//  * __syncthreads / __syncwarp are CTA-scope release+acquire among their participants.
// A flag (a word written by a store or RMW) remembers the writes its writer had issued or
// inherited and not waited for ("unordered"). A reader that observes the flag and then reads
// such bytes before they land gets `flag_before_data`, naming flag, data and both writers.
// Happens-before, independent of timing: a thread also keeps the writes ordered before it
// that no release of its own has covered yet ("unfenced": sys scope covers all, narrower
// scopes the writes to its own GPU), landed or not. A flag remembers those too ("unordered by
// the rules"); a reader that observes it and reads such bytes, even after they landed, gets
// `flag_before_data` with observed = false, naming the fence that is missing. Sets that are
// not pruned by time are capped (the oldest writes are forgotten: fewer reports, never more).
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "models/core/observer.h"
#include "models/nvidia/write_set.h"
#include "models/ptx/ptx_types.h"

namespace symsim::nv {

using ptx::Scope;
using ptx::Sem;

// The writes of WQEs a NIC had posted on its other QPs to a word's GPU and not executed yet
// when it took the WQE that writes the word (models/nvidia/nic_execute.cpp): not ordered before
// the word (RC orders one QP only), and their landing times known only once the NIC executes
// them, maybe after the word landed and was read. Shared by the word and every watch of it:
// the NIC fills in each landing time in place.
constexpr Ps kNotSentPs = ~Ps{0};  // visible_ps of a write whose WQE the NIC has not executed
// Each write is filled in once (sent or dropped), so whether all have landed is two counters,
// not a scan of the writes (it is asked at every data read of a watched flag's reader).
class PostedWrites {
 public:
  // One per WQE; visible_ps kNotSentPs until sent, 0 once known to write nothing.
  const std::vector<InFlightWrite>& writes() const { return m_writes; }
  // A posted WQE's write, not sent yet; returns its index.
  uint32_t add(const InFlightWrite& w) {
    m_writes.push_back(w);
    m_writes.back().visible_ps = kNotSentPs;
    ++m_unsent;
    return static_cast<uint32_t>(m_writes.size() - 1);
  }
  // The NIC executed write `k`'s WQE: `w` is what it wrote and when that lands.
  void sent(uint32_t k, const InFlightWrite& w) {
    m_writes[k] = w;
    m_latest_ps = std::max(m_latest_ps, w.visible_ps);
    --m_unsent;
  }
  // Write `k` wrote nothing, or is forgotten.
  void dropped(uint32_t k) {
    m_writes[k].visible_ps = 0;
    --m_unsent;
  }
  bool landed_by(Ps t_ps) const { return m_unsent == 0 && m_latest_ps <= t_ps; }

 private:
  std::vector<InFlightWrite> m_writes;
  uint32_t m_unsent = 0;  // writes neither sent nor dropped
  Ps m_latest_ps = 0;     // latest landing of the sent ones
};
struct PostedRef {
  std::shared_ptr<const PostedWrites> set;
  std::vector<bool> reported;  // by write; empty until one is reported (one report per write)
};
constexpr size_t kPostedCap = 8;  // posted sets kept per word or watch (the oldest are forgotten)

// A flag a thread observed while writes its writer had ordered before it were still in
// flight. Watches travel with synchronisation (releases, barriers) like obligations: a thread
// that synchronised with the observer and then reads those bytes early is reported too.
struct FlagWatch {
  uintptr_t flag = 0;
  WriterRef flag_writer;
  WriteSet unordered;
  WriteSet by_rules;  // not ordered before the flag by the rules, landed or not
  std::vector<PostedRef> posted;  // writes posted before the flag, not sent then (usually none)
};
constexpr size_t kUnfencedCap = 32;  // ranges kept per set not pruned by time
using Watches = std::vector<FlagWatch>;
// Adds `from` into `into` (one entry per flag, at most 16), dropping writes landed by `now_ps`.
// Inline for the usual empty `from` (every barrier arrival and leave): the call's frame was a
// stack line of its own below the barrier's, cold at each resumption.
void merge_watches_nonempty(Watches& into, const Watches& from, Ps now_ps);
inline void merge_watches(Watches& into, const Watches& from, Ps now_ps) {
  if (!from.empty()) merge_watches_nonempty(into, from, now_ps);
}

// A release made visible to acquirers through a word.
struct ReleaseInfo {
  ptx::Placement origin;
  WriterRef releaser;  // the releasing thread, as its writes name it
  Scope scope = Scope::Sys;
  WriteSet carried;
  WriteSet carried_unfenced;  // out-of-scope writes, landed or not: ordered for a synchronising acquirer
  Watches watches;
};

// What a CTA barrier or __syncwarp passes among its participants.
struct SyncCarry {
  WriteSet writes;
  WriteSet unfenced;
  Watches watches;
  void clear() {
    writes.clear();
    unfenced.clear();
    watches.clear();
  }
};

// What the ordering model knows about the last write to a word (a flag, counter, signal).
struct WordState {
  WriterRef writer;
  std::vector<ReleaseInfo> releases;  // release store, or release sequence through RMWs
  WriteSet unordered;                 // writes ordered before it in program order, still in flight
  WriteSet unordered_by_rules;        // writes no release orders before it, landed or not
  std::vector<std::shared_ptr<const PostedWrites>> posted;  // (usually none)
};

// Per CUDA thread.
// By use: the first 120 bytes are what most device calls read (the in-flight sets' sizes, to
// prune them; the watches a barrier or an acquire merges), two lines where it starts a line
// (CudaThread): its state is cold at each resumption, so each line it reads is a miss.
struct ThreadOrder {
  WriteSet own;          // generic-proxy writes in flight
  WriteSet inherited;    // in-flight writes ordered before this thread by an acquire
  WriteSet bulk;         // TMA stores not yet waited for
  Watches watches;             // flags observed whose data had not all landed
  WriteSet unfenced;     // own and inherited writes no release of this thread covered yet
  std::vector<ReleaseInfo> observed;  // releases seen by relaxed reads, for a later fence
  ptx::Placement place;  // thread: unique in the run; cta: CTA index; gpu
  WriterRef reader;            // this thread, for reports
};

// The words that publish something, by address; entries are never removed. Nearly every
// lookup (each load of up to 8 B) finds nothing, and between two lookups every other GPU runs:
// a miss reads one line of a flat key array, not a hash bucket and a list node. The keys sit in
// the probe array itself, unlike ProbeIndex (models/core/probe_index.h), whose probes read each
// occupied slot's key from the owner's array: one more cold line per probe on the miss path.
class WordTable {
 public:
  size_t size() const { return m_states.size(); }
  // The state of the word at `addr` (not 0), or null.
  WordState* find(uintptr_t addr) {
    for (size_t i = home(addr);; i = (i + 1) & (m_keys.size() - 1)) {
      if (m_keys[i] == addr) return &m_states[m_index[i]];
      if (m_keys[i] == 0) return nullptr;
    }
  }
  // Adds the word at `addr`, not in the table yet.
  void add(uintptr_t addr, WordState s);

 private:
  size_t home(uintptr_t addr) const { return static_cast<size_t>((addr * 0x9e3779b97f4a7c15ull) >> m_shift); }
  std::vector<uintptr_t> m_keys = std::vector<uintptr_t>(size_t{1} << 10);  // 0: free; at most half full
  std::vector<uint32_t> m_index = std::vector<uint32_t>(size_t{1} << 10);   // beside each key: its state
  unsigned m_shift = 64 - 10;
  std::vector<WordState> m_states;  // in order of addition
};

class OrderModel {
 public:
  explicit OrderModel(Hooks& hooks) : m_hooks(hooks) {}

  // The stall a release at `scope` by `t` needs: the latest landing time of its in-scope
  // writes (own and inherited); 0 when none.
  Ps release_wait_ps(const ThreadOrder& t, Scope scope) const;
  // The release record a release store / RMW by `t` at time `t_ps` publishes.
  ReleaseInfo make_release(const ThreadOrder& t, Scope scope, Ps t_ps) const;
  // Writes the thread issued or inherited that are still in flight at `t_ps` (TMA included).
  WriteSet unordered(const ThreadOrder& t, Ps t_ps) const;
  // A write by the thread: unfenced until a release covers it.
  static void wrote(ThreadOrder& t, const InFlightWrite& w);
  // A release at `scope` by the thread: its in-scope unfenced writes are now ordered.
  void released(ThreadOrder& t, Scope scope) const;

  // A write to a word becomes visible: a plain store replaces its state, an RMW continues it.
  void word_written(uintptr_t addr, WordState s, bool rmw);
  // A load of a word (len <= 16) by `t` at `t_ps`; `acquire` for ld.acquire / acquire RMW.
  void word_read(ThreadOrder& t, uintptr_t addr, Sem sem, Scope scope, Ps t_ps);
  // fence.acq_rel / fence.sc: releases seen by earlier relaxed reads are acquired.
  void fence_acquire(ThreadOrder& t, Scope scope, Ps t_ps);
  // Data read of [begin, end) at `t_ps`: reports flag_before_data for bytes a watched flag
  // published that have not landed.
  void data_read(ThreadOrder& t, uintptr_t begin, uintptr_t end, Ps t_ps, const char* file, int line);

  // Latest landing time of writes the thread must see before reading [begin, end), at least
  // `floor_ps`.
  static Ps read_wait_ps(const ThreadOrder& t, uintptr_t begin, uintptr_t end, Ps floor_ps = 0);
  // A barrier participant arrives: stalls for its in-scope writes (CTA scope) and adds what
  // it leaves in flight, and what it watches, to `carry`; leaving hands `carry` to it.
  // With `wait` false (ptx::syncwarp_all) it does not stall; its writes still travel as obligations.
  void barrier_arrive(ThreadOrder& t, Ps& t_ps, SyncCarry& carry, bool wait = true) const;
  static void barrier_leave(ThreadOrder& t, const SyncCarry& carry, Ps t_ps);
  // Which GPU an address belongs to (set by the platform).
  void set_gpu_of(int (*fn)(const void*, void*), void* ctx) { m_gpu_of = fn, m_gpu_ctx = ctx; }
  int gpu_of(uintptr_t addr) const { return m_gpu_of ? m_gpu_of(reinterpret_cast<const void*>(addr), m_gpu_ctx) : -1; }
  size_t words() const { return m_words.size(); }
  uint64_t reports() const { return m_reports; }

 private:
  void acquire(ThreadOrder& t, const std::vector<ReleaseInfo>& releases, Scope scope, Ps t_ps);
  bool in_scope(const InFlightWrite& w, Scope scope, int gpu) const {
    return scope == Scope::Sys || gpu_of(w.begin) == gpu;
  }
  void report(const ThreadOrder& t, const FlagWatch& w, const InFlightWrite& x, uintptr_t begin, uintptr_t end,
              Ps t_ps, bool observed, const char* file, int line);
  // data_read over the watch's posted sets: reports the first write not landed at `t_ps`.
  bool read_posted(const ThreadOrder& t, FlagWatch& w, uintptr_t begin, uintptr_t end, Ps t_ps, const char* file,
                   int line);

  Hooks& m_hooks;
  WordTable m_words;
  int (*m_gpu_of)(const void*, void*) = nullptr;
  void* m_gpu_ctx = nullptr;
  uint64_t m_reports = 0;
};

}  // namespace symsim::nv

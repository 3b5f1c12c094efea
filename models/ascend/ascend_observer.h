// The Ascend family's events, beyond the common ones of Observer: what AIV cores do through
// the shim (copies on the pipes, GM stores and reads, pipe synchronisation, the Unified Buffer
// layout, allocations, device barriers, WQE posts and doorbell stores with their call sites)
// and what the UDMA engine sees when it fetches WQEs. The Ascend hazard checkers
// (sim/checkers) are AscendObservers.
#pragma once
#include <cstdint>
#include <string>

#include "models/core/observer.h"

namespace symsim {

struct Region;

// A WQE a kernel posted through the SHMEM device API, with the call that posted it.
struct PostRecord {
  QpRef qp;
  uint32_t wqe_index = 0;  // monotonic WQEBB index of its first block
  uint32_t bb = 1;
  uint8_t opcode = 0;
  uint8_t flags = 0;
  int core = -1;
  uint64_t local_va = 0;
  uint64_t remote_va = 0;  // translated to the target PE
  uint64_t bytes = 0;
  Ps t = 0;
  SiteRef site;
};

// One contiguous copy on an AIV pipe (DataCopy, DataCopyPad, WQE staging): `src` is read at
// issue, `dst` holds the bytes from `visible_ps` on.
struct CopyRecord {
  int pe = -1;
  int core = -1;
  int pipe = 0;              // AivPipe
  uint8_t* dst = nullptr;
  const uint8_t* src = nullptr;
  const Region* dst_region = nullptr;  // the address map's regions holding dst and src (null: none)
  const Region* src_region = nullptr;
  uint64_t bytes = 0;          // read at src (and written at dst unless dst_bytes says otherwise)
  uint64_t dst_bytes = 0;      // written at dst when it differs from bytes (vector instructions); 0: bytes
  bool byte_granular = false;  // DataCopyPad / shim-internal: no 32 B length rule
  bool atomic_add = false;     // SetAtomicAdd: adds into dst (concurrent adds do not race)
  Ps issue_ps = 0;
  Ps visible_ps = 0;
  SiteRef site;
};

// A direct write to device memory, outside the copy pipes and the visibility queue: scalar
// stores written back by dcci, st_dev, SIMT atomics, host copies and memsets.
struct StoreRecord {
  int pe = -1;     // whose memory
  int core = -1;   // -1: the PE's host program
  const uint8_t* dst = nullptr;
  uint64_t bytes = 0;
  Ps t = 0;        // when the bytes changed (the writer's time)
  const char* what = "";  // "scalar store (dcci)", "st_dev", "host copy", ...
  SiteRef site;
};

// SetFlag / WaitFlag / PipeBarrier on an AIV core (pipes as AivPipe values).
struct PipeSyncRecord {
  enum Kind { kSetFlag, kWaitFlag, kBarrier };
  int pe = -1;
  int core = -1;
  Kind kind = kSetFlag;
  int src_pipe = 0;
  int dst_pipe = 0;  // kBarrier: the pipe barred (4: all)
  int event_id = 0;
  bool matched = true;  // kWaitFlag: a SetFlag was pending
  Ps t = 0;
  SiteRef site;
};

class AscendObserver : public Observer {
 public:
  // Kernel side, for checkers (the shim emits these with the kernel's call site).
  virtual void on_wqe_post(const PostRecord&) { unhandled(); }
  virtual void on_doorbell_store(const QpRef&, bool cq, uint32_t value, int core, Ps t, SiteRef site) { unhandled(); }
  virtual void on_copy(const CopyRecord&) { unhandled(); }
  virtual void on_gm_store(const StoreRecord&) { unhandled(); }
  // dcci / ld_dev / a GM read: the core sees [addr, addr+bytes) as it is at `t`.
  virtual void on_gm_observe(int pe, int core, const uint8_t* addr, uint64_t bytes, Ps t, SiteRef site) { unhandled(); }
  virtual void on_pipe_sync(const PipeSyncRecord&) { unhandled(); }
  // The core's Unified Buffer [ub, ub+ub_bytes) has [ub, ub+allocated) allocated (TPipe).
  virtual void on_ub_layout(int pe, int core, const uint8_t* ub, uint64_t allocated, uint64_t ub_bytes) { unhandled(); }
  // Device memory handed out: aclshmem_malloc (symmetric), aclrtMalloc, SHMEM tables.
  virtual void on_alloc(int pe, const char* kind, const uint8_t* p, uint64_t bytes) { unhandled(); }
  // Every block of every PE passed aclshmemx_barrier_all_vec; they leave at `t`.
  virtual void on_device_barrier(Ps t) { unhandled(); }
  // Engine side, for checkers.
  // The engine read the WQE at `wqe_index` from its ring slot at `t` (before executing it).
  virtual void on_wqe_fetched(const QpRef&, uint32_t wqe_index, const uint8_t* slot, uint32_t bytes, Ps t) { unhandled(); }
  // A doorbell published a producer index more than a ring ahead of what the engine consumed.
  virtual void on_sq_overrun(const QpRef&, uint32_t producer_index, uint32_t consumed, uint32_t depth, Ps t) { unhandled(); }
};

}  // namespace symsim

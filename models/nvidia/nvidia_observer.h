// The NVIDIA family's events, beyond the common ones of Observer: what a NIC found when it
// checked a doorbell, a WQE it fetched, the memory a WQE names, or the CQ it completes into
// (the NIC acts on each: an error CQE, the QP in error, a lost CQE), and what the
// memory-ordering model found when a thread read data after observing a flag. The models only
// state the facts; the NVIDIA hazard checkers (sim/checkers/nvidia) judge and report them.
#pragma once
#include <cstdint>

#include "models/core/observer.h"
#include "models/nvidia/write_set.h"

namespace symsim::nv {

// A NIC QP as reports name it.
struct NicQpView {
  QpRef ref;  // (GPU, peer GPU, index among the GPU's QPs to that peer)
  uint32_t qpn = 0;
  uint32_t sq_depth = 0;  // WQEBBs
  uint32_t cq_depth = 0;  // CQEs
};

// A doorbell whose 16-bit producer index is behind the one rung before (the NIC ignores it).
struct NicDoorbellBack {
  NicQpView qp;
  uint32_t rung = 0;     // monotonic producer index before this doorbell
  uint32_t index16 = 0;  // the 16-bit index this doorbell rang
  Ps t = 0;
};

// The SQ slot of WQE `index` held a control segment whose WQE index is not `index` (16 bits).
struct NicSlotMismatch {
  NicQpView qp;
  uint32_t index = 0;  // monotonic WQEBB index the NIC fetched
  uint32_t slot = 0;
  uint64_t slot_addr = 0;
  uint16_t found16 = 0;  // the control segment's WQE index
  uint8_t opcode = 0;
  WriterRef ringer;  // who rang the doorbell that published WQE `index`
  Ps t = 0;
};

// A WQE the NIC cannot parse (it completes it with a local QP operation error).
struct NicMalformedWqe {
  enum Kind { kWrongQp, kInlineOverrun, kUnknownOpcode };
  Kind kind = kWrongQp;
  NicQpView qp;
  uint32_t index = 0;
  uint64_t addr = 0;        // the SQ slot (kWrongQp), the remote address (kInlineOverrun), 0
  uint32_t named_qpn = 0;   // kWrongQp
  uint32_t ds = 0;          // kWrongQp: data segments named
  uint32_t inline_len = 0;  // kInlineOverrun
  uint8_t opcode = 0;       // kUnknownOpcode
  Ps t = 0;
};

// Memory a WQE names that the NIC refused (it completes the WQE with an access error).
struct NicAccessError {
  enum Kind {
    kRemoteKey,           // the remote region exists under another key
    kRemoteUnregistered,  // no region the target GPU registered holds the bytes
    kLocalUnregistered,   // the local buffer is not memory this GPU registered (under lkey)
    kAtomicUnaligned,     // an atomic on an address not aligned to its size
  };
  Kind kind = kRemoteKey;
  NicQpView qp;
  uint32_t index = 0;
  int gpu = -1;           // whose memory: the peer (remote kinds) or the NIC's GPU (local)
  uint64_t addr = 0;
  uint64_t bytes = 0;
  uint32_t key = 0;         // the rkey / lkey the WQE gave
  uint32_t region_key = 0;  // kRemoteKey: the key of the region holding the bytes
  Ps t = 0;
};

// A CQE found its CQ full (consumer index checked, oi=0): the CQE is lost.
struct NicCqeLost {
  NicQpView qp;
  uint32_t index = 0;     // the WQE it completes
  uint32_t cqe = 0;       // the CQE's number on this CQ
  uint32_t consumer = 0;  // the consumer index the GPU last wrote
  uint64_t entry_addr = 0;
  Ps t = 0;
};

// A thread read [begin, end) after a flag at `flag` was observed (by it or a thread it
// synchronised with), and bytes [data_begin, data_end) that the flag's writer did not order
// before the flag are not, or only by this run's timing, visible (`landed`).
struct FlagDataRead {
  int gpu = -1;      // where the reader runs
  WriterRef reader;  // with its call site
  uintptr_t begin = 0, end = 0;
  uintptr_t flag = 0;
  WriterRef flag_writer;
  uintptr_t data_begin = 0, data_end = 0;
  Ps data_visible_ps = 0;
  WriterRef data_writer;
  bool data_remote = false;  // the data writer stored into another GPU's memory (NVLink)
  bool landed = false;       // false: the read saw stale bytes this run
  Ps t = 0;
};

class NvidiaObserver : public Observer {
 public:
  virtual void on_nic_doorbell_back(const NicDoorbellBack&) { unhandled(); }
  virtual void on_nic_slot_mismatch(const NicSlotMismatch&) { unhandled(); }
  virtual void on_nic_malformed_wqe(const NicMalformedWqe&) { unhandled(); }
  virtual void on_nic_access_error(const NicAccessError&) { unhandled(); }
  virtual void on_nic_cqe_lost(const NicCqeLost&) { unhandled(); }
  virtual void on_flag_data_read(const FlagDataRead&) { unhandled(); }
};

}  // namespace symsim::nv

// The RDMA NIC of one GPU (a ConnectX-7-like RC NIC) driven by GPU threads (IBGDA / NCCL Gin
// GDAKI). Each RC QP has its SQ ring in GPU memory (64 B WQEBBs the GPU threads write), a
// doorbell record, and a CQ ring in GPU memory (optionally collapsed: every CQE overwrites
// entry 0). A store to the NIC's UAR window (MMIO, over PCIe) rings a QP; the NIC then fetches
// the new WQEs from GPU memory over PCIe, parses their bytes, reads WRITE payloads by DMA,
// sends them over the InfiniBand fabric, and the target NIC writes them into the target GPU's
// memory over its PCIe; an ACK returns and a CQE is written. A QP's WQEs execute strictly in
// order: a WRITE then an ATOMIC on one QP land in that order. Times are computed per WQE when
// it is fetched; every step that reads memory does so at its own simulated time.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include "models/nvidia/nvidia_observer.h"
#include "models/memory/address_map.h"
#include "models/memory/sparse_region.h"
#include "models/nvidia/write_set.h"

namespace symsim::nv {

class NvidiaSystem;

struct NicQpConfig {
  int peer = -1;               // target GPU
  int slot_qp = 0;             // index among this GPU's QPs to `peer` (for reports)
  uint32_t sq_depth = 0;       // WQEBBs, power of two
  uint32_t cq_depth = 0;       // CQEs, power of two
  bool collapsed_cq = true;    // cc=1: the NIC always writes CQ entry 0
  bool overrun_ignore = true;  // oi=1: the NIC never checks the CQ consumer index
};

struct NicQp {
  NicQpConfig cfg;
  int index = 0;
  uint32_t qpn = 0;
  uint8_t* sq = nullptr;        // SQ ring in GPU memory
  uint8_t* dbrec = nullptr;     // SQ doorbell record (BE32 producer index), GPU memory
  uint8_t* cq = nullptr;        // CQ ring in GPU memory (pre-filled with 0xff)
  uint8_t* cq_dbrec = nullptr;  // CQ consumer index (BE32) the GPU writes, read when oi=0
  // NIC state.
  uint32_t rung = 0;       // producer index rung so far (WQEBBs, monotonic)
  uint32_t fetched = 0;    // next WQEBB index to fetch (monotonic)
  uint32_t cq_produced = 0;
  bool fetching = false;
  bool error = false;
  Ps last_remote_ps = 0;   // remote effects of this QP land in order
  Ps last_cqe_ps = 0;
  WriteSet inflight;       // this QP's remote writes not yet landed
  struct Ring {
    uint32_t upto = 0;     // producer index of this doorbell
    WriterRef who;         // the thread that rang
    WriteSet unordered;    // what it had issued and not ordered before ringing
    WriteSet unfenced;     // what no system-scope release of it ordered before ringing, landed or not
    Ps issued_ps = 0;      // when the thread's doorbell store issued
  };
  std::deque<Ring> rings;
};

class Nic : public MmioTarget {
 public:
  static constexpr uint64_t kDoorbellWindowBytes = uint64_t{1} << 20;

  Nic(NvidiaSystem& sys, int gpu);

  // Host side (set-up): an RC QP with its rings in this GPU's runtime area.
  int create_qp(const NicQpConfig& cfg);
  NicQp& qp(int index) { return m_qps[static_cast<size_t>(index)]; }
  const std::vector<NicQp>& qps() const { return m_qps; }
  // Registers [base, base+len) of this GPU for RDMA; returns its key (lkey = rkey).
  uint32_t register_memory(const uint8_t* base, uint64_t len);
  uint8_t* doorbell_window() const { return m_uar.base(); }

  // A doorbell store by a GPU thread at `t_ps`: 8 bytes {BE32(prod << 8), BE32(qpn << 8)}.
  // `unfenced`: the ringer's writes no release covered (landed or not), for happens-before.
  void doorbell(uint64_t offset, uint64_t value, Ps t_ps, const WriterRef& who, WriteSet unordered,
                WriteSet unfenced = {});
  void mmio_store(uint64_t offset_bytes, uint64_t value, Ps t_ps) override;

  int gpu() const { return m_gpu; }
  uint64_t wqes() const { return m_wqes; }

 private:
  struct MemRegion {
    const uint8_t* base;
    uint64_t len;
    uint32_t key;
  };
  void ring(NicQp& q, uint32_t upto, Ps t, WriterRef who, WriteSet unordered, WriteSet unfenced, Ps issued_ps);
  void fetch(int qp, Ps t);
  // Executes the WQE at `wqe` (bytes as fetched); returns the WQEBBs it takes.
  uint32_t execute(NicQp& q, uint32_t index, const uint8_t* wqe, Ps t, const NicQp::Ring& ring);
  void complete(NicQp& q, uint32_t index, uint8_t opcode, uint32_t bytes, uint8_t syndrome, bool cqe, Ps t,
                WqeRecord rec);
  // A region registered at this NIC holding [p, p+len): one with `key` if there is one, else
  // any (whose key then does not match), else null.
  const MemRegion* region_of(const uint8_t* p, uint64_t len, uint32_t key) const;
  // What the NIC found wrong, for the NVIDIA checkers (models/nvidia/nvidia_observer.h).
  NicQpView view(const NicQp& q) const;
  void emit_malformed(const NicMalformedWqe& e);
  void emit_access_error(const NicAccessError& e);

  NvidiaSystem& m_sys;
  int m_gpu;
  SparseRegion m_uar;
  std::vector<NicQp> m_qps;
  std::vector<MemRegion> m_regions;
  Ps m_free_ps = 0;  // the NIC's WQE processing pipeline
  uint64_t m_wqes = 0;
};

}  // namespace symsim::nv

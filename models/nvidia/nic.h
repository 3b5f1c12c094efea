// The RDMA NIC of one GPU (a ConnectX-7-like RC NIC) driven by GPU threads (IBGDA / NCCL Gin
// GDAKI). Each RC QP has its SQ ring in GPU memory (64 B WQEBBs the GPU threads write), a
// doorbell record, and a CQ ring in GPU memory (optionally collapsed: every CQE overwrites
// entry 0). A store to the NIC's UAR window (MMIO, over PCIe) rings a QP; the NIC then fetches
// the new WQEs from GPU memory over PCIe, parses their bytes, reads WRITE payloads by DMA,
// sends them over the InfiniBand fabric, and the target NIC writes them into the target GPU's
// memory over its PCIe; an ACK returns and a CQE is written. A QP's WQEs execute strictly in
// order: a WRITE then an ATOMIC on one QP land in that order. Times are computed per WQE when
// it is fetched; every step that reads memory does so at its own simulated time.
// As a SystemC module ("platform.gpu0.nic") the NIC takes doorbells on a TLM target socket
// (the UAR window, addressed by offset) and reaches its GPU's memory through a DMA initiator
// socket bound to the HBM target, whose direct-memory pointer it uses for every access.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "models/nvidia/mlx5_layout.h"
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

struct NicFlag;  // a word a WQE writes and what it publishes (nic_execute.cpp)
struct PostedWrites;  // models/nvidia/mem_order.h

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
  uint32_t executed = 0;   // next WQEBB index to execute (monotonic)
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
    // The other QPs to the same GPU with WQEs posted and not executed when it arrived: up to
    // which WQEBB index (their writes are not ordered before this QP's).
    struct Posted {
      int qp = 0;
      uint32_t end = 0;
    };
    std::vector<Posted> posted;
  };
  std::deque<Ring> rings;
  // A posted WQE of this QP whose write another QP's flag lists as not ordered before it
  // (RC orders one QP only): its landing time, filled in when the NIC executes it.
  struct Waiter {
    uint32_t index = 0;  // the WQE
    std::shared_ptr<PostedWrites> set;
    uint32_t write = 0;  // its entry in `set`
  };
  std::vector<Waiter> waiters;
};

struct WordState;

// What a GPU thread's doorbell store carries besides its 8 bytes: who rang, and its writes
// that nothing had ordered before the store (what the NIC's writes then publish).
struct DoorbellOrigin : tlm::tlm_extension<DoorbellOrigin> {
  WriterRef who;
  WriteSet unordered;
  WriteSet unfenced;  // not covered by a system-scope release, landed or not
  tlm::tlm_extension_base* clone() const override { return new DoorbellOrigin(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override { *this = static_cast<const DoorbellOrigin&>(e); }
};

class Nic : public sc_core::sc_module, public MmioTarget {
 public:
  static constexpr uint64_t kDoorbellWindowBytes = uint64_t{1} << 20;

  Nic(sc_core::sc_module_name name, NvidiaSystem& sys, int gpu);
  const char* kind() const override { return "symsim::nv::Nic"; }

  // Doorbells: 8-byte writes at an offset of the UAR window; the time annotation is when the
  // store left the GPU (posted: it takes effect pcie.latency_ns later, the writer goes on).
  tlm_utils::simple_target_socket<Nic> doorbell_in;
  // DMA to this GPU's memory (WQE fetch, payload reads, CQEs, landing writes from peers).
  tlm_utils::simple_initiator_socket<Nic> dma;

  // Host side (set-up): an RC QP with its rings in this GPU's runtime area.
  int create_qp(const NicQpConfig& cfg);
  NicQp& qp(int index) { return m_qps[static_cast<size_t>(index)]; }
  const std::vector<NicQp>& qps() const { return m_qps; }
  // Registers [base, base+len) of this GPU for RDMA; returns its key (lkey = rkey).
  uint32_t register_memory(const uint8_t* base, uint64_t len);
  uint8_t* doorbell_window() const { return m_uar.base(); }

  // A host store to the UAR window (no ordering state travels with it).
  void mmio_store(uint64_t offset_bytes, uint64_t value, Ps t_ps) override;

  int gpu() const { return m_gpu; }
  uint64_t wqes() const { return m_wqes; }
  Ps busy_ps() const { return m_busy_ps; }  // the WQE pipeline's busy time (on_engine_busy's sum)

 private:
  struct MemRegion {
    const uint8_t* base;
    uint64_t len;
    uint32_t key;
  };
  struct Exec;  // one WQE being executed (nic_execute.cpp)

  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  // A doorbell at `t_ps`: 8 bytes {BE32(prod << 8), BE32(qpn << 8)}.
  void doorbell(uint64_t value, Ps t_ps, const WriterRef& who, WriteSet unordered, WriteSet unfenced);
  void ring(NicQp& q, uint32_t upto, Ps t, WriterRef who, WriteSet unordered, WriteSet unfenced, Ps issued_ps);
  void fetch(int qp, Ps t);
  // Executes the WQE at `wqe` (bytes as fetched); returns the WQEBBs it takes.
  uint32_t execute(NicQp& q, uint32_t index, const uint8_t* wqe, Ps t, const NicQp::Ring& ring);
  // False when the WQE is flushed or refused before its opcode is looked at (then completed).
  bool admit(Exec& e);
  void run_write(Exec& e);
  void run_atomic(Exec& e);
  void run_read(Exec& e);
  // Key checks of a WQE's remote buffer (its remote address segment, `len` bytes) and local
  // buffer; on failure the QP errs and the WQE completes.
  bool remote_ok(Exec& e, uint64_t len);
  bool local_ok(Exec& e, uint64_t laddr, uint32_t lkey, uint64_t len);
  // The WQE ran: its record (where its bytes went, when) and its completion, the CQE at `cqe_ps`.
  void finish(Exec& e, uint64_t raddr, uint64_t laddr, uint32_t bytes, Ps wire_ps, Ps remote_write_ps,
              Ps complete_ps, Ps cqe_ps);
  // The QP goes to error; the WQE completes at `t` with `syndrome`.
  void fail(Exec& e, uint8_t syndrome, Ps t);
  // What a word the WQE writes at the target publishes, decided at `t`.
  std::shared_ptr<NicFlag> word_state(const Exec& e, Ps t);
  // The end (WQEBB index) of what is posted on `o`: rung, and written into its SQ after that.
  uint32_t posted_end(NicQp& o);
  // Lists in `f` the writes of the WQEs posted on `o` up to `end` and not executed yet.
  void add_posted(NicQp& o, uint32_t end, NicFlag& f);
  // The SQ slot of `o`'s WQE `index` and its control segment `c`, or null when the slot holds
  // no WQE of that index (not posted yet, or one from the ring's previous pass).
  const uint8_t* posted_wqe(NicQp& o, uint32_t index, mlx5::Ctrl& c);
  static constexpr uint32_t kPeekWqes = 64;    // posted WQEs looked at per QP
  static constexpr size_t kMaxWaiters = 1024;  // per QP
  // The QP has executed its WQEs up to `end`: those that wrote nothing are done too.
  void executed_up_to(NicQp& q, uint32_t end);
  std::vector<NicQp::Waiter>::iterator drop_waiter(NicQp& q, std::vector<NicQp::Waiter>::iterator it);
  // The WQE at `index` of `q` writes `w` remotely: in flight on `q`, and its landing time for
  // the flags that list it.
  void remote_write(NicQp& q, uint32_t index, const InFlightWrite& w);
  void complete(NicQp& q, uint32_t index, uint8_t opcode, uint32_t bytes, uint8_t syndrome, bool cqe, Ps t,
                WqeRecord rec);
  // Where [addr, addr + len) of this GPU's memory is for the NIC's DMA: the direct-memory
  // pointer the HBM target granted (asked for once, dropped when the target invalidates it).
  uint8_t* dma_ptr(const void* addr, uint64_t len) {
    const auto a = reinterpret_cast<uint64_t>(addr);
    if (a < m_dmi_begin || a - m_dmi_begin > m_dmi_bytes || len > m_dmi_bytes - (a - m_dmi_begin)) acquire_dmi(a, len);
    return m_dmi_ptr + (a - m_dmi_begin);
  }
  void acquire_dmi(uint64_t addr, uint64_t len);
  void invalidate_dmi(sc_dt::uint64 begin, sc_dt::uint64 end);
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
  Ps m_busy_ps = 0;
  uint64_t m_wqes = 0;
  uint8_t* m_dmi_ptr = nullptr;  // DMI region: [m_dmi_begin, m_dmi_begin + m_dmi_bytes)
  uint64_t m_dmi_begin = 0;
  uint64_t m_dmi_bytes = 0;
};

}  // namespace symsim::nv

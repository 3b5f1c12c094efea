// The UDMA engine of one PE. A store to a QP's SQ doorbell (MMIO) carries the new producer
// index; at that time the engine fetches the WQEs between the old and new index from the SQ
// ring in HBM, parses their bytes, checks the target and token, and executes them: WRITE
// (optionally with notify, or with reduce), READ, and the native atomics FAA and CAS, which
// it performs at the target when the request arrives (the old value returns to the WQE's
// local buffer). The SQE's remote EID picks the path (direct or through a relay PE); its flag
// byte orders it against earlier WQEs of the QP (udma_ordering.h). Data lands in 512 B
// visibility units; a CQE is written when asked. A store to a CQ doorbell returns CQ slots.
// Timing is computed per WQE; the platform's DoorbellScheduler calls the engine at each doorbell.
// TLM-2.0: doorbell stores arrive on the `doorbell` target socket (a write of the producer
// index at offset qp * 16, +8 for the CQ doorbell; the annotated delay is when the store was
// made); the rings are read and written through DMI pointers asked for once over the `dma`
// initiator socket, which is bound to the PE's HBM (models/memory/hbm.h).
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <queue>
#include <vector>

#include "models/ascend/doorbell_scheduler.h"
#include "models/ascend/pe_memory.h"
#include "models/ascend/udma_ordering.h"
#include "models/ascend/wqe_layout.h"
#include "models/core/bandwidth.h"
#include "models/ascend/ascend_observer.h"
#include "models/fabric/eid_route.h"
#include "models/fabric/fabric.h"
#include "models/memory/address_map.h"
#include "models/memory/visibility_queue.h"
#include "models/platform/ascend_params.h"

namespace symsim {

// What the engine shares with the rest of the platform.
struct UdmaEnv {
  const AscendParams& params;
  Fabric& fabric;
  VisibilityQueue& visibility;
  Hooks& hooks;
  std::vector<PeMemory>& memory;
  std::vector<BandwidthResource>& hbm_ports;  // one per PE
  DoorbellScheduler& doorbells;               // every engine's doorbells, in a fixed order
};

// The engine's (hardware) context of one QP: rings, indices, peer.
struct UdmaQp {
  QpRef ref;
  int target_pe = -1;
  uint8_t* sq_base = nullptr;
  uint32_t sq_depth_bb = 0;
  uint32_t sq_fetched = 0;   // WQEBBs consumed so far (monotonic)
  uint32_t sq_doorbell = 0;  // last producer index rung
  // The last SQ doorbell the engine acted on (a backward one too): for the hang report (the
  // checkers read it here rather than keep it per QP themselves, a lookup per doorbell).
  uint32_t sq_rung_value = 0;
  Ps sq_rung_ps = kNeverRung;  // when (kNeverRung: no SQ doorbell yet); beside the fields ring_sq touches
  static constexpr Ps kNeverRung = ~Ps{0};
  uint8_t* cq_base = nullptr;
  uint32_t cq_depth = 0;
  uint32_t cq_produced = 0;  // CQEs written (monotonic)
  uint32_t cq_consumed = 0;  // from the CQ doorbell
  uint32_t tp_id = 0;
  Ps last_cqe_ps = 0;        // CQEs of one QP appear in order
  // Visibility-queue lanes: each QP's data, notify words and CQEs land in time order.
  VisibilityQueue::Lane data_lane = VisibilityQueue::kNoLane;
  VisibilityQueue::Lane notify_lane = VisibilityQueue::kNoLane;
  VisibilityQueue::Lane cqe_lane = VisibilityQueue::kNoLane;
  bool error = false;        // QP in error state: later WQEs are flushed
  udma::QpOrdering order;    // placement / completion of earlier WQEs (flag byte)
  Ps issue_ps = 0;           // WQEs of one QP start in order (a fence stalls the QP only)
  Ps last_amo_result_ps = 0; // atomic results return in order (one AMO buffer per QP)
  uint64_t sq_doorbell_addr = 0;
  uint64_t cq_doorbell_addr = 0;
};

// The engine is the doorbell socket's forward interface itself: a store reaches b_transport
// through one virtual call (a simple_target_socket added its own forwarding layer per store).
class UdmaEngine : public sc_core::sc_module, private tlm::tlm_fw_transport_if<> {
 public:
  tlm::tlm_target_socket<> doorbell{"doorbell"};
  tlm_utils::simple_initiator_socket<UdmaEngine> dma{"dma"};

  SC_HAS_PROCESS(UdmaEngine);
  UdmaEngine(sc_core::sc_module_name name, int pe, UdmaEnv env);

  // Creates a QP toward `target_pe`; returns its index in this engine.
  int create_qp(const QpRef& ref, int target_pe, uint32_t sq_depth_bb, uint32_t cq_depth);
  UdmaQp& qp(int index) { return m_qps[index]; }
  const std::vector<UdmaQp>& qps() const { return m_qps; }

  // The MMIO window the doorbells are mapped at: offset = qp index * 16 (+8 for the CQ doorbell).
  uint8_t* doorbell_window() const { return m_doorbells.base(); }
  static constexpr uint64_t kDoorbellStride = 16;

  // Acts on a doorbell that reached the engine now (DoorbellScheduler).
  void serve(const DoorbellEvent& ev);
  // True while doorbells are queued (used by hang diagnosis).
  bool idle() const { return m_queued == 0; }
  int pe() const { return m_pe; }
  Ps busy_ps() const { return m_busy_ps; }

 private:
  // The doorbell socket: a write of 4 or 8 bytes (the index is the low 32 bits); blocking
  // transport only (no DMI, no debug access, a non-blocking call is refused).
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) override;
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans) override;
  void mmio_store(uint64_t offset_bytes, uint64_t value, Ps t_ps);
  // Where the engine reads and writes [address, address + len) of its HBM: the DMI pointer,
  // asked for over `dma` the first time the region is touched.
  uint8_t* dmi_pointer(uint8_t* address, uint64_t len);
  void ring_sq(UdmaQp& q, uint32_t producer_index, Ps t);
  void execute(UdmaQp& q, uint32_t wqe_index, const uint8_t* first, const uint8_t* second, Ps t);
  // Checks target, path, token, operands and addresses; returns a CQE substatus (0 when fine).
  uint8_t check(const UdmaQp& q, const udma::Wqe& w, const EidRoute& route) const;
  // Each sets the record's wire, remote-write and completion times from `start`.
  void run_write(UdmaQp& q, const udma::Wqe& w, const EidRoute& route, WqeRecord& r, Ps start);
  void run_read(UdmaQp& q, const udma::Wqe& w, const EidRoute& route, WqeRecord& r, Ps start);
  void run_atomic(UdmaQp& q, const udma::Wqe& w, const EidRoute& route, WqeRecord& r, Ps start);
  void write_cqe(UdmaQp& q, WqeRecord& r, Ps t);
  // Lands a payload unit by unit asking the fault hooks (torn units, bit flips); returns when
  // its last byte is visible.
  Ps land_with_faults(UdmaQp& q, uint32_t wqe_index, int target, uint8_t* dst, const uint8_t* src, uint64_t len,
                      Ps first_ps, Ps interval_ps);

  int m_pe;
  UdmaEnv m_env;
  // The parameters every doorbell and WQE reads, in ps once (each p.ns() is a multiply and a
  // conversion; the parameters do not change during a run).
  const Ps m_hbm_ps;
  const Ps m_doorbell_ps;
  const Ps m_wqe_ps;
  const uint32_t m_unit_bytes;  // the fabric's visibility unit
  SparseRegion m_doorbells;
  std::vector<UdmaQp> m_qps;
  std::vector<tlm::tlm_dmi> m_dmi;  // the HBM regions granted so far
  uint64_t m_queued = 0;  // doorbells on their way
  Ps m_free_ps = 0;  // engine pipeline busy until
  Ps m_busy_ps = 0;
  WqeFault m_wqe_fault;  // what injected faults do to the WQE being executed
};

}  // namespace symsim

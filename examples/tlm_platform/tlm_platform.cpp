// symsim's Ascend models in a SystemC platform of one's own, driven over TLM-2.0 only: the HBM
// of two PEs, PE 0's UDMA engine and the UB fabric between them. A test bench writes a source
// buffer and one WRITE WQE into PE 0's HBM, rings the SQ doorbell, polls the CQ ring until the
// completion's owner bit flips, and checks the CQE and the bytes that landed in PE 1's heap.
//   tlm_platform PRESET.json   (a symsim platform preset, e.g. share/symsim/platforms/ascend910c.json)
// Exit 0 when every check passes, 1 otherwise, 2 on a bad preset.
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include "models/ascend/doorbell_scheduler.h"
#include "models/ascend/ring.h"
#include "models/ascend/udma_engine.h"
#include "models/ascend/wqe_layout.h"
#include "models/fabric/fabric.h"
#include "models/memory/hbm.h"
#include "models/platform/ascend_params.h"

using namespace symsim;
using sc_core::sc_time;

namespace {

constexpr uint64_t kHbmBytes = uint64_t{1} << 30;
constexpr uint64_t kHeapBytes = uint64_t{64} << 20;
constexpr uint32_t kPutBytes = 4096;
constexpr uint32_t kDepth = 64;  // SQ WQEBBs and CQ entries

int failures = 0;
void check(bool ok, const char* what) {
  std::printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
  if (!ok) ++failures;
}

// One PE's memory as the engine sees it: HBM with a symmetric heap (registered with a token)
// and the queue-ring area.
void map_pe(PeMemory& m, int pe) {
  m.pe = pe;
  m.hbm = SparseRegion(kHbmBytes, true, "pe" + std::to_string(pe) + ".hbm");
  m.hbm_alloc = BumpAllocator(m.hbm.base(), m.hbm.size());
  m.heap = BumpAllocator(m.hbm_alloc.allocate(kHeapBytes, 4096), kHeapBytes);
  m.queue_region = SparseRegion(uint64_t{1} << 20, true, "pe" + std::to_string(pe) + ".queues");
  m.rings = BumpAllocator(m.queue_region.base(), m.queue_region.size());
  m.eid = eid_of_pe(pe);
  m.heap_token = 0x1234567u + static_cast<uint32_t>(pe);
}

struct Bench : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Bench> mmio{"mmio"};  // -> PE 0's engine doorbells
  tlm_utils::simple_initiator_socket<Bench> mem0{"mem0"};  // -> PE 0's HBM
  tlm_utils::simple_initiator_socket<Bench> mem1{"mem1"};  // -> PE 1's HBM

  SC_HAS_PROCESS(Bench);
  Bench(sc_core::sc_module_name name, UdmaEngine& engine, std::vector<PeMemory>& memory, const AscendParams& p)
      : sc_module(name), m_engine(engine), m_memory(memory), m_params(p) {
    SC_THREAD(run);
  }

  // A write or read of `len` bytes at `address` through `socket`, at the bench's local time.
  void transport(tlm_utils::simple_initiator_socket<Bench>& socket, tlm::tlm_command cmd, uint64_t address,
                 void* data, unsigned len) {
    tlm::tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(address);
    t.set_data_ptr(static_cast<unsigned char*>(data));
    t.set_data_length(len);
    t.set_streaming_width(len);
    sc_time delay = m_time.get_local_time();
    socket->b_transport(t, delay);
    if (t.is_response_error()) {
      std::printf("FAIL: %s at %#llx: %s\n", socket.basename(), static_cast<unsigned long long>(address),
                  t.get_response_string().c_str());
      ++failures;
    }
    m_time.set(delay);
    if (m_time.need_sync()) m_time.sync();
  }

  void run() {
    m_time.reset();
    // The QP: PE 0's engine toward PE 1; its rings are in PE 0's queue area.
    const int qp = m_engine.create_qp({0, 0, 0}, 1, kDepth, kDepth);
    const UdmaQp& q = m_engine.qp(qp);
    auto* src = m_memory[0].heap.allocate(kPutBytes, 4096);
    auto* dst = m_memory[1].heap.allocate(kPutBytes, 4096);

    std::vector<uint8_t> pattern(kPutBytes);
    for (uint32_t i = 0; i < kPutBytes; ++i) pattern[i] = static_cast<uint8_t>(i * 7 + 3);
    transport(mem0, tlm::TLM_WRITE_COMMAND, reinterpret_cast<uint64_t>(src), pattern.data(), kPutBytes);

    udma::Wqe w;
    w.opcode = udma::kWrite;
    w.flags = udma::flag::kCqe;
    w.rmt_eid = eid_of_pe(1);
    w.token_en = true;
    w.rmt_token_value = m_memory[1].heap_token;
    w.remote_va = reinterpret_cast<uint64_t>(dst);
    w.local_va = reinterpret_cast<uint64_t>(src);
    w.len = kPutBytes;
    uint8_t wqe[udma::kWqebbBytes];
    udma::encode(w, wqe);
    transport(mem0, tlm::TLM_WRITE_COMMAND, reinterpret_cast<uint64_t>(q.sq_base), wqe, sizeof wqe);

    // The SQ doorbell: the new producer index, at offset qp * 16 of the engine's window.
    uint32_t producer = 1;
    const sc_time rung = m_time.get_current_time();
    transport(mmio, tlm::TLM_WRITE_COMMAND, qp * UdmaEngine::kDoorbellStride, &producer, sizeof producer);

    uint8_t cqe[udma::kCqeBytes] = {};
    m_time.sync();
    const sc_time poll = sc_time(10, sc_core::SC_NS);
    while (!udma::cqe_ready(udma::cqe_owner(cqe), 0, kDepth) && sc_core::sc_time_stamp() < rung + sc_time(1, sc_core::SC_MS)) {
      sc_core::wait(poll);
      m_time.reset();
      transport(mem0, tlm::TLM_READ_COMMAND, reinterpret_cast<uint64_t>(q.cq_base), cqe, sizeof cqe);
    }
    const sc_time seen = sc_core::sc_time_stamp();
    const udma::Cqe c = udma::decode_cqe(cqe);
    check(udma::cqe_ready(udma::cqe_owner(cqe), 0, kDepth), "a CQE arrived in CQ slot 0");
    check(c.ok(), "the CQE reports success (status 0, substatus 0)");
    check(c.byte_cnt == kPutBytes, "the CQE counts 4096 bytes");
    check(c.entry_idx == 1, "the CQE's entry_idx is the next WQEBB (1)");
    // Nothing can complete before the doorbell reached the engine, the WQE was fetched, the
    // source read from HBM and written into PE 1's: three HBM latencies. A lone 4 KiB put
    // across one switch takes well under 5 us on any preset.
    const sc_time earliest = rung + sc_time::from_value(m_params.ns(m_params.udma_doorbell_ns + 3 * m_params.hbm_latency_ns));
    check(seen >= earliest && seen <= earliest + sc_time(5, sc_core::SC_US), "the CQE was seen 3 HBM latencies to 5 us after the doorbell");
    std::printf("doorbell at %s, CQE seen at %s\n", rung.to_string().c_str(), seen.to_string().c_str());

    std::vector<uint8_t> landed(kPutBytes);
    transport(mem1, tlm::TLM_READ_COMMAND, reinterpret_cast<uint64_t>(dst), landed.data(), kPutBytes);
    check(landed == pattern, "PE 1's heap holds the 4096 source bytes");
    sc_core::sc_stop();
  }

  UdmaEngine& m_engine;
  std::vector<PeMemory>& m_memory;
  const AscendParams& m_params;
  tlm_utils::tlm_quantumkeeper m_time;
};

// Loads a symsim platform preset ({"params": {"key": {"value": ...}}}) into `p`.
bool load_preset(const char* path, AscendParams& p) {
  std::ifstream in(path);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.contains("params")) {
    std::fprintf(stderr, "%s: not a symsim platform preset\n", path);
    return false;
  }
  for (ParamInfo& i : p.table()) {
    const auto it = j["params"].find(i.key);
    if (it == j["params"].end() || !(*it)["value"].is_number()) {
      std::fprintf(stderr, "%s: /params/%s: missing or not a number\n", path, i.key.c_str());
      return false;
    }
    *i.value = (*it)["value"].get<double>();
  }
  return true;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  AscendParams p;
  if (argc != 2 || !load_preset(argv[1], p)) {
    std::fprintf(stderr, "usage: tlm_platform PRESET.json\n");
    return 2;
  }
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);  // symsim's models count picoseconds
  tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_time::from_value(p.ns(p.sim_quantum_ns)));

  std::vector<PeMemory> memory(2);
  map_pe(memory[0], 0);
  map_pe(memory[1], 1);
  VisibilityQueue visibility;
  Hooks hooks;
  std::vector<BandwidthResource> hbm_ports(2, BandwidthResource(p.hbm_gbytes_per_s));
  Fabric fabric(2, p.fabric());
  fabric.attach(&hooks, 1);
  DoorbellScheduler doorbells("doorbells");
  UdmaEngine engine("pe0_udma", 0, UdmaEnv{p, fabric, visibility, hooks, memory, hbm_ports, doorbells});
  doorbells.attach(&engine);
  Hbm hbm0("pe0_hbm", p.ns(p.hbm_latency_ns)), hbm1("pe1_hbm", p.ns(p.hbm_latency_ns));
  for (int pe = 0; pe < 2; ++pe) {
    Hbm& h = pe == 0 ? hbm0 : hbm1;
    h.add_region(&memory[pe].hbm);
    h.add_region(&memory[pe].queue_region);
    h.set_visibility(&visibility);
  }
  Bench bench("bench", engine, memory, p);
  engine.dma.bind(hbm0.socket);
  bench.mmio.bind(engine.doorbell);
  bench.mem0.bind(hbm0.socket);
  bench.mem1.bind(hbm1.socket);

  sc_core::sc_start();
  std::printf("%s\n", failures == 0 ? "tlm_platform: all checks passed" : "tlm_platform: FAILED");
  return failures == 0 ? 0 : 1;
}

// CANN SHMEM host control plane: builds each PE's symmetric heap, its QPs on the UDMA engine
// (one per peer slot and QP index) and the device tables the kernel-side API reads.
#include <cstring>

#include <fmt/format.h>

#include "models/fabric/eid_route.h"
#include "shmem_host.h"
#include "symsim/udma_shim.h"
#include "symsim/udma_tables.h"
#include "kernels/shim/ascend/src/world.h"

using namespace symsim;
using namespace symsim::shim;

namespace {

template <typename T>
T* carve(PeMemory& m, uint64_t count) {
  auto* p = reinterpret_cast<T*>(m.hbm_alloc.allocate(sizeof(T) * count, 64));
  if (!p) throw std::runtime_error(fmt::format("PE {}: HBM exhausted while building SHMEM tables", m.pe));
  system().hooks().emit<&AscendObserver::on_alloc>(m.pe, "SHMEM tables", reinterpret_cast<const uint8_t*>(p),
                        uint64_t{sizeof(T) * count});
  return p;
}

// One QP per table row and QP index. Direct builds: row = target PE, `qp_num` QPs each. Relay
// builds: row = target * n + relay (one QP), whose EID routes through the relay's port
// (row target * n + me is the direct path).
void build_udma_tables(HostState& h) {
  AscendSystem& sys = system();
  PeMemory& m = sys.memory(h.pe);
  UdmaEngine& engine = sys.engine(h.pe);
  const int n = sys.n_pes();
  const uint32_t qp_num = h.qp_num;
  const int rows = h.relay_build ? n * n : n;
  const uint64_t entries = uint64_t(rows) * qp_num;
  sys.reserve_queues(h.pe, entries);

  auto* info = carve<aclshmemi_aiv_udma_info_t>(m, 1);
  auto* sq = carve<aclshmemi_udma_wq_ctx_t>(m, entries);
  auto* cq = carve<aclshmemi_udma_cq_ctx_t>(m, entries);
  auto* mem = carve<aclshmemi_ubmem_info_t>(m, entries);
  auto* eids = carve<EidBytes>(m, static_cast<uint64_t>(rows));
  auto* amo = carve<uint8_t>(m, entries * 64);
  info->qp_num = qp_num;
  info->direct = {reinterpret_cast<uint64_t>(sq), 0, reinterpret_cast<uint64_t>(cq), 0, reinterpret_cast<uint64_t>(mem)};
  for (int row = 0; row < rows; ++row) {
    const int target = h.relay_build ? row / n : row;
    const int relay = h.relay_build ? row % n : -1;
    const bool via_relay = relay >= 0 && relay != h.pe && relay != target;
    eids[row] = via_relay ? route_eid(target, relay) : sys.memory(target).eid;
    const PeMemory& peer = sys.memory(target);
    for (uint32_t q = 0; q < qp_num; ++q) {
      const uint64_t i = uint64_t(row) * qp_num + q;
      const int index = engine.create_qp({h.pe, row, static_cast<int>(q)}, target,
                                         static_cast<uint32_t>(sys.params().udma_sq_depth_bb),
                                         static_cast<uint32_t>(sys.params().udma_cq_depth));
      const UdmaQp& hw = engine.qp(index);
      sq[i] = {};
      sq[i].wqn = static_cast<uint32_t>(index);
      sq[i].buf_addr = reinterpret_cast<uint64_t>(hw.sq_base);
      sq[i].wqe_size = udma::kWqebbBytes;
      sq[i].depth = hw.sq_depth_bb;
      sq[i].db_addr = hw.sq_doorbell_addr;
      sq[i].amo_addr = reinterpret_cast<uint64_t>(amo + i * 64);
      cq[i] = {};
      cq[i].cqn = static_cast<uint32_t>(index);
      cq[i].buf_addr = reinterpret_cast<uint64_t>(hw.cq_base);
      cq[i].cqe_size = udma::kCqeBytes;
      cq[i].depth = hw.cq_depth;
      cq[i].db_addr = hw.cq_doorbell_addr;
      mem[i] = {};
      mem[i].token_value_valid = true;
      mem[i].rmt_jetty_type = ACLSHMEM_UDMA_REMOTE_JETTY_TYPE;
      mem[i].tpn = hw.tp_id;
      mem[i].tid = 0;
      mem[i].rmt_token_value = peer.heap_token;
      mem[i].len = static_cast<uint32_t>(std::min<uint64_t>(peer.heap.size(), UINT32_MAX));
      mem[i].addr = reinterpret_cast<uint64_t>(peer.heap.base());
      mem[i].eid_addr = reinterpret_cast<uint64_t>(&eids[row]);
    }
  }
  h.udma_info = info;
}

int init_attr(aclshmemx_init_attr_t* attr, bool relay_build) {
  HostState& h = host();
  AscendSystem& sys = system();
  if (!attr || attr->my_pe != h.pe || attr->n_pes != sys.n_pes() || attr->local_mem_size == 0)
    return ACLSHMEM_INVALID_PARAM;
  if (h.shmem_ready) return ACLSHMEM_SUCCESS;
  const bool udma = (attr->option_attr.data_op_engine_type & ACLSHMEM_DATA_OP_UDMA) != 0;
  PeMemory& m = sys.memory(h.pe);
  if (!m.heap.base()) {
    uint8_t* heap = m.hbm_alloc.allocate(attr->local_mem_size, 2u << 20);
    if (!heap) return ACLSHMEM_SMEM_ERROR;
    m.heap = BumpAllocator(heap, attr->local_mem_size);
  }
  h.relay_build = relay_build && udma;
  host_barrier("aclshmemx_init_attr (heap exchange)");
  // Relay builds support one QP only (upstream: ACLSHMEM_NOT_SUPPORTED at init).
  if (h.relay_build && h.qp_num != 1) return ACLSHMEM_NOT_SUPPORTED;
  for (const HostState& other : world().hosts)
    if (other.qp_num != h.qp_num) return ACLSHMEM_INVALID_VALUE;  // must match on every PE
  if (udma && !h.udma_info) build_udma_tables(h);
  host_barrier("aclshmemx_init_attr (QP set-up)");
  h.shmem_ready = true;
  h.instance_id = attr->instance_id;
  return ACLSHMEM_SUCCESS;
}

}  // namespace

aclshmemi_aiv_udma_info_t* symsim::shim::udma_tables() { return host().udma_info; }

int aclshmemx_set_qp_num(data_op_engine_type_t engine, uint32_t qp_num) {
  HostState& h = host();  // process-wide upstream: each simulated PE is its own process
  // Upstream's order of checks: RoCE needs the RDMA v2 backend, then the range, then the
  // freeze while an instance lives, then the engine.
  if (engine == ACLSHMEM_DATA_OP_ROCE) return ACLSHMEM_NOT_SUPPORTED;
  if (qp_num < 1 || qp_num > ACLSHMEM_MAX_QP_NUM) return ACLSHMEM_INVALID_VALUE;
  if (h.shmem_ready) return ACLSHMEM_NOT_SUPPORTED;
  if (engine != ACLSHMEM_DATA_OP_UDMA) return ACLSHMEM_NOT_SUPPORTED;
  h.qp_num = qp_num;
  return ACLSHMEM_SUCCESS;
}

int aclshmemx_get_uniqueid(aclshmemx_uniqueid_t* uid) {
  if (!uid) return ACLSHMEM_INVALID_PARAM;
  *uid = {};
  uid->version = ACLSHMEM_UNIQUEID_VERSION;
  return ACLSHMEM_SUCCESS;
}

int aclshmemx_set_attr_uniqueid_args(int my_pe, int n_pes, int64_t local_mem_size, aclshmemx_uniqueid_t* uid,
                                     aclshmemx_init_attr_t* attr) {
  if (!uid || !attr) return ACLSHMEM_INVALID_PARAM;
  attr->my_pe = my_pe;
  attr->n_pes = n_pes;
  attr->local_mem_size = static_cast<uint64_t>(local_mem_size);
  attr->comm_args = uid;
  return ACLSHMEM_SUCCESS;
}

int aclshmemx_init_attr(aclshmemx_bootstrap_t, aclshmemx_init_attr_t* attr) { return init_attr(attr, false); }

namespace symsim::shim {
int init_attr_relay_build(aclshmemx_bootstrap_t, aclshmemx_init_attr_t* attr) { return init_attr(attr, true); }
}  // namespace symsim::shim

int aclshmemx_init_status() {
  return host().shmem_ready ? 2 /* ACLSHMEM_STATUS_IS_INITIALIZED */ : 0 /* ACLSHMEM_STATUS_NOT_INITIALIZED */;
}

int aclshmem_finalize() {
  HostState& h = host();
  host_barrier("aclshmem_finalize");
  h.shmem_ready = false;
  h.qp_num = 1;  // upstream resets the QP count after the last instance ends
  return ACLSHMEM_SUCCESS;
}

void* aclshmem_align(size_t alignment, size_t size) {
  HostState& h = host();
  if (!h.shmem_ready) return nullptr;
  host_barrier("aclshmem_malloc");
  uint8_t* p = system().memory(h.pe).heap.allocate(size, std::max<size_t>(alignment, 512));
  system().hooks().emit<&AscendObserver::on_alloc>(h.pe, "aclshmem_malloc", static_cast<const uint8_t*>(p), uint64_t{size});
  return p;
}
void* aclshmem_malloc(size_t size) { return aclshmem_align(512, size); }
void* aclshmem_calloc(size_t count, size_t size) {
  void* p = aclshmem_malloc(count * size);
  if (p) std::memset(p, 0, count * size);
  return p;
}
void aclshmem_free(void*) {}

void aclshmem_barrier_all() {
  // Upstream has a host and a device function of this name; here one function serves both.
  if (AivCore::current()) {
    vector_barrier_all_at(SYMSIM_CALLER(), "aclshmem_barrier_all");
  } else {
    host_barrier("aclshmem_barrier_all");
  }
}
void aclshmemi_control_barrier_all() { host_barrier("aclshmemi_control_barrier_all"); }

void aclshmem_global_exit(int status) {
  throw std::runtime_error(fmt::format("aclshmem_global_exit({}) called by the host program of PE {}", status,
                                      host().pe));
}

// CANN SHMEM host control plane: builds each PE's symmetric heap, its QPs on the UDMA engine
// (one per peer slot and QP index) and the device tables the kernel-side API reads.
#include <cstring>

#include <fmt/format.h>

#include "shmem_host.h"
#include "world.h"

using namespace symsim;
using namespace symsim::shim;

namespace {

template <typename T>
T* carve(PeMemory& m, uint64_t count) {
  auto* p = reinterpret_cast<T*>(m.hbm_alloc.allocate(sizeof(T) * count, 64));
  if (!p) throw std::runtime_error(fmt::format("PE {}: HBM exhausted while building SHMEM tables", m.pe));
  return p;
}

void build_udma_tables(HostState& h) {
  AscendSystem& sys = system();
  PeMemory& m = sys.memory(h.pe);
  UdmaEngine& engine = sys.engine(h.pe);
  const int n = sys.n_pes();
  const uint32_t qp_num = h.qp_num;
  const uint64_t entries = uint64_t(n) * qp_num;
  sys.reserve_queues(h.pe, entries);

  auto* info = carve<aclshmemi_aiv_udma_info_t>(m, 1);
  auto* sq = carve<aclshmemi_udma_wq_ctx_t>(m, entries);
  auto* cq = carve<aclshmemi_udma_cq_ctx_t>(m, entries);
  auto* mem = carve<aclshmemi_ubmem_info_t>(m, entries);
  auto* eids = carve<udma::Eid>(m, n);
  auto* amo = carve<uint8_t>(m, entries * 64);
  info->qp_num = qp_num;
  info->table = {reinterpret_cast<uint64_t>(sq), 0, reinterpret_cast<uint64_t>(cq), 0, reinterpret_cast<uint64_t>(mem)};
  for (int slot = 0; slot < n; ++slot) {
    eids[slot] = sys.memory(slot).eid;
    const PeMemory& peer = sys.memory(slot);
    for (uint32_t q = 0; q < qp_num; ++q) {
      const uint64_t i = uint64_t(slot) * qp_num + q;
      const int index = engine.create_qp({h.pe, slot, static_cast<int>(q)}, slot,
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
      mem[i].eid_addr = reinterpret_cast<uint64_t>(&eids[slot]);
    }
  }
  h.udma_info = info;
}

}  // namespace

int aclshmemx_set_qp_num(aclshmem_data_op_engine_type_t engine, uint32_t qp_num) {
  HostState& h = host();  // process-wide upstream: each simulated PE is its own process
  if (engine != ACLSHMEM_DATA_OP_UDMA || h.shmem_ready) return ACLSHMEM_NOT_SUPPORTED;
  if (qp_num < 1 || qp_num > ACLSHMEM_MAX_QP_NUM) return ACLSHMEM_INVALID_VALUE;
  h.qp_num = qp_num;
  return ACLSHMEM_SUCCESS;
}

int aclshmemx_get_uniqueid(aclshmemx_uniqueid_t* uid) {
  if (!uid) return ACLSHMEM_INVALID_PARAM;
  *uid = {};
  uid->version = 1;
  return ACLSHMEM_SUCCESS;
}

int aclshmemx_set_attr_uniqueid_args(int my_pe, int n_pes, uint64_t local_mem_size, const aclshmemx_uniqueid_t* uid,
                                     aclshmemx_init_attr_t* attr) {
  if (!uid || !attr) return ACLSHMEM_INVALID_PARAM;
  attr->my_pe = my_pe;
  attr->n_pes = n_pes;
  attr->local_mem_size = local_mem_size;
  return ACLSHMEM_SUCCESS;
}

int aclshmemx_init_attr(aclshmemx_init_flags_t, aclshmemx_init_attr_t* attr) {
  HostState& h = host();
  AscendSystem& sys = system();
  if (!attr || attr->my_pe != h.pe || attr->n_pes != sys.n_pes() || attr->local_mem_size == 0)
    return ACLSHMEM_INVALID_PARAM;
  if (h.shmem_ready) return ACLSHMEM_SUCCESS;
  PeMemory& m = sys.memory(h.pe);
  uint8_t* heap = m.hbm_alloc.allocate(attr->local_mem_size, 2u << 20);
  if (!heap) return ACLSHMEM_SMEM_ERROR;
  m.heap = BumpAllocator(heap, attr->local_mem_size);
  host_barrier("aclshmemx_init_attr (heap exchange)");
  for (const HostState& other : world().hosts)
    if (other.qp_num != h.qp_num) return ACLSHMEM_INVALID_VALUE;  // must match on every PE
  if (attr->option_attr.data_op_engine_type & ACLSHMEM_DATA_OP_UDMA) build_udma_tables(h);
  host_barrier("aclshmemx_init_attr (QP set-up)");
  h.shmem_ready = true;
  return ACLSHMEM_SUCCESS;
}

int aclshmem_finalize() {
  HostState& h = host();
  host_barrier("aclshmem_finalize");
  h.shmem_ready = false;
  return ACLSHMEM_SUCCESS;
}

void* aclshmem_align(size_t alignment, size_t size) {
  HostState& h = host();
  if (!h.shmem_ready) return nullptr;
  host_barrier("aclshmem_malloc");
  return system().memory(h.pe).heap.allocate(size, std::max<size_t>(alignment, 512));
}
void* aclshmem_malloc(size_t size) { return aclshmem_align(512, size); }
void* aclshmem_calloc(size_t count, size_t size) {
  void* p = aclshmem_malloc(count * size);
  if (p) std::memset(p, 0, count * size);
  return p;
}
void aclshmem_free(void*) {}

void aclshmem_barrier_all() { host_barrier("aclshmem_barrier_all"); }
void aclshmemi_control_barrier_all() { host_barrier("aclshmemi_control_barrier_all"); }

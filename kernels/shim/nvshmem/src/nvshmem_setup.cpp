// nvshmem_init and the host side of the NVSHMEM shim: registers each GPU's symmetric heap with
// its NIC in chunks (the keys device code looks up per chunk, as NVSHMEM's cuMem granularity
// chunks), creates num_rc_per_pe RC QPs from each GPU to every other, and writes the device
// state (nvshmemi_device_host_state_t, nvshmemi_ibgda_device_state_t) into GPU memory.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "models/nvidia/device_trap.h"
#include "models/nvidia/gpu_scheduler.h"
#include "models/nvidia/nic.h"
#include "models/nvidia/nvidia_system.h"
#include "kernels/shim/nvshmem/src/nvshmem_world.h"
#include "nvshmemx.h"
#include "symsim/cuda/runtime.h"

namespace symsim::nvshmem {

namespace {

constexpr uint32_t kIbufBytes = 256;  // per QP: atomic results (NVSHMEM's non-fetch slot)

uint32_t be32(uint32_t v) { return __builtin_bswap32(v); }

template <typename T>
T* device_zeroed(int gpu, size_t n) {
  auto* p = reinterpret_cast<T*>(cuda::system().memory().runtime_alloc(gpu, sizeof(T) * (n ? n : 1), 64));
  std::memset(static_cast<void*>(p), 0, sizeof(T) * (n ? n : 1));
  return p;
}

// An environment setting as NVSHMEM reads it: a whole number within [lo, hi], else an error.
bool env_int(const char* name, long lo, long hi, long& value) {
  const char* s = std::getenv(name);
  if (!s || !*s) return true;
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  if (*end || v < lo || v > hi) {
    std::fprintf(stderr, "nvshmem_init: %s=%s: want a whole number in [%ld, %ld]\n", name, s, lo, hi);
    return false;
  }
  value = v;
  return true;
}

uint64_t heap_bytes(nv::NvidiaSystem& sys) {
  return (sys.memory().hbm_bytes() - nv::DeviceMemory::kRuntimeBytes) / 2;
}

// The chunk size: at least NVSHMEM's usual 512 MiB, and few enough chunks for the constant lkeys.
size_t log2_chunk(uint64_t heap) {
  size_t g = 29;
  while ((heap >> g) >= NVSHMEMI_IBGDA_MAX_CONST_LKEYS) ++g;
  return g;
}

void put_key(nvshmemi_ibgda_device_state_t& s, bool local, size_t idx, nvshmemi_ibgda_device_key_t k) {
  const size_t nconst = local ? NVSHMEMI_IBGDA_MAX_CONST_LKEYS : NVSHMEMI_IBGDA_MAX_CONST_RKEYS;
  nvshmemi_ibgda_device_key_t* c = local ? s.constmem.lkeys : s.constmem.rkeys;
  nvshmemi_ibgda_device_key_t* g = local ? s.globalmem.lkeys : s.globalmem.rkeys;
  (idx < nconst ? c[idx] : g[idx - nconst]) = k;
}

}  // namespace

int add_team(Pe& pe, int start, int stride, int size) {
  const int n = cuda::n_ranks();
  Team t;
  t.start = start;
  t.stride = stride;
  t.size = size;
  t.count = device_zeroed<uint64_t>(cuda::my_rank(), 1);
  t.arrivals = static_cast<uint64_t*>(cuda::sym_malloc(sizeof(uint64_t) * static_cast<size_t>(n), 128));
  std::memset(t.arrivals, 0, sizeof(uint64_t) * static_cast<size_t>(n));
  t.live = true;
  pe.teams.push_back(t);
  return static_cast<int>(pe.teams.size()) - 1;
}

World& world() {
  static World w;
  return w;
}

Pe& calling_pe() {
  World& w = world();
  const nv::CudaThread* t = nv::current_thread();
  const int gpu = t ? t->cta->gpu : cuda::my_rank();
  if (w.sys != &cuda::system() || gpu < 0 || static_cast<size_t>(gpu) >= w.pes.size() || !w.pes[gpu].initialized)
    throw nv::DeviceTrap("NVSHMEM used on GPU " + std::to_string(gpu) + " before nvshmem_init");
  return w.pes[gpu];
}

nvshmemi_device_host_state_t* device_state() { return calling_pe().state; }
nvshmemi_ibgda_device_state_t* ibgda_state() { return calling_pe().ibgda; }

}  // namespace symsim::nvshmem

using symsim::nvshmem::Pe;
using symsim::nvshmem::world;
namespace cuda = symsim::cuda;
namespace nv = symsim::nv;

int nvshmem_init() {
  nv::NvidiaSystem& sys = cuda::system();
  symsim::nvshmem::World& w = world();
  const int me = cuda::my_rank(), n = cuda::n_ranks();
  if (w.sys != &sys) {
    w.sys = &sys;
    w.pes.assign(static_cast<size_t>(n), Pe{});
  }
  Pe& pe = w.pes[me];
  if (pe.initialized) return 0;
  long disable_p2p = 0, rc_per_pe = 1, qp_depth = static_cast<long>(sys.params().nic_sq_depth);
  if (!symsim::nvshmem::env_int("NVSHMEM_DISABLE_P2P", 0, 1, disable_p2p) ||
      !symsim::nvshmem::env_int("NVSHMEM_IBGDA_NUM_RC_PER_PE", 1, 1024, rc_per_pe) ||
      !symsim::nvshmem::env_int("NVSHMEM_QP_DEPTH", NVSHMEMI_IBGDA_MIN_QP_DEPTH, NVSHMEMI_IBGDA_MAX_QP_DEPTH, qp_depth))
    return 1;
  if (qp_depth & (qp_depth - 1)) {
    std::fprintf(stderr, "nvshmem_init: NVSHMEM_QP_DEPTH=%ld: want a power of two\n", qp_depth);
    return 1;
  }
  nv::DeviceMemory& mem = sys.memory();
  nv::Nic& nic = sys.nic(me);
  const uint64_t heap = symsim::nvshmem::heap_bytes(sys);
  const size_t g = symsim::nvshmem::log2_chunk(heap);
  const size_t chunks = static_cast<size_t>((heap + (uint64_t{1} << g) - 1) >> g);

  // Register the heap chunk by chunk; every PE's keys are published before anyone reads them.
  pe.chunk_keys.clear();
  for (size_t c = 0; c < chunks; ++c) {
    const uint64_t off = uint64_t{c} << g;
    pe.chunk_keys.push_back(nic.register_memory(mem.sym_base(me) + off, std::min<uint64_t>(uint64_t{1} << g, heap - off)));
  }
  const size_t nqps = static_cast<size_t>(n) * static_cast<size_t>(rc_per_pe);
  uint8_t* ibufs = mem.runtime_alloc(me, symsim::nvshmem::kIbufBytes * nqps, 256);
  std::memset(ibufs, 0, symsim::nvshmem::kIbufBytes * nqps);
  const uint32_t ibuf_key = nic.register_memory(ibufs, symsim::nvshmem::kIbufBytes * nqps);
  cuda::host_barrier();

  // Device state.
  auto* st = symsim::nvshmem::device_zeroed<nvshmemi_device_host_state_t>(me, 1);
  st->version = 1;
  st->mype = me;
  st->npes = n;
  const int domain = std::max(1, static_cast<int>(sys.params().nvlink_gpus_per_domain));
  st->node_mype = me % domain;
  st->node_npes = std::min(domain, n - me / domain * domain);
  st->heap_base = mem.sym_base(me);
  st->heap_size = heap;
  st->peer_heap_base_p2p = symsim::nvshmem::device_zeroed<void*>(me, static_cast<size_t>(n));
  st->peer_heap_base_remote = symsim::nvshmem::device_zeroed<void*>(me, static_cast<size_t>(n));
  for (int p = 0; p < n; ++p) {
    const bool p2p = p == me || (!disable_p2p && p / domain == me / domain);
    st->peer_heap_base_p2p[p] = p2p ? mem.sym_base(p) : nullptr;
    st->peer_heap_base_remote[p] = mem.sym_base(p);
  }
  st->ibgda_is_initialized = true;
  st->nvshmemi_is_nvshmem_initialized = true;

  auto* ib = symsim::nvshmem::device_zeroed<nvshmemi_ibgda_device_state_t>(me, 1);
  ib->version = 2;
  ib->num_rc_per_pe = static_cast<uint32_t>(rc_per_pe);
  ib->num_default_rc_per_pe = static_cast<int>(rc_per_pe);
  ib->rc_map_type = NVSHMEMI_IBGDA_DEVICE_QP_MAP_TYPE_WARP;
  ib->num_requests_in_batch = 1;
  ib->log2_cumem_granularity = g;
  ib->num_devices_initialized = 1;
  ib->nic_buf_on_gpumem = true;
  const size_t nrkeys = chunks * static_cast<size_t>(n);
  if (chunks > NVSHMEMI_IBGDA_MAX_CONST_LKEYS)
    ib->globalmem.lkeys = symsim::nvshmem::device_zeroed<nvshmemi_ibgda_device_key_t>(me, chunks - NVSHMEMI_IBGDA_MAX_CONST_LKEYS);
  if (nrkeys > NVSHMEMI_IBGDA_MAX_CONST_RKEYS)
    ib->globalmem.rkeys = symsim::nvshmem::device_zeroed<nvshmemi_ibgda_device_key_t>(me, nrkeys - NVSHMEMI_IBGDA_MAX_CONST_RKEYS);
  for (size_t c = 0; c < chunks; ++c) {
    const uint64_t end = std::min<uint64_t>(uint64_t{c + 1} << g, heap);
    symsim::nvshmem::put_key(*ib, true, c, {symsim::nvshmem::be32(pe.chunk_keys[c]),
                                            reinterpret_cast<uint64_t>(mem.sym_base(me)) + end});
    for (int p = 0; p < n; ++p)
      symsim::nvshmem::put_key(*ib, false, c * static_cast<size_t>(n) + static_cast<size_t>(p),
                               {symsim::nvshmem::be32(w.pes[p].chunk_keys[c]), end});
  }

  // RC QPs: rcs[pe + npes * id]; this GPU's own entries stay empty (never a QP to itself).
  ib->globalmem.rcs = symsim::nvshmem::device_zeroed<nvshmemi_ibgda_device_qp_t>(me, nqps);
  ib->globalmem.cqs = symsim::nvshmem::device_zeroed<nvshmemi_ibgda_device_cq_t>(me, nqps);
  nv::NicQpConfig cfg;
  cfg.sq_depth = static_cast<uint32_t>(qp_depth);
  cfg.cq_depth = static_cast<uint32_t>(qp_depth);
  cfg.collapsed_cq = true;
  cfg.overrun_ignore = true;
  for (int id = 0; id < rc_per_pe; ++id) {
    for (int p = 0; p < n; ++p) {
      const size_t k = static_cast<size_t>(p) + static_cast<size_t>(n) * static_cast<size_t>(id);
      nvshmemi_ibgda_device_qp_t& qp = ib->globalmem.rcs[k];
      nvshmemi_ibgda_device_cq_t& cq = ib->globalmem.cqs[k];
      qp.version = cq.version = 1;
      qp.qp_type = cq.qp_type = NVSHMEMI_IBGDA_DEVICE_QP_TYPE_RC;
      qp.tx_wq.cq = &cq;
      qp.tx_wq.prod_idx = &qp.mvars.tx_wq.prod_idx;
      cq.cons_idx = &qp.mvars.tx_wq.cons_idx;
      cq.prod_idx = &qp.mvars.tx_wq.prod_idx;
      cq.resv_head = &qp.mvars.tx_wq.resv_head;
      cq.ready_head = &qp.mvars.tx_wq.ready_head;
      if (p == me) continue;
      cfg.peer = p;
      cfg.slot_qp = id;
      const nv::NicQp& q = nic.qp(nic.create_qp(cfg));
      qp.qpn = q.qpn;
      qp.ibuf.nslots = 1;
      qp.ibuf.buf = ibufs + symsim::nvshmem::kIbufBytes * k;
      qp.ibuf.lkey = qp.ibuf.rkey = symsim::nvshmem::be32(ibuf_key);
      qp.tx_wq.nwqes = static_cast<uint16_t>(q.cfg.sq_depth);
      qp.tx_wq.wqe = q.sq;
      qp.tx_wq.dbrec = reinterpret_cast<__be32*>(q.dbrec);
      qp.tx_wq.bf = nic.doorbell_window();
      cq.cqe = q.cq;
      cq.dbrec = reinterpret_cast<__be32*>(q.cq_dbrec);
      cq.ncqes = q.cfg.cq_depth;
      cq.qpn = cq.cqn = q.qpn;
    }
  }
  pe.state = st;
  pe.ibgda = ib;
  pe.teams.clear();
  symsim::nvshmem::add_team(pe, 0, 1, n);  // NVSHMEM_TEAM_WORLD
  pe.initialized = true;
  cuda::host_barrier();
  return 0;
}

void nvshmem_finalize() {
  cuda::host_barrier();
}

int nvshmem_my_pe() { return symsim::nvshmem::calling_pe().state->mype; }
int nvshmem_n_pes() { return symsim::nvshmem::calling_pe().state->npes; }

void* nvshmem_align(size_t alignment, size_t bytes) {
  symsim::nvshmem::calling_pe();
  return cuda::sym_malloc(bytes, std::max<size_t>(alignment, 16));
}
void* nvshmem_malloc(size_t bytes) { return nvshmem_align(256, bytes); }
void* nvshmem_calloc(size_t count, size_t bytes) {
  void* p = nvshmem_align(256, count * bytes);
  std::memset(p, 0, count * bytes);
  return p;
}
void nvshmem_free(void*) {}

void* nvshmem_ptr(const void* ptr, int pe) {
  const nvshmemi_device_host_state_t& st = *symsim::nvshmem::calling_pe().state;
  if (pe < 0 || pe >= st.npes || !st.peer_heap_base_p2p[pe]) return nullptr;
  return static_cast<uint8_t*>(st.peer_heap_base_p2p[pe]) + (static_cast<const uint8_t*>(ptr) - static_cast<uint8_t*>(st.heap_base));
}

int nvshmemx_get_uniqueid(nvshmemx_uniqueid_t* id) {
  if (!id) return 1;
  std::memset(id, 0, sizeof(*id));
  std::snprintf(id->internal, sizeof(id->internal), "symsim");
  return 0;
}

int nvshmemx_set_attr_uniqueid_args(int rank, int nranks, const nvshmemx_uniqueid_t* id, nvshmemx_init_attr_t* attr) {
  if (!id || !attr) return 1;
  attr->rank = rank;
  attr->nranks = nranks;
  attr->uid = *id;
  attr->set = true;
  return 0;
}

int nvshmemx_init_attr(unsigned flags, nvshmemx_init_attr_t* attr) {
  if ((flags & NVSHMEMX_INIT_WITH_UNIQUEID) && attr &&
      (!attr->set || attr->rank != cuda::my_rank() || attr->nranks != cuda::n_ranks())) {
    std::fprintf(stderr, "nvshmemx_init_attr: rank %d of %d given on GPU %d of a %d-GPU simulation\n", attr->rank, attr->nranks,
                 cuda::my_rank(), cuda::n_ranks());
    return 1;
  }
  return nvshmem_init();
}

int nvshmem_team_split_strided(nvshmem_team_t parent, int start, int stride, int size, const nvshmem_team_config_t*, long,
                               nvshmem_team_t* new_team) {
  Pe& pe = symsim::nvshmem::calling_pe();
  const int n = pe.state->npes, me = pe.state->mype;
  if (!new_team || parent != NVSHMEM_TEAM_WORLD || size < 1 || stride < 1 || start < 0 || start + (size - 1) * stride >= n) {
    std::fprintf(stderr, "nvshmem_team_split_strided: PE %d: start %d, stride %d, size %d do not name PEs of the %d in "
                 "NVSHMEM_TEAM_WORLD (the only parent team here)\n", me, start, stride, size, n);
    return 1;
  }
  // Collective: every PE allocates the team's words (same offsets), members get the handle.
  const int id = symsim::nvshmem::add_team(pe, start, stride, size);
  const bool member = me >= start && (me - start) % stride == 0 && (me - start) / stride < size;
  *new_team = member ? id : NVSHMEM_TEAM_INVALID;
  cuda::host_barrier();
  return 0;
}

void nvshmem_team_destroy(nvshmem_team_t team) {
  Pe& pe = symsim::nvshmem::calling_pe();
  if (team > NVSHMEM_TEAM_WORLD && static_cast<size_t>(team) < pe.teams.size()) pe.teams[team].live = false;
}

int nvshmem_team_my_pe(nvshmem_team_t team) {
  Pe& pe = symsim::nvshmem::calling_pe();
  if (team < 0 || static_cast<size_t>(team) >= pe.teams.size() || !pe.teams[team].live) return -1;
  const symsim::nvshmem::Team& t = pe.teams[team];
  return (pe.state->mype - t.start) / t.stride;
}

int nvshmem_team_n_pes(nvshmem_team_t team) {
  Pe& pe = symsim::nvshmem::calling_pe();
  if (team < 0 || static_cast<size_t>(team) >= pe.teams.size() || !pe.teams[team].live) return -1;
  return pe.teams[team].size;
}

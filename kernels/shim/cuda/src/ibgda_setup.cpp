#include <cstring>
#include <map>

#include "models/nvidia/nic.h"
#include "models/nvidia/nvidia_system.h"
#include "symsim/cuda/ibgda_host.h"
#include "symsim/cuda/runtime.h"

namespace symsim::cuda {

namespace {

// Keys each GPU's NIC gave its registrations, shared by the host programs (the out-of-band
// exchange real set-up does over the bootstrap network).
struct Keys {
  uint32_t heap_rkey = 0;
  uint32_t hbm_lkey = 0;
  bool registered = false;
};
std::map<const nv::NvidiaSystem*, std::vector<Keys>>& keys_table() {
  static std::map<const nv::NvidiaSystem*, std::vector<Keys>> t;
  return t;
}

template <typename T>
T* device_array(int gpu, size_t n) {
  auto* p = reinterpret_cast<T*>(system().memory().runtime_alloc(gpu, sizeof(T) * std::max<size_t>(n, 1), 64));
  for (size_t i = 0; i < n; ++i) new (p + i) T();
  return p;
}

}  // namespace

SymWindow sym_window() {
  SymWindow w;
  w.rank = my_rank();
  w.n_ranks = n_ranks();
  w.lsa_size = nvlink_domain_size();
  w.lsa_team = w.rank / w.lsa_size;
  w.lsa_base_ptr = sym_heap_base();
  w.lsa_stride = sym_heap_stride();
  return w;
}

std::vector<int64_t> sym_addresses(const void* p) {
  std::vector<int64_t> out;
  const int64_t off = static_cast<const uint8_t*>(p) - sym_heap_base();
  for (int r = 0; r < n_ranks(); ++r) out.push_back(reinterpret_cast<int64_t>(system().memory().sym_base(r)) + off);
  return out;
}

ibgda::State* ibgda_init(const IbgdaOptions& o) {
  nv::NvidiaSystem& sys = system();
  const int me = my_rank(), n = n_ranks();
  auto& keys = keys_table()[&sys];
  if (keys.size() != static_cast<size_t>(n)) keys.assign(static_cast<size_t>(n), {});
  nv::Nic& nic = sys.nic(me);
  if (!keys[me].registered) {
    const uint64_t sym_bytes = (sys.memory().hbm_bytes() - nv::DeviceMemory::kRuntimeBytes) / 2;
    keys[me].heap_rkey = nic.register_memory(sys.memory().sym_base(me), sym_bytes);
    keys[me].hbm_lkey = nic.register_memory(sys.memory().base(me), sys.memory().hbm_bytes());
    keys[me].registered = true;
  }
  host_barrier();

  const auto& p = sys.params();
  nv::NicQpConfig cfg;
  cfg.sq_depth = o.sq_depth ? o.sq_depth : static_cast<uint32_t>(p.nic_sq_depth);
  cfg.cq_depth = o.cq_depth ? o.cq_depth : static_cast<uint32_t>(p.nic_cq_depth);
  cfg.collapsed_cq = o.collapsed_cq;
  cfg.overrun_ignore = o.overrun_ignore;

  auto* state = device_array<ibgda::State>(me, 1);
  state->rank = me;
  state->n_ranks = n;
  state->qps_per_peer = o.qps_per_peer;
  state->ring_every = std::max(1, o.ring_every);
  state->wait_for_slots = o.wait_for_slots;
  state->check_cqe_errors = o.check_cqe_errors;
  state->lkey = keys[me].hbm_lkey;
  state->heap_base = reinterpret_cast<uint64_t>(sys.memory().sym_base(me));
  state->qps = device_array<ibgda::Qp>(me, static_cast<size_t>(n) * o.qps_per_peer);
  state->rkeys = device_array<uint32_t>(me, static_cast<size_t>(n));
  state->peer_heap_base = device_array<uint64_t>(me, static_cast<size_t>(n));
  for (int peer = 0; peer < n; ++peer) {
    state->rkeys[peer] = keys[peer].heap_rkey;
    state->peer_heap_base[peer] = reinterpret_cast<uint64_t>(sys.memory().sym_base(peer));
    if (peer == me) continue;
    for (int i = 0; i < o.qps_per_peer; ++i) {
      cfg.peer = peer;
      cfg.slot_qp = i;
      const nv::NicQp& q = nic.qp(nic.create_qp(cfg));
      ibgda::Qp& d = state->qps[peer * o.qps_per_peer + i];
      d.qpn = q.qpn;
      d.nwqes = q.cfg.sq_depth;
      d.ncqes = q.cfg.cq_depth;
      d.peer = peer;
      d.wqe = q.sq;
      d.dbrec = reinterpret_cast<uint32_t*>(q.dbrec);
      d.bf = reinterpret_cast<uint64_t*>(nic.doorbell_window());
      d.cqe = q.cq;
      d.cq_dbrec = reinterpret_cast<uint32_t*>(q.cq_dbrec);
      d.ibuf = sys.memory().runtime_alloc(me, 64, 64);
      d.collapsed = q.cfg.collapsed_cq ? 1 : 0;
    }
  }
  host_barrier();
  return state;
}

gin::Handle gin_init(const IbgdaOptions& o) {
  gin::Handle h;
  h.window = sym_window();
  h.ctx = ibgda_init(o);
  h.signals = static_cast<uint64_t*>(sym_malloc(sizeof(uint64_t) * static_cast<size_t>(n_ranks() + 4), 64));
  h.shadows = reinterpret_cast<uint64_t*>(system().memory().private_alloc(my_rank(), sizeof(uint64_t) * (n_ranks() + 4), 64));
  std::memset(h.signals, 0, sizeof(uint64_t) * static_cast<size_t>(n_ranks() + 4));
  std::memset(h.shadows, 0, sizeof(uint64_t) * static_cast<size_t>(n_ranks() + 4));
  host_barrier();
  return h;
}

}  // namespace symsim::cuda

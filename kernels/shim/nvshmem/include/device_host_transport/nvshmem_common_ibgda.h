// NVSHMEM's IBGDA device state for the simulator: the types GPU-initiated RDMA device code
// (NVSHMEM's ibgda_device.cuh, DeepEP's copy of it) reads, with NVSHMEM 3.x's type and field
// names and meanings (device_host_transport/nvshmem_common_ibgda.h), holding this GPU's RC
// QPs of the NIC model (models/nvidia/nic.h): SQ rings, doorbell records, the UAR doorbell and
// collapsed CQs in simulated GPU memory. The host side (nvshmem_setup.cpp) fills them.
// Only what device code uses is declared; DCI/DCT (dynamically connected) transport is not
// modelled. The state is per GPU: `nvshmemi_ibgda_device_state_d` names the calling GPU's.
#pragma once
#include <linux/types.h>

#include <climits>
#include <cstddef>
#include <cstdint>

#include "infiniband/mlx5dv.h"

#define NVSHMEMI_IBGDA_MIN_QP_DEPTH 128
#define NVSHMEMI_IBGDA_MAX_QP_DEPTH 32768
#define NVSHMEMI_IBGDA_MAX_CONST_LKEYS 64
#define NVSHMEMI_IBGDA_MAX_CONST_RKEYS 64

typedef enum {
  NVSHMEMI_IBGDA_DEVICE_QP_TYPE_DCI = 1,
  NVSHMEMI_IBGDA_DEVICE_QP_TYPE_DCT = 2,
  NVSHMEMI_IBGDA_DEVICE_QP_TYPE_RC = 3,
  NVSHMEMI_IBGDA_DEVICE_QP_TYPE_MAX = INT_MAX,
} nvshmemi_ibgda_device_qp_type_t;

typedef enum {
  NVSHMEMI_IBGDA_DEVICE_QP_MAP_TYPE_CTA = 0,
  NVSHMEMI_IBGDA_DEVICE_QP_MAP_TYPE_SM,
  NVSHMEMI_IBGDA_DEVICE_QP_MAP_TYPE_WARP,
  NVSHMEMI_IBGDA_DEVICE_QP_MAP_TYPE_DCT,
  NVSHMEMI_IBGDA_DEVICE_QP_MAP_TYPE_INVALID = INT_MAX
} nvshmemi_ibgda_device_qp_map_type_t;

// A send queue's completion queue (collapsed: the NIC rewrites entry 0 with each CQE).
typedef struct {
  int version;
  nvshmemi_ibgda_device_qp_type_t qp_type;
  __be32* dbrec;
  void* cqe;             // the CQ ring (mlx5_cqe64 entries)
  uint64_t* prod_idx;    // the QP's posted index
  uint64_t* cons_idx;    // polled WQE index + 1 (the QP's mvars.tx_wq.cons_idx)
  uint64_t* resv_head;
  uint64_t* ready_head;
  uint32_t cqn;
  uint32_t ncqes;
  uint32_t qpn;
} nvshmemi_ibgda_device_cq_v1;
typedef nvshmemi_ibgda_device_cq_v1 nvshmemi_ibgda_device_cq_t;

// A QP's management variables in global memory, all in WQEBBs.
typedef struct {
  int version;
  int post_send_lock;
  struct {
    uint64_t resv_head;   // reserved up to (exclusive)
    uint64_t ready_head;  // written and ready up to
    uint64_t prod_idx;    // rung up to
    uint64_t cons_idx;    // completed up to
    uint64_t get_head;
    uint64_t get_tail;
  } tx_wq;
  struct {
    uint64_t head;
    uint64_t tail;
  } ibuf;
} __attribute__((__aligned__(8))) nvshmemi_ibgda_device_qp_management_v1;
typedef nvshmemi_ibgda_device_qp_management_v1 nvshmemi_ibgda_device_qp_management_t;

// An RC QP: where its SQ ring, doorbell record, UAR doorbell and CQ are.
typedef struct nvshmemi_ibgda_device_qp {
  int version;
  nvshmemi_ibgda_device_qp_type_t qp_type;
  uint32_t qpn;
  uint32_t dev_idx;  // which of the PE's NICs (one here)
  struct {
    uint32_t nslots;
    void* buf;  // internal buffer: atomic results land here
    __be32 lkey;
    __be32 rkey;
  } ibuf;
  struct {
    uint16_t nwqes;  // SQ depth in WQEBBs (a power of two)
    void* wqe;       // the SQ ring
    __be32* dbrec;   // doorbell record
    void* bf;        // UAR doorbell (MMIO)
    nvshmemi_ibgda_device_cq_t* cq;
    uint64_t* prod_idx;  // mvars.tx_wq.prod_idx
  } tx_wq;
  nvshmemi_ibgda_device_qp_management_v1 mvars;
} nvshmemi_ibgda_device_qp_v1;
typedef nvshmemi_ibgda_device_qp_v1 nvshmemi_ibgda_device_qp_t;

// Memory keys of one chunk of the symmetric heap: lkeys' next_addr is the chunk's end address,
// rkeys' its end offset in the heap.
typedef struct {
  __be32 key;
  uint64_t next_addr;
} nvshmemi_ibgda_device_key_t;

#define SYMSIM_NVSHMEMI_IBGDA_STATE_FIELDS                                                                     \
  int version;                                                                                                 \
  uint32_t num_shared_dcis;                                                                                    \
  uint32_t num_exclusive_dcis;                                                                                 \
  nvshmemi_ibgda_device_qp_map_type_t dci_map_type;                                                            \
  uint32_t ndcts_per_pe;                                                                                       \
  uint32_t num_qp_groups;                                                                                      \
  uint32_t num_dct_groups;                                                                                     \
  uint32_t num_rc_per_pe;                                                                                      \
  nvshmemi_ibgda_device_qp_map_type_t rc_map_type;                                                             \
  uint32_t num_requests_in_batch;                                                                              \
  size_t log2_cumem_granularity; /* heap chunk size */                                                         \
  int num_devices_initialized;   /* NICs per PE */                                                             \
  bool nic_buf_on_gpumem;                                                                                      \
  bool support_half_av_seg;                                                                                    \
  bool may_skip_cst;                                                                                           \
  bool use_async_postsend;                                                                                     \
  struct {                                                                                                     \
    nvshmemi_ibgda_device_key_t lkeys[NVSHMEMI_IBGDA_MAX_CONST_LKEYS]; /* [chunk * devices + dev] */           \
    nvshmemi_ibgda_device_key_t rkeys[NVSHMEMI_IBGDA_MAX_CONST_RKEYS]; /* [(chunk * npes + pe) * devices + dev] */ \
  } constmem;                                                                                                  \
  struct {                                                                                                     \
    uint8_t* qp_group_switches;                                                                                \
    nvshmemi_ibgda_device_cq_t* cqs;                                                                           \
    nvshmemi_ibgda_device_qp_t* dcis;                                                                          \
    nvshmemi_ibgda_device_qp_t* rcs; /* v1: [pe * rc_per_pe + id]; v2: [pe + npes * id] */                     \
    void* local_only_mhandle_head;                                                                             \
    void* dcts;                                                                                                \
    nvshmemi_ibgda_device_key_t* lkeys; /* beyond constmem: [idx - MAX_CONST_LKEYS] */                         \
    nvshmemi_ibgda_device_key_t* rkeys; /* beyond constmem: [idx - MAX_CONST_RKEYS] */                         \
  } globalmem;

// Version 1 indexes RC QPs per PE first; version 2 (NVSHMEM 3.3 on, the one in use) per QP id.
typedef struct {
  SYMSIM_NVSHMEMI_IBGDA_STATE_FIELDS
  void* extra;
} nvshmemi_ibgda_device_state_v1;
typedef struct {
  SYMSIM_NVSHMEMI_IBGDA_STATE_FIELDS
  int num_default_rc_per_pe;
  void* extra;
} nvshmemi_ibgda_device_state_v2;
#undef SYMSIM_NVSHMEMI_IBGDA_STATE_FIELDS
typedef nvshmemi_ibgda_device_state_v2 nvshmemi_ibgda_device_state_t;

namespace symsim::nvshmem {
// The calling GPU's IBGDA state (a kernel thread's GPU; on the host, the host program's).
nvshmemi_ibgda_device_state_t* ibgda_state();
}  // namespace symsim::nvshmem
// NVSHMEM's `__constant__ nvshmemi_ibgda_device_state_t nvshmemi_ibgda_device_state_d`: one
// per GPU; the simulator runs every GPU's kernels in one process, so the name is the calling
// GPU's copy. Reading it is untimed, as a constant-cache hit.
#define nvshmemi_ibgda_device_state_d (*::symsim::nvshmem::ibgda_state())

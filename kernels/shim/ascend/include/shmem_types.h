// CANN SHMEM types and constants shared by host and device code.
#pragma once
#include <cstdint>

constexpr int ACLSHMEM_SUCCESS = 0;
constexpr int ACLSHMEM_INVALID_PARAM = -1;
constexpr int ACLSHMEM_INVALID_VALUE = -2;
constexpr int ACLSHMEM_SMEM_ERROR = -3;
constexpr int ACLSHMEM_INNER_ERROR = -4;
constexpr int ACLSHMEM_NOT_INITED = -5;
constexpr int ACLSHMEM_NOT_SUPPORTED = -7;

enum aclshmem_data_op_engine_type_t {
  ACLSHMEM_DATA_OP_MTE = 1,
  ACLSHMEM_DATA_OP_SDMA = 2,
  ACLSHMEM_DATA_OP_ROCE = 4,
  ACLSHMEM_DATA_OP_UDMA = 8,
};

constexpr uint32_t ACLSHMEM_MAX_QP_NUM = 32;
constexpr uint32_t ACLSHMEM_MAX_IP_PORT_LEN = 64;
constexpr uint32_t UDMA_SQ_DEPTH_DEFAULT = 8192;
constexpr uint32_t UDMA_MAX_SQE_BB_NUM = 4;
constexpr uint32_t UDMA_SQ_BASKBLK_CNT = 32768;
constexpr uint32_t UDMA_CQ_DEPTH_DEFAULT = 32768;
constexpr uint32_t UDMA_RQ_DEPTH_DEFAULT = 256;
constexpr uint32_t ACLSHMEM_UDMA_AGGREGATE_CREDIT_GUARD = 10;
constexpr uint32_t MAX_RETRY_TIMES = 1000000;
constexpr uint32_t ACLSHMEM_UDMA_REMOTE_JETTY_TYPE = 1;
constexpr uint32_t ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE = 128U;
constexpr uint32_t ACLSHMEM_INTERNAL_UB_BUF_START_ADDR = 188 * 1024;
constexpr uint32_t UB_ALIGN_SIZE = 32;

struct aclshmem_init_optional_attr_t {
  int32_t version = (1 << 16) + 24;
  aclshmem_data_op_engine_type_t data_op_engine_type = ACLSHMEM_DATA_OP_MTE;
  uint32_t shm_init_timeout = 120;
  uint32_t shm_create_timeout = 120;
  uint32_t control_operation_timeout = 120;
  int32_t sockFd = -1;
};

struct aclshmemx_init_attr_t {
  int my_pe = 0;
  int n_pes = 1;
  char ip_port[ACLSHMEM_MAX_IP_PORT_LEN] = {};
  uint64_t local_mem_size = 0;
  aclshmem_init_optional_attr_t option_attr;
  void* comm_args = nullptr;
  uint64_t instance_id = 0;
};

struct aclshmemx_uniqueid_t {
  int32_t version = 0;
  char internal[124] = {};
};

enum aclshmemx_init_flags_t { ACLSHMEMX_INIT_WITH_DEFAULT = 0, ACLSHMEMX_INIT_WITH_UNIQUEID = 1 };

enum aclshmemx_udma_odr_t : uint32_t {
  ACLSHMEMX_UDMA_ODR_NO = 0,
  ACLSHMEMX_UDMA_ODR_RO = 1,  // value assumed: not in the public sources
  ACLSHMEMX_UDMA_ODR_SO = 2,
};

// Per-call completion and ordering options, encoded into the WQE flag byte.
struct aclshmemx_udma_op_config_t {
  uint32_t cqe;    // 1: ask for a CQE
  uint32_t se;     // must be 0 (not supported yet)
  uint32_t fence;  // 1: wait for earlier WQEs of the QP before this one executes
  uint32_t odr;    // ordering: NO / RO / SO
};

inline constexpr aclshmemx_udma_op_config_t ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT{1U, 0U, 0U, ACLSHMEMX_UDMA_ODR_RO};
inline constexpr aclshmemx_udma_op_config_t ACLSHMEMX_UDMA_OP_CONFIG_SO{1U, 0U, 0U, ACLSHMEMX_UDMA_ODR_SO};

// Device-side queue contexts in HBM, as the host fills them (CANN SHMEM layout).
struct aclshmemi_udma_wq_ctx_t {
  uint32_t wqn;
  uint64_t buf_addr;
  uint32_t wqe_size;
  uint32_t depth;  // WQEBBs
  uint32_t head;
  uint32_t tail;
  int32_t db_mode;  // HW = 0
  uint64_t db_addr;
  uint32_t sl;
  uint32_t cqe_cnt;
  uint64_t amo_addr;
};
struct aclshmemi_udma_cq_ctx_t {
  uint32_t cqn;
  uint64_t buf_addr;
  uint32_t cqe_size;
  uint32_t depth;
  uint32_t head;
  uint32_t tail;
  int32_t db_mode;
  uint64_t db_addr;
};
struct aclshmemi_ubmem_info_t {
  bool token_value_valid;
  uint32_t rmt_jetty_type : 2;
  uint32_t target_hint : 8;
  uint32_t tpn;
  uint32_t tid;
  uint32_t rmt_token_value;
  uint32_t len;
  uint64_t addr;
  uint64_t eid_addr;  // -> 16 B remote EID in device memory
};
struct aclshmemi_udma_qp_table_t {
  uint64_t sq_ptr;   // aclshmemi_udma_wq_ctx_t[slot * qp_num + qp]
  uint64_t rq_ptr;
  uint64_t scq_ptr;  // aclshmemi_udma_cq_ctx_t[...]
  uint64_t rcq_ptr;
  uint64_t mem_ptr;  // aclshmemi_ubmem_info_t[...]
};
struct aclshmemi_aiv_udma_info_t {
  uint32_t qp_num;
  aclshmemi_udma_qp_table_t table;
};

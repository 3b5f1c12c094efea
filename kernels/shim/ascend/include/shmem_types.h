// CANN SHMEM types and constants shared by host and device code.
#pragma once
#include <cstdint>

// Error codes (values as upstream's aclshmem_error_code_t).
enum aclshmem_error_code_t : int {
  ACLSHMEM_SUCCESS = 0,
  ACLSHMEM_INVALID_PARAM = -1,
  ACLSHMEM_INVALID_VALUE = -2,
  ACLSHMEM_SMEM_ERROR = -3,
  ACLSHMEM_INNER_ERROR = -4,
  ACLSHMEM_NOT_INITED = -5,
  ACLSHMEM_BOOTSTRAP_ERROR = -6,
  ACLSHMEM_TIMEOUT_ERROR = -7,
  ACLSHMEM_MALLOC_FAILED = -8,
  ACLSHMEM_DL_FUNC_FAILED = -9,
  ACLSHMEM_INNER_TIMEOUT = -10,
  ACLSHMEM_UNDER_API_UNLOAD = -11,
  ACLSHMEM_NOT_SUPPORTED = -100,
};
using Result = int32_t;

enum data_op_engine_type_t {
  ACLSHMEM_DATA_OP_MTE = 0x01,
  ACLSHMEM_DATA_OP_SDMA = 0x02,
  ACLSHMEM_DATA_OP_ROCE = 0x04,
  ACLSHMEM_DATA_OP_UDMA = 0x08,
  ACLSHMEM_DATA_OP_MAX = 0x08,
};
using aclshmem_data_op_engine_type_t = data_op_engine_type_t;

constexpr uint32_t ACLSHMEM_MAX_QP_NUM = 32;
#define ACLSHMEM_MAX_PES 16384
#define ACLSHMEM_PAGE_SIZE (1024UL * 1024UL * 2)
#define ACLSHMEM_MAX_IP_PORT_LEN 64
constexpr int DEFAULT_TIMEOUT = 120;
constexpr uint16_t ACLSHMEM_UNIQUE_ID_INNER_LEN = 124;
constexpr uint32_t UDMA_SQ_DEPTH_DEFAULT = 8192;
constexpr uint32_t UDMA_MAX_SQE_BB_NUM = 4;
constexpr uint32_t UDMA_SQ_BASKBLK_CNT = 32768;
constexpr uint32_t UDMA_CQ_DEPTH_DEFAULT = 32768;
constexpr uint32_t UDMA_RQ_DEPTH_DEFAULT = 256;
constexpr uint32_t ACLSHMEM_UDMA_AGGREGATE_CREDIT_GUARD = 10;
constexpr uint32_t MAX_RETRY_TIMES = 1000000;
constexpr uint32_t ACLSHMEM_UDMA_REMOTE_JETTY_TYPE = 1;
constexpr uint32_t ACLSHMEM_UDMA_MTE_STAGING_UB_SIZE = 128U;
constexpr uint32_t ACLSHMEM_RDMA_MTE_STAGING_UB_SIZE = 128U;
constexpr uint32_t ACLSHMEM_INTERNAL_UB_BUF_START_ADDR = 188 * 1024;
constexpr uint32_t UB_ALIGN_SIZE = 32;

struct aclshmem_init_optional_attr_t {
  int version = (1 << 16) + 24;
  data_op_engine_type_t data_op_engine_type = ACLSHMEM_DATA_OP_MTE;
  uint32_t shm_init_timeout = DEFAULT_TIMEOUT;
  uint32_t shm_create_timeout = DEFAULT_TIMEOUT;
  uint32_t control_operation_timeout = DEFAULT_TIMEOUT;
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
  int32_t version;
  int my_pe;
  int n_pes;
  char internal[ACLSHMEM_UNIQUE_ID_INNER_LEN];
};
constexpr int32_t ACLSHMEM_UNIQUEID_VERSION = (1 << 16) + sizeof(aclshmemx_uniqueid_t);
#define ACLSHMEM_UNIQUEID_INITIALIZER {ACLSHMEM_UNIQUEID_VERSION, 0, 0, {0}}

enum aclshmemx_bootstrap_t : unsigned int {
  ACLSHMEMX_INIT_WITH_DEFAULT = 1U << 0,
  ACLSHMEMX_INIT_WITH_MPI = 1U << 1,
  ACLSHMEMX_INIT_WITH_UNIQUEID = 1U << 3,
  ACLSHMEMX_INIT_MAX = 1U << 31
};
using aclshmemx_init_flags_t = aclshmemx_bootstrap_t;

// Transports the generic RMA calls may take to a PE (symsim models UDMA only).
enum aclshmem_transport_t : uint8_t {
  ACLSHMEM_TRANSPORT_MTE = 1 << 0,
  ACLSHMEM_TRANSPORT_ROCE = 1 << 1,
  ACLSHMEM_TRANSPORT_SDMA = 1 << 2,
  ACLSHMEM_TRANSPORT_UDMA = 1 << 3,
};
// A UB staging buffer of the generic calls: its UB offset, size and the event that orders it.
struct aclshmem_ub_config_t {
  int64_t aclshmem_ub;
  uint32_t ub_size;
  uint32_t sync_id;
};
using aclshmem_udma_config_t = aclshmem_ub_config_t;
// Non-contiguous copies (the "detailed" RMA overloads).
struct non_contiguous_copy_param {
  uint32_t repeat;
  uint32_t length;
  uint32_t src_ld;
  uint32_t dst_ld;
};

// Teams: the world (0) and those split from it.
typedef int aclshmem_team_t;
typedef uint64_t aclshmemx_team_uniqueid_t;
#define TEAM_CONFIG_PADDING 48
typedef struct {
  int32_t version;
  int32_t num_contexts;
  aclshmemx_team_uniqueid_t uniqueid;
  char padding[TEAM_CONFIG_PADDING];
} aclshmem_team_config_t;
static_assert(sizeof(aclshmem_team_config_t) == 64, "aclshmem_team_config_t is 64 bytes, as upstream's");
enum aclshmem_team_index_t { ACLSHMEM_TEAM_INVALID = -1, ACLSHMEM_TEAM_WORLD = 0 };

// Point-to-point synchronisation (shmem_device_p2p_sync.h).
enum aclshmem_signal_op_type_t { ACLSHMEM_SIGNAL_SET, ACLSHMEM_SIGNAL_ADD };
enum aclshmem_cmp_op_type_t { ACLSHMEM_CMP_EQ = 0, ACLSHMEM_CMP_NE, ACLSHMEM_CMP_GT, ACLSHMEM_CMP_GE, ACLSHMEM_CMP_LT, ACLSHMEM_CMP_LE };

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

// Immediate operations must ask for a CQE (upstream static_asserts it); deferred ones of a batch
// must not: their default is ACLSHMEMX_UDMA_OP_CONFIG_DEFER (a symsim name).
inline constexpr aclshmemx_udma_op_config_t ACLSHMEMX_UDMA_OP_CONFIG_DEFAULT{1U, 0U, 0U, ACLSHMEMX_UDMA_ODR_RO};
inline constexpr aclshmemx_udma_op_config_t ACLSHMEMX_UDMA_OP_CONFIG_SO{1U, 0U, 0U, ACLSHMEMX_UDMA_ODR_SO};
inline constexpr aclshmemx_udma_op_config_t ACLSHMEMX_UDMA_OP_CONFIG_DEFER{0U, 0U, 0U, ACLSHMEMX_UDMA_ODR_RO};

// A caller-managed batch (defer/submit): the state counts staged operations; the two action
// tags say whether a call joins the batch or submits it.
struct aclshmemx_submit_state_t {
  uint32_t pending_count = 0;  // operations staged in the batch's UB workspace
  uint32_t reserved = 0;
};
struct aclshmemx_defer_t {
  explicit aclshmemx_defer_t(aclshmemx_submit_state_t& s) : state(s) {}
  aclshmemx_submit_state_t& state;
};
struct aclshmemx_submit_t {
  explicit aclshmemx_submit_t(aclshmemx_submit_state_t& s) : state(s) {}
  aclshmemx_submit_state_t& state;
};

// Cycle profiling (SHMEMI_PROF_START / SHMEMI_PROF_END in kernels, aclshmemx_get_prof on the
// host): per block and frame, the summed cycles of the timed windows and how many there were.
#define ACLSHMEM_CYCLE_PROF_MAX_BLOCK 64
#define ACLSHMEM_CYCLE_PROF_FRAME_CNT 1024
struct aclshmem_prof_block_t {
  int64_t ccount[ACLSHMEM_CYCLE_PROF_FRAME_CNT];
  int64_t cycles[ACLSHMEM_CYCLE_PROF_FRAME_CNT];
};
struct aclshmem_prof_pe_t {
  int32_t pe_id;
  aclshmem_prof_block_t block_prof[ACLSHMEM_CYCLE_PROF_MAX_BLOCK];
};

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
// Direct builds index the table by [pe][qp]; relay builds (ACLSHMEM_RELAY_SUPPORT) by
// [pe * n_pes + relay_pe][0].
struct aclshmemi_aiv_udma_info_t {
  uint32_t qp_num;
  union {
    aclshmemi_udma_qp_table_t direct;
    aclshmemi_udma_qp_table_t relay;
  };
};

// The part of rdma-core's <infiniband/mlx5dv.h> that GPU-initiated RDMA device code uses
// (NVSHMEM's IBGDA, DeepEP's ibgda_device.cuh): the mlx5 WQE segments and the 64 B CQE as the
// ConnectX hardware lays them out (big-endian fields), and the opcodes and flags written into
// them. Written for the simulator from the mlx5 layout the NIC model parses
// (models/nvidia/mlx5_layout.h); the NIC model reads exactly these bytes.
#pragma once
#include <linux/types.h>  // __be16, __be32, __be64 as the kernel headers define them

#include <cstddef>
#include <cstdint>

#include "models/nvidia/mlx5_layout.h"

// Opcodes (low byte of a control segment's opmod_idx_opcode).
enum {
  MLX5_OPCODE_NOP = symsim::nv::mlx5::kOpNop,
  MLX5_OPCODE_RDMA_WRITE = symsim::nv::mlx5::kOpRdmaWrite,
  MLX5_OPCODE_RDMA_WRITE_IMM = symsim::nv::mlx5::kOpRdmaWriteImm,
  MLX5_OPCODE_RDMA_READ = symsim::nv::mlx5::kOpRdmaRead,
  MLX5_OPCODE_ATOMIC_CS = symsim::nv::mlx5::kOpAtomicCs,
  MLX5_OPCODE_ATOMIC_FA = symsim::nv::mlx5::kOpAtomicFa,
  MLX5_OPCODE_ATOMIC_MASKED_FA = symsim::nv::mlx5::kOpAtomicMaskedFa,
};
enum {
  MLX5_WQE_CTRL_CQ_UPDATE = symsim::nv::mlx5::kCeCqUpdate,  // fm_ce_se: ask for a CQE
  MLX5_SEND_WQE_BB = static_cast<int>(symsim::nv::mlx5::kWqebbBytes),
  MLX5_SEND_WQE_SHIFT = 6,  // log2 of a WQE basic block
};
enum : uint32_t {
  MLX5_INLINE_SEG = symsim::nv::mlx5::kInlineSeg,  // byte_count flag of inline data
  MLX5_INVALID_LKEY = 0x100,                       // an lkey the HCA never hands out
};
enum {
  MLX5_CQE_REQ = symsim::nv::mlx5::kCqeReq,
  MLX5_CQE_REQ_ERR = symsim::nv::mlx5::kCqeReqErr,
  MLX5_CQE_INVALID = symsim::nv::mlx5::kCqeInvalid,
};

// Control segment (16 B, first of every WQE).
struct mlx5_wqe_ctrl_seg {
  __be32 opmod_idx_opcode;  // opmod << 24 | WQE index << 8 | opcode
  __be32 qpn_ds;            // QP number << 8 | 16 B segments in the WQE
  uint8_t signature;
  __be16 dci_stream_channel_id;
  uint8_t fm_ce_se;
  __be32 imm;
} __attribute__((packed));

// Remote address segment (16 B).
struct mlx5_wqe_raddr_seg {
  __be64 raddr;
  __be32 rkey;
  __be32 reserved;
};

// Scatter/gather pointer (16 B).
struct mlx5_wqe_data_seg {
  __be32 byte_count;
  __be32 lkey;
  __be64 addr;
};

// Inline data header (4 B); the data follows it.
struct mlx5_wqe_inl_data_seg {
  __be32 byte_count;  // with MLX5_INLINE_SEG
};

// Atomic operands (16 B).
struct mlx5_wqe_atomic_seg {
  __be64 swap_add;
  __be64 compare;
};

// Completion queue entry (64 B): what the device code polls is near the end.
struct mlx5_cqe64 {
  uint8_t rsvd0[44];
  __be32 byte_cnt;
  uint8_t rsvd48[7];
  uint8_t syndrome;
  __be32 sop_drop_qpn;
  __be16 wqe_counter;
  uint8_t signature;
  uint8_t op_own;
};

static_assert(sizeof(mlx5_wqe_ctrl_seg) == 16 && sizeof(mlx5_wqe_raddr_seg) == 16 && sizeof(mlx5_wqe_data_seg) == 16 &&
                  sizeof(mlx5_wqe_inl_data_seg) == 4 && sizeof(mlx5_wqe_atomic_seg) == 16 && sizeof(mlx5_cqe64) == 64,
              "mlx5 segment sizes");
static_assert(offsetof(mlx5_cqe64, byte_cnt) == symsim::nv::mlx5::kCqeByteCnt &&
                  offsetof(mlx5_cqe64, syndrome) == symsim::nv::mlx5::kCqeSyndrome &&
                  offsetof(mlx5_cqe64, sop_drop_qpn) == symsim::nv::mlx5::kCqeQpn &&
                  offsetof(mlx5_cqe64, wqe_counter) == symsim::nv::mlx5::kCqeWqeCounter &&
                  offsetof(mlx5_cqe64, op_own) == symsim::nv::mlx5::kCqeOpOwn,
              "CQE fields where the NIC model writes them");

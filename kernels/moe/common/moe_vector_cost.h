// Vector-pipe time of the MoE kernels' Unified Buffer arithmetic. The values are computed in
// plain C++ (moe_numeric.h, shared bit for bit with the host reference); each function here
// issues, on PIPE_V, the AscendC vector instructions a kernel would use for that step, so the
// pipe is busy aiv.vector_issue_ns plus aiv.vector_repeat_ns per 256 B repeat of each
// instruction, and the checkers see the UB each instruction reads and writes. Call them right
// before computing the values they stand for (the MTE2 -> V and V -> MTE3 flags stay the
// caller's, as for any vector instruction).
#pragma once
#include <cstdint>

#include "kernel_operator.h"

namespace moe::vec {

// 256 B repeats of an instruction over `n` elements of `bytes_each` (the wider of its operands).
inline double repeats(uint64_t n, uint64_t bytes_each) { return static_cast<double>((n * bytes_each + 255) / 256); }

using AscendC::detail::vector_issue;

// Data-as-Flag interleave or de-interleave of `blocks` 480 B pieces: one Copy with per-repeat
// strides, two 256 B repeats per piece.
inline void copy_pieces(const void* dst, const void* src, uint32_t blocks, uint32_t piece_bytes, uint32_t stride_bytes)
{
    const uint64_t span = blocks == 0 ? 0 : uint64_t{blocks - 1} * stride_bytes + piece_bytes;
    vector_issue("moe Copy (Data-as-Flag pieces)", {{src, span}}, {{dst, span}},
                 static_cast<double>(blocks) * static_cast<double>((piece_bytes + 255) / 256));
}

// The stand-in expert on one token: dequantise (INT8: Cast int8->half, Cast half->float, Muls
// by the token's scale; BF16: Cast bf16->float), Muls by the expert's gain, Cast float->bf16.
inline void expert_row(const void* out_bf16, const void* in, uint32_t hidden, uint32_t elem_bytes)
{
    const uint64_t in_bytes = uint64_t{hidden} * elem_bytes, out_bytes = uint64_t{hidden} * 2;
    const double f32 = repeats(hidden, 4);
    if (elem_bytes == 1) {
        vector_issue("moe Cast int8->half", {{in, in_bytes}}, {{out_bf16, out_bytes}}, repeats(hidden, 2));
        vector_issue("moe Cast half->float", {{out_bf16, out_bytes}}, {{out_bf16, out_bytes}}, f32);
        vector_issue("moe Muls (scale)", {{out_bf16, out_bytes}}, {{out_bf16, out_bytes}}, f32);
    } else {
        vector_issue("moe Cast bf16->float", {{in, in_bytes}}, {{out_bf16, out_bytes}}, f32);
    }
    vector_issue("moe Muls (expert gain)", {{out_bf16, out_bytes}}, {{out_bf16, out_bytes}}, f32);
    vector_issue("moe Cast float->bf16", {{out_bf16, out_bytes}}, {{out_bf16, out_bytes}}, f32);
}

// Dynamic INT8 quantisation of one BF16 token, as the Atlas A3 MoE dispatch operator issues it
// per (token, expert) pair (ops-transformer mc2/moe_distribute_dispatch_v2, QuantProcess): Cast
// bf16->float, Abs, ReduceMax (a Max over the row's 256 B repeats, then WholeReduceMax of the
// last one), Muls by 127 / max, Cast float->int32, Cast int32->half, Cast half->int8.
inline void quantise_row(const void* out_int8, const void* in_bf16, uint32_t hidden)
{
    const uint64_t in_bytes = uint64_t{hidden} * 2;
    const double f32 = repeats(hidden, 4);
    vector_issue("moe Cast bf16->float", {{in_bf16, in_bytes}}, {{in_bf16, in_bytes}}, f32);
    vector_issue("moe Abs", {{in_bf16, in_bytes}}, {{in_bf16, in_bytes}}, f32);
    vector_issue("moe Max (row maximum)", {{in_bf16, in_bytes}}, {{in_bf16, in_bytes}}, f32 > 1 ? f32 - 1 : 1);
    vector_issue("moe WholeReduceMax", {{in_bf16, 256}}, {{in_bf16, 32}}, 1);
    vector_issue("moe Muls (127 / max)", {{in_bf16, in_bytes}}, {{in_bf16, in_bytes}}, f32);
    vector_issue("moe Cast float->int32", {{in_bf16, in_bytes}}, {{in_bf16, in_bytes}}, f32);
    vector_issue("moe Cast int32->half", {{in_bf16, in_bytes}}, {{in_bf16, in_bytes}}, f32);
    vector_issue("moe Cast half->int8", {{in_bf16, in_bytes}}, {{out_int8, uint64_t{hidden}}}, repeats(hidden, 2));
}

// The window slot of pair p, as the same operator finds it (CalTokenSendExpertCnt): how many of
// the rank's first p (token, expert) pairs go to the pair's expert, over the int32 expert ids in
// UB: Duplicate, Sub, Abs, Mins, ReduceSum over p elements.
inline void pair_slot(const void* expert_ids, const void* scratch, uint32_t p)
{
    if (p == 0) return;
    const uint64_t bytes = uint64_t{p} * 4;
    const double reps = repeats(p, 4);
    vector_issue("moe Duplicate (expert id)", {}, {{scratch, bytes}}, reps);
    vector_issue("moe Sub", {{expert_ids, bytes}, {scratch, bytes}}, {{scratch, bytes}}, reps);
    vector_issue("moe Abs", {{scratch, bytes}}, {{scratch, bytes}}, reps);
    vector_issue("moe Mins", {{scratch, bytes}}, {{scratch, bytes}}, reps);
    vector_issue("moe ReduceSum", {{scratch, bytes}}, {{scratch, 32}}, reps);
}

// Weighted top-k sum, the accumulator set to zero before the first term: Duplicate.
inline void zero_acc(const float* acc, uint32_t hidden)
{
    vector_issue("moe Duplicate (acc = 0)", {}, {{acc, uint64_t{hidden} * 4}}, repeats(hidden, 4));
}

// One term: Cast bf16->float of the expert's row, Axpy acc += weight * row.
inline void add_weighted(const float* acc, const void* row_bf16, uint32_t hidden)
{
    const uint64_t acc_bytes = uint64_t{hidden} * 4;
    vector_issue("moe Cast bf16->float", {{row_bf16, uint64_t{hidden} * 2}}, {{acc, acc_bytes}}, repeats(hidden, 4));
    vector_issue("moe Axpy (acc += w * row)", {{acc, acc_bytes}}, {{acc, acc_bytes}}, repeats(hidden, 4));
}

// The combined row out: Cast float->bf16.
inline void cast_out(const void* out_bf16, const float* acc, uint32_t hidden)
{
    vector_issue("moe Cast float->bf16", {{acc, uint64_t{hidden} * 4}}, {{out_bf16, uint64_t{hidden} * 2}},
                 repeats(hidden, 4));
}

// The Atlas A3 dispatch operator's 32 B statuses (moe_distribute_dispatch_v2: one per expert,
// flag float in element 0, count in element 1), set up in UB before counting: a Duplicate of
// zeros over the blocks, then a masked Duplicate of the flag into each block's first element.
inline void status_init(const void* status, uint32_t blocks)
{
    const uint64_t bytes = uint64_t{blocks} * 32;
    vector_issue("moe Duplicate (statuses = 0)", {}, {{status, bytes}}, repeats(blocks, 32));
    vector_issue("moe Duplicate (status flags)", {}, {{status, bytes}}, repeats(blocks, 32));
}

// WaitDispatch's test of `blocks` received statuses: one ReduceSum of each block's flag (one
// element per repeat, a repeat per block).
inline void status_flag_sum(const void* status, const void* work, uint32_t blocks)
{
    vector_issue("moe ReduceSum (status flags)", {{status, uint64_t{blocks} * 32}}, {{work, 32}},
                 static_cast<double>(blocks));
}

// One value out of each of `blocks` 32 B blocks (GatherMask, a repeat per block), then their
// sum (Sum over the gathered row): the operator's count of its statuses (SyncCntOnCore) and its
// prefix over the cores before it (GetCumSum).
inline void gather_sum(const void* blocks_ub, const void* out, uint32_t blocks)
{
    if (blocks == 0) return;
    vector_issue("moe GatherMask", {{blocks_ub, uint64_t{blocks} * 32}}, {{out, uint64_t{blocks} * 4}},
                 static_cast<double>(blocks));
    vector_issue("moe Sum", {{out, uint64_t{blocks} * 4}}, {{out, 32}}, repeats(blocks, 4));
}

// One Duplicate of a value into a 32 B block (the operator's status clear and its per-core sum).
inline void duplicate_block(const void* block, uint32_t blocks)
{
    vector_issue("moe Duplicate", {}, {{block, uint64_t{blocks} * 32}}, repeats(blocks, 32));
}

}  // namespace moe::vec

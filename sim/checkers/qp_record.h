// One record per QP for the state the per-WQE rules keep per QP (the completion record, the
// call-site index, unreaped_completions, flag_before_data, qp_multi_producer, the last source of
// src_reuse_before_completion, the last landing of dst_write_race): CheckerSet::Hub looks a QP
// up once per event and hands the record to each of them, instead of one table lookup per rule.
// (The SQ doorbell the engine last acted on is the engine's: UdmaQp::sq_rung_value.)
// Queries from elsewhere (a completion asked about, a site named in a report) look it up in the
// same table. A rule whose hazard is off leaves its part empty.
#pragma once
#include "models/core/qp_table.h"
#include "sim/checkers/completion_knowledge.h"
#include "sim/checkers/dst_write_race.h"
#include "sim/checkers/flag_before_data.h"
#include "sim/checkers/qp_multi_producer.h"
#include "sim/checkers/site_index.h"
#include "sim/checkers/src_reuse_before_completion.h"
#include "sim/checkers/unreaped_completions.h"
#include "sim/checkers/write_history.h"

namespace symsim {

// Laid out by the event that touches each part, on 64-byte lines. A QP's events come far apart
// (other QPs' WQEs and their payload copies pass between), so each line an event touches is a
// cache miss: the parts that one event touches share lines. A WQE's execution reads or writes
// the first 125 bytes (two lines: every part of the first block, and the completion record's
// first 61 bytes); the
// completion record's reaps (third line) come with the core's post and doorbell store (the
// second block), which a core makes for its QP several in a row.
struct alignas(64) QpRecord {
  // Execution: 64 bytes.
  SrcReuseChecker::QpLast src_reuse;                   // 16
  DstWriteRaceChecker::QpLast dst_race;                // 16
  UnreapedCompletionsChecker::QpCompletions unreaped;  // 20
  FlagBeforeDataChecker::QpOrder flag_before_data;     // 12
  // Execution (its first 61 bytes, from offset 64; with the CQE log unreaped_completions reads
  // too), reaps, posts.
  CompletionKnowledge::QpState completions;  // 112
  // Post and doorbell store.
  alignas(64) SiteIndex::QpSites sites;
  QpMultiProducerChecker::Producers producers;
};
// The first block ends at 64 bytes, where the completion record (8-byte aligned) starts.
static_assert(alignof(CompletionKnowledge::QpState) == 8 &&
                  (sizeof(SrcReuseChecker::QpLast) + sizeof(DstWriteRaceChecker::QpLast) +
                   sizeof(UnreapedCompletionsChecker::QpCompletions) + sizeof(FlagBeforeDataChecker::QpOrder) + 7) /
                              8 * 8 +
                          CompletionKnowledge::kExecutionBytes <=
                      128,
              "a WQE's execution touches two lines of its QP's record");

using QpRecords = QpTable<QpRecord>;

}  // namespace symsim

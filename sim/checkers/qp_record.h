// One record per QP for the state the per-WQE rules keep per QP (the completion record, the
// call-site index, unreaped_completions, flag_before_data, qp_multi_producer, the last source of
// src_reuse_before_completion, the last landing of dst_write_race, the write history's last SQ
// doorbell seen): CheckerSet::Hub looks a QP up once per event and hands the record to each of
// them, instead of one table lookup per rule.
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

// Laid out by the event that touches each part, on 64-byte lines: a WQE's SQ doorbell and its
// execution (which follows in the same engine call) read or write every part of the first
// block (three lines), its post and doorbell store the second. A QP's events come far apart
// (other QPs' WQEs and their payload copies pass between), so each line an event touches is a
// cache miss: the parts that one event touches share lines.
struct alignas(64) QpRecord {
  // SQ doorbell, execution (and the reaps, which touch `completions` only): 180 bytes.
  WriteHistory::Bells bells;  // the hang report's: the SQ doorbell the engine last acted on (16)
  CompletionKnowledge::QpState completions;            // 88, with the CQE log unreaped_completions reads too
  UnreapedCompletionsChecker::QpCompletions unreaped;  // 16
  SrcReuseChecker::QpLast src_reuse;                   // 32
  DstWriteRaceChecker::QpLast dst_race;                // 16
  FlagBeforeDataChecker::QpOrder flag_before_data;     // 12
  // Post and doorbell store.
  alignas(64) SiteIndex::QpSites sites;
  QpMultiProducerChecker::Producers producers;
};
static_assert(sizeof(WriteHistory::Bells) + sizeof(CompletionKnowledge::QpState) +
                      sizeof(UnreapedCompletionsChecker::QpCompletions) + sizeof(SrcReuseChecker::QpLast) +
                      sizeof(DstWriteRaceChecker::QpLast) + sizeof(FlagBeforeDataChecker::QpOrder) <=
                  192,
              "a WQE's SQ doorbell and execution touch three lines of its QP's record");

using QpRecords = QpTable<QpRecord>;

}  // namespace symsim

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

struct QpRecord {
  CompletionKnowledge::QpState completions;
  SiteIndex::QpSites sites;
  UnreapedCompletionsChecker::QpCompletions unreaped;
  FlagBeforeDataChecker::QpOrder flag_before_data;
  QpMultiProducerChecker::Producers producers;
  SrcReuseChecker::QpLast src_reuse;
  DstWriteRaceChecker::QpLast dst_race;
  WriteHistory::Bells bells;  // the hang report's: the SQ doorbell the engine last acted on
};

using QpRecords = QpTable<QpRecord>;

}  // namespace symsim

#include "checkers/catalog.h"

#include <algorithm>

namespace symsim {

const std::vector<CatalogEntry>& hazard_catalog() {
  static const std::vector<CatalogEntry> c = {
      {"sq_overrun", "WQEs posted past the SQ depth, overwriting ones the engine had not read (no credit check)"},
      {"torn_wqe", "the engine fetched a WQE that was not yet fully visible"},
      {"cq_overflow", "the engine had a CQE to write and the CQ was full (the QP then enters the error state)"},
      {"cqe_error_unchecked", "an error CQE was never polled or its status ignored"},
      {"src_reuse_before_completion", "a put's source was rewritten before its completion"},
      {"dst_write_race", "two writers landed on overlapping remote bytes with no ordering"},
      {"qp_multi_producer", "two cores posted to one QP without atomic head reservation"},
      {"token_mismatch", "a WQE's token did not match the target memory's token"},
      {"bad_remote_addr", "a WQE's remote address is outside the target's registered memory"},
      {"relay_unreachable", "a WQE names a target the fabric cannot reach"},
      {"doorbell_regression", "a doorbell moved the producer index backwards"},
      {"torn_block_consumed", "a receiver consumed a 512 B block that was only partly visible"},
      {"flag_before_data", "a flag was observed before the data it publishes"},
      {"unreaped_completions", "a kernel ended with completions never polled"},
      {"deadlock", "every kernel thread waits and nothing is in flight"},
      {"timeout", "the simulated time limit, or a poll's retry limit, passed with work still in flight"},
      {"pipe_sync_missing", "a pipe read what another pipe writes with no SetFlag/WaitFlag between"},
      {"event_id_unpaired", "a SetFlag never waited, a WaitFlag never set, or an event id reused while pending"},
      {"ub_out_of_bounds", "a Unified Buffer access outside the core's UB or its allocations"},
      {"gm_out_of_bounds", "a GM access outside any allocation or registered region"},
      {"unaligned_access", "a DataCopy or DMA that breaks the 32 B alignment rules"},
      {"core_write_race", "two cores stored to overlapping GM with no synchronisation"},
  };
  return c;
}

const std::vector<CatalogEntry>& fault_catalog() {
  static const std::vector<CatalogEntry> c = {
      {"cq_overflow", "shrink a CQ or stall its consumer"},
      {"torn_block", "deliver a 512 B block non-atomically (parts at different times, or flag part first)"},
      {"drop_doorbell", "lose a doorbell store (SQ or CQ)"},
      {"delay_doorbell", "deliver a doorbell store late"},
      {"link_degrade", "reduce a link's bandwidth or add latency"},
      {"link_down", "take a link out of service (for a window: traffic waits; for good: WQEs fail)"},
      {"reorder", "delay a WQE's landing so later WQEs (other QPs, relaxed ordering) overtake it"},
      {"cqe_error", "complete a WQE with an error CQE"},
      {"straggler", "slow down a PE or core"},
      {"bit_flip", "flip a bit in data on the wire"},
  };
  return c;
}

namespace {
bool in(const std::vector<CatalogEntry>& c, const std::string& id) {
  return std::any_of(c.begin(), c.end(), [&](const CatalogEntry& e) { return id == e.id; });
}
}  // namespace

bool is_hazard_id(const std::string& id) { return in(hazard_catalog(), id); }
bool is_fault_kind(const std::string& kind) { return in(fault_catalog(), kind); }
bool fault_implemented(const std::string& kind) { return is_fault_kind(kind); }

}  // namespace symsim

// Defer/submit batching (CANN SHMEM's aggregate actions): a deferred call stages its 64 B WQE
// in the batch's UB workspace at 64 * pending_count and touches no GM; the submit stages its
// own WQE (the only one asking for a CQE) and copies the batch to the SQ ring in chunks, each
// one MTE3 copy and one doorbell, draining the CQ first when a chunk lacks credit
// (head + chunk - tail + guard >= depth). Every call of a batch must use the same operation,
// PE (and relay PE), QP, UB base and sync_id: a call that does not stops the kernel with a
// message naming it and the call that opened the batch.
#include <cstring>

#include <fmt/format.h>

#include "models/ascend/ring.h"
#include "models/ascend/wqe_layout.h"
#include "models/memory/address_map.h"
#include "kernel_operator.h"
#include "kernels/shim/ascend/src/udma_queue.h"
#include "kernels/shim/ascend/src/world.h"
#include "kernels/shim/ascend/src/wqe_posts.h"

namespace symsim::shim {

namespace {

const char* op_name(uint8_t opcode) { return opcode == udma::kRead ? "READ (get)" : "WRITE (put)"; }

std::string describe(const BatchContract& b) {
  return fmt::format("{} to PE {}{} QP {}, UB base {}, sync_id {}", op_name(b.opcode), b.pe,
                     b.relay_pe >= 0 ? fmt::format(" via relay PE {}", b.relay_pe) : std::string(), b.qp,
                     address_name(b.ub_base), b.sync_id);
}

BatchContract contract_of(const UdmaRequest& r) {
  BatchContract c;
  c.api = r.api;
  c.opcode = r.opcode;
  c.pe = r.pe;
  c.relay_pe = r.relay_pe;
  c.qp = r.qp;
  c.ub_base = r.ub_buf;
  c.sync_id = r.sync_id;
  c.site = r.site;
  return c;
}

// The batch `state` belongs to, opened by this call when it is the first; checks the contract.
BatchContract& join_batch(const UdmaRequest& r, aclshmemx_submit_state_t& state) {
  BlockState& b = *world().blocks[core().pe()][core().core()];
  auto it = b.batches.find(&state);
  if (state.pending_count == 0) {
    b.batches[&state] = contract_of(r);
    return b.batches[&state];
  }
  if (it == b.batches.end())
    trap(fmt::format("{}: {}: aclshmemx_submit_state_t says {} operations are pending but no batch was opened on "
                     "it (value-initialise the state and do not modify pending_count)",
                     where(r.site), r.api, state.pending_count));
  BatchContract& open = it->second;
  if (state.pending_count != open.staged)
    trap(fmt::format("{}: {}: aclshmemx_submit_state_t.pending_count is {} but {} operations were staged "
                     "(the library owns this field)",
                     where(r.site), r.api, state.pending_count, open.staged));
  const BatchContract mine = contract_of(r);
  if (mine.opcode != open.opcode || mine.pe != open.pe || mine.relay_pe != open.relay_pe || mine.qp != open.qp ||
      mine.ub_base != open.ub_base || mine.sync_id != open.sync_id)
    trap(fmt::format("{}: {} breaks the batch contract (same operation, PE, QP, UB base and sync_id for every call "
                     "of a batch): the batch opened by {} at {} is {}; this call is {}",
                     where(r.site), r.api, open.api, where(open.site), describe(open), describe(mine)));
  return open;
}

// Builds the WQE of `r` and stores it (scalar stores) at its slot of the UB workspace.
void stage(const UdmaRequest& r, BatchContract& batch, uint32_t index) {
  AivCore& c = core();
  const QpView v = qp_view(r.api, r.pe, r.relay_pe, r.qp, r.relay_build, r.site);
  if (r.bytes > udma::kMaxRequestBytes)
    trap(fmt::format("{}: {}: request of {} bytes exceeds the 256 MB limit", where(r.site), r.api, r.bytes));
  if (index + 1 >= v.sq->depth)
    trap(fmt::format("{}: {}: a batch of {} operations is not smaller than the SQ depth of {} WQEBBs", where(r.site),
                     r.api, index + 1, v.sq->depth));
  // The workspace must hold 64 * n bytes inside this core's Unified Buffer.
  uint8_t* slot = r.ub_buf + uint64_t{index} * udma::kWqebbBytes;
  const Region* ub = system().addresses().find(r.ub_buf, 1);
  const Region* end = system().addresses().find(slot, udma::kWqebbBytes);
  if (!r.ub_buf || !ub || ub->kind != RegionKind::kUnifiedBuffer || ub->core != c.core() || end != ub ||
      reinterpret_cast<uintptr_t>(slot) + udma::kWqebbBytes - ub->begin > block().ub_bytes)
    trap(fmt::format("{}: {}: the batch workspace at {} must hold 64 * {} bytes of this core's Unified Buffer",
                     where(r.site), r.api, address_name(r.ub_buf), index + 1));
  const udma::Wqe w = base_wqe(v, r.opcode, r.flags, reinterpret_cast<uint64_t>(symmetric_ptr(r.remote, r.pe)),
                               reinterpret_cast<uint64_t>(r.local), r.bytes);
  udma::encode(w, slot);
  c.scalar_ops(8.0);
  batch.staged = index + 1;
}

}  // namespace

void udma_defer(UdmaRequest r, aclshmemx_submit_state_t& state) {
  r.site = SYMSIM_CALLER();
  BatchContract& batch = join_batch(r, state);
  stage(r, batch, state.pending_count);
  state.pending_count = batch.staged;
}

void udma_submit(UdmaRequest r, aclshmemx_submit_state_t& state) {
  r.site = SYMSIM_CALLER();
  AivCore& c = core();
  BatchContract& batch = join_batch(r, state);
  stage(r, batch, state.pending_count);
  const QpView v = qp_view(r.api, r.pe, r.relay_pe, r.qp, r.relay_build, r.site);
  const uint32_t depth = v.sq->depth;
  const uint32_t max_chunk = depth - ACLSHMEM_UDMA_AGGREGATE_CREDIT_GUARD;
  auto* ring = reinterpret_cast<uint8_t*>(v.sq->buf_addr);
  const int id = static_cast<int>(r.sync_id);
  uint32_t remaining = batch.staged, staged_at = 0;
  while (remaining != 0) {
    const uint32_t head = v.sq->head;
    const uint32_t slot = udma::ring_slot(head, depth);
    const uint32_t chunk = std::min({depth - slot, remaining, max_chunk});
    if (!sq_has_credit(v, chunk)) poll_cq(v, v.sq->cqe_cnt, r.site);
    c.set_flag(AivPipe::kScalar, AivPipe::kMte3, id);
    c.wait_flag(AivPipe::kScalar, AivPipe::kMte3, id);
    c.copy(AivPipe::kMte3, ring + uint64_t{slot} * udma::kWqebbBytes,
           r.ub_buf + uint64_t{staged_at} * udma::kWqebbBytes, uint64_t{chunk} * udma::kWqebbBytes);
    c.set_flag(AivPipe::kMte3, AivPipe::kScalar, id);
    c.wait_flag(AivPipe::kMte3, AivPipe::kScalar, id);
    for (uint32_t i = 0; i < chunk; ++i)
      note_wqe_posted(c, QpRef{c.pe(), v.slot, static_cast<int>(v.qp)}, head + i, 1, r.opcode);
    ring_doorbell(v.sq->db_addr, head + chunk, CallSite{});
    v.sq->head = head + chunk;
    staged_at += chunk;
    remaining -= chunk;
  }
  ++v.sq->cqe_cnt;  // only the submit's WQE asked for a CQE
  world().blocks[c.pe()][c.core()]->batches.erase(&state);
  state.pending_count = 0;
}

}  // namespace symsim::shim

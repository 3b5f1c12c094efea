#include "kernels/shim/ascend/src/wqe_posts.h"

#include "models/ascend/ring.h"
#include "models/ascend/udma_engine.h"
#include "models/ascend/wqe_layout.h"
#include "kernels/shim/ascend/src/world.h"

namespace symsim::shim {

void note_wqe_posted(AivCore& c, const QpRef& q, uint32_t index, uint32_t bb, uint8_t opcode) {
  // Not system(): each of its calls is counted (ExecContext::shim_calls), and the shim call that
  // posts the WQE counts itself (core(), then the doorbell's store).
  World& w = world();
  Hooks& hooks = w.sys->hooks();
  if (!hooks.may_be_heard<&Observer::on_wqe_posted>()) return;  // no trace: the cursors serve nothing else
  hooks.emit<&Observer::on_wqe_posted>(q, index, opcode, c.core(), c.local_ps());
  w.posts[q].next = index + bb;
}

void note_vf_end(AivCore& c) { world().blocks[c.pe()][c.core()]->last_vf_end_ps = c.local_ps(); }

void note_sq_doorbell_store(AivCore& c, const UdmaQp& qp, uint32_t producer) {
  World& w = world();
  // Unheard, the cursors are not kept (note_wqe_posted): the loop below would emit to no one. Its
  // system() calls would only add to ExecContext::shim_calls, which this doorbell's own store has
  // moved already (a poll compares it for equality only).
  if (!w.sys->hooks().may_be_heard<&Observer::on_wqe_posted>()) return;
  PostCursor& cur = w.posts[qp.ref];
  const uint32_t unposted = producer - cur.next;
  const Ps now = c.local_ps();
  // Only a forward step within one ring pass is a set of new WQEs (a regression or a wild
  // value is the checkers' business).
  if (unposted != 0 && unposted <= qp.sq_depth_bb) {
    const Ps vf_end = w.blocks[c.pe()][c.core()]->last_vf_end_ps;
    const Ps posted = vf_end > cur.last_doorbell_ps && vf_end <= now ? vf_end : now;
    for (uint32_t i = cur.next; i != producer;) {
      const uint8_t* slot = qp.sq_base + uint64_t{udma::ring_slot(i, qp.sq_depth_bb)} * udma::kWqebbBytes;
      const uint8_t opcode = udma::peek_opcode(slot);
      system().hooks().emit<&Observer::on_wqe_posted>(qp.ref, i, opcode, c.core(), posted);
      const uint32_t bb = udma::bb_count(opcode);
      i = producer - i < bb ? producer : i + bb;
    }
  }
  if (static_cast<int32_t>(producer - cur.next) > 0) cur.next = producer;
  cur.last_doorbell_ps = now;
}

}  // namespace symsim::shim

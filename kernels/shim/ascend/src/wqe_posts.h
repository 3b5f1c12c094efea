// Post records (Observer::on_wqe_posted) for every WQE a doorbell publishes, for the trace's
// "post" phase. The shim's own put paths know when they wrote a WQE; a kernel that writes
// WQEs itself (SIMT direct drive) is seen only when it rings: its WQEs are posted at the end
// of the block's last SIMT VF if that VF ended after the QP's previous doorbell (the VF's
// fence made them visible), else at the doorbell store.
#pragma once
#include <cstdint>

#include "models/ascend/ascend_observer.h"

namespace symsim {
class AivCore;
struct UdmaQp;
}

namespace symsim::shim {

// The shim wrote `bb` WQEBBs of a WQE at producer index `index` of `q`, now.
void note_wqe_posted(AivCore& c, const QpRef& q, uint32_t index, uint32_t bb, uint8_t opcode);
// A core stored producer index `producer` into the SQ doorbell of `qp`.
void note_sq_doorbell_store(AivCore& c, const UdmaQp& qp, uint32_t producer);
// The calling core's block finished a SIMT VF now.
void note_vf_end(AivCore& c);

}  // namespace symsim::shim

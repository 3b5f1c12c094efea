#include "models/ascend/wqe_layout.h"

#include <cstring>

namespace symsim::udma {
using namespace wqe_detail;

void encode(const Wqe& w, uint8_t* out) {
  std::memset(out, 0, bb_count(w.opcode) * kWqebbBytes);
  const uint64_t dw0 = field(w.sqe_bb_idx, 0, 16) | field(w.flags, 16, 8) | field(0, 27, 1) |
                       field(w.token_en, 28, 1) | field(w.rmt_jetty_type, 29, 2) |
                       field(w.owner, 31, 1);
  const uint64_t dw1 = field(w.target_hint, 0, 8) | field(w.opcode, 8, 8);
  store64(out + 0, dw0 | (dw1 << 32));
  store64(out + 8, field(w.tp_id, 0, 24) | field(w.sge_num, 24, 8) |
                       (field(w.rmt_jetty_or_seg_id, 0, 20) << 32));
  std::memcpy(out + 16, w.rmt_eid.data(), 16);
  store64(out + 32, uint64_t{w.rmt_token_value} |
                        ((field(w.udf_type, 0, 8) | field(w.reduce_data_type, 8, 4) |
                          field(w.reduce_opcode, 12, 4))
                         << 32));
  store64(out + 40, w.remote_va);
  if (w.opcode == kWriteWithNotify) {
    store64(out + 48, field(w.notify_token_id, 0, 20) | (uint64_t{w.notify_token_value} << 32));
    store64(out + 56, w.notify_addr);
    store64(out + 64, w.notify_data);
  }
  const uint32_t sge = sge_offset(w.opcode);
  store32(out + sge, w.len);
  store32(out + sge + 4, w.sge_token_id);
  store64(out + sge + 8, w.local_va);
  if (w.opcode == kFaa || w.opcode == kCas) {
    // Operands of the request's width: FAA's addend (CAS's swap value) at byte 64, CAS's
    // compare value right after it.
    const uint32_t width = atomic_width(w.len);
    std::memcpy(out + 64, &w.atomic_operand, width);
    if (w.opcode == kCas) std::memcpy(out + 64 + width, &w.atomic_compare, width);
  }
}

uint8_t peek_opcode(const uint8_t* first) { return static_cast<uint8_t>(bits(load64(first), 40, 8)); }

Cqe decode_cqe(const uint8_t* in) {
  Cqe c;
  const uint32_t d0 = load32(in);
  c.s_r = bits(d0, 0, 1);
  c.is_jetty = bits(d0, 1, 1);
  c.owner = bits(d0, 2, 1);
  c.inline_en = bits(d0, 3, 1);
  c.opcode = static_cast<uint8_t>(bits(d0, 4, 3));
  c.fd = bits(d0, 7, 1);
  c.substatus = static_cast<uint8_t>(bits(d0, 16, 8));
  c.status = static_cast<uint8_t>(bits(d0, 24, 8));
  const uint32_t d1 = load32(in + 4);
  c.entry_idx = static_cast<uint16_t>(bits(d1, 0, 16));
  const uint32_t d2 = load32(in + 8);
  c.local_num = static_cast<uint32_t>(bits(d1, 16, 16) | (bits(d2, 0, 4) << 16));
  c.rmt_idx = static_cast<uint32_t>(bits(d2, 4, 20));
  c.tpn = static_cast<uint32_t>(bits(load32(in + 12), 0, 24));
  c.byte_cnt = load32(in + 16);
  c.user_data = load64(in + 20);
  for (int i = 0; i < 4; ++i) c.rmt_eid[i] = load32(in + 28 + 4 * i);
  c.data = load64(in + 44);
  return c;
}

}  // namespace symsim::udma

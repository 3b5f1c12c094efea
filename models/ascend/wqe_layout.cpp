#include "models/ascend/wqe_layout.h"

#include <cstring>

namespace symsim::udma {
namespace {

uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
void store64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }
uint32_t load32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
void store32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }

constexpr uint64_t bits(uint64_t v, unsigned lo, unsigned width) {
  return (v >> lo) & ((width == 64 ? 0 : (uint64_t{1} << width)) - 1);
}
constexpr uint64_t field(uint64_t v, unsigned lo, unsigned width) {
  return (v & ((uint64_t{1} << width) - 1)) << lo;
}

// Byte offset of the SGE within the WQE.
uint32_t sge_offset(uint8_t opcode) { return opcode == kWriteWithNotify ? kSqeBytes + kNotifyBytes : kSqeBytes; }

}  // namespace

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

Wqe decode(const uint8_t* first, const uint8_t* second) {
  Wqe w;
  const uint64_t q0 = load64(first);
  w.sqe_bb_idx = static_cast<uint16_t>(bits(q0, 0, 16));
  w.flags = static_cast<uint8_t>(bits(q0, 16, 8));
  w.token_en = bits(q0, 28, 1);
  w.rmt_jetty_type = static_cast<uint8_t>(bits(q0, 29, 2));
  w.owner = bits(q0, 31, 1);
  w.target_hint = static_cast<uint8_t>(bits(q0, 32, 8));
  w.opcode = static_cast<uint8_t>(bits(q0, 40, 8));
  const uint64_t q1 = load64(first + 8);
  w.tp_id = static_cast<uint32_t>(bits(q1, 0, 24));
  w.sge_num = static_cast<uint8_t>(bits(q1, 24, 8));
  w.rmt_jetty_or_seg_id = static_cast<uint32_t>(bits(q1, 32, 20));
  std::memcpy(w.rmt_eid.data(), first + 16, 16);
  const uint64_t q4 = load64(first + 32);
  w.rmt_token_value = static_cast<uint32_t>(q4);
  w.udf_type = static_cast<uint8_t>(bits(q4, 32, 8));
  w.reduce_data_type = static_cast<uint8_t>(bits(q4, 40, 4));
  w.reduce_opcode = static_cast<uint8_t>(bits(q4, 44, 4));
  w.remote_va = load64(first + 40);
  // Bytes past the first WQEBB live in `second` (which may sit at the ring's start).
  auto at = [&](uint32_t off) { return off < kWqebbBytes ? first + off : second + (off - kWqebbBytes); };
  if (w.opcode == kWriteWithNotify && second) {
    const uint64_t n0 = load64(at(48));
    w.notify_token_id = static_cast<uint32_t>(bits(n0, 0, 20));
    w.notify_token_value = static_cast<uint32_t>(n0 >> 32);
    w.notify_addr = load64(at(56));
    w.notify_data = load64(at(64));
  }
  if (w.opcode != kWriteWithNotify || second) {
    const uint32_t sge = sge_offset(w.opcode);
    w.len = load32(at(sge));
    w.sge_token_id = load32(at(sge + 4));
    w.local_va = load64(at(sge + 8));
  }
  if ((w.opcode == kFaa || w.opcode == kCas) && second) {
    const uint32_t width = atomic_width(w.len);
    std::memcpy(&w.atomic_operand, at(64), width);
    if (w.opcode == kCas) std::memcpy(&w.atomic_compare, at(64 + width), width);
  }
  return w;
}

void encode(const Cqe& c, uint8_t* out) {
  std::memset(out, 0, kCqeBytes);
  store32(out + 0, static_cast<uint32_t>(field(c.s_r, 0, 1) | field(c.is_jetty, 1, 1) |
                                         field(c.owner, 2, 1) | field(c.inline_en, 3, 1) |
                                         field(c.opcode, 4, 3) | field(c.fd, 7, 1) |
                                         field(c.substatus, 16, 8) | field(c.status, 24, 8)));
  store32(out + 4, static_cast<uint32_t>(field(c.entry_idx, 0, 16) | field(c.local_num, 16, 16)));
  store32(out + 8, static_cast<uint32_t>(field(c.local_num >> 16, 0, 4) | field(c.rmt_idx, 4, 20)));
  store32(out + 12, static_cast<uint32_t>(field(c.tpn, 0, 24)));
  store32(out + 16, c.byte_cnt);
  store64(out + 20, c.user_data);
  for (int i = 0; i < 4; ++i) store32(out + 28 + 4 * i, c.rmt_eid[i]);
  store64(out + 44, c.data);
}

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

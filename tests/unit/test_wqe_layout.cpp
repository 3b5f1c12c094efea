// WQE and CQE bytes against the documented bit layout (docs/udma-layout.md).
#include <gtest/gtest.h>

#include <cstring>

#include "models/ascend/wqe_layout.h"

using namespace symsim::udma;

namespace {
uint64_t qword(const uint8_t* p, int i) {
  uint64_t v;
  std::memcpy(&v, p + 8 * i, 8);
  return v;
}
}  // namespace

TEST(WqeLayout, WriteEncodesDocumentedBits) {
  Wqe w;
  w.opcode = kWrite;
  w.flags = flag::kCqe | kOdrStrong;
  w.token_en = true;
  w.rmt_jetty_type = 1;
  w.owner = true;
  w.sqe_bb_idx = 0x1234;
  w.tp_id = 0xABCDEF;
  w.rmt_jetty_or_seg_id = 0x12345;
  w.rmt_token_value = 0xDEADBEEF;
  w.remote_va = 0x1122334455667788ull;
  w.len = 512;
  w.local_va = 0x99AABBCCDDEEFF00ull;
  uint8_t b[64];
  encode(w, b);
  const uint64_t q0 = qword(b, 0);
  EXPECT_EQ(q0 & 0xFFFF, 0x1234u);              // sqe_bb_idx[15:0]
  EXPECT_EQ((q0 >> 16) & 0xFF, 0x22u);          // flag: cqe b5 | odr SO
  EXPECT_EQ((q0 >> 28) & 1, 1u);                // token_en
  EXPECT_EQ((q0 >> 29) & 3, 1u);                // rmt_jetty_type
  EXPECT_EQ((q0 >> 31) & 1, 1u);                // owner
  EXPECT_EQ((q0 >> 40) & 0xFF, uint64_t{kWrite});  // DW1 opcode[15:8]
  const uint64_t q1 = qword(b, 1);
  EXPECT_EQ(q1 & 0xFFFFFF, 0xABCDEFu);          // tp_id
  EXPECT_EQ((q1 >> 24) & 0xFF, 1u);             // sge_num
  EXPECT_EQ((q1 >> 32) & 0xFFFFF, 0x12345u);    // rmt_jetty_or_seg_id
  EXPECT_EQ(qword(b, 4) & 0xFFFFFFFF, 0xDEADBEEFu);
  EXPECT_EQ(qword(b, 5), 0x1122334455667788ull);
  uint32_t len;
  std::memcpy(&len, b + 48, 4);
  EXPECT_EQ(len, 512u);                         // SGE at byte 48
  EXPECT_EQ(qword(b, 7), 0x99AABBCCDDEEFF00ull);
  const Wqe d = decode(b, nullptr);
  EXPECT_EQ(d.opcode, kWrite);
  EXPECT_TRUE(d.wants_cqe());
  EXPECT_EQ(d.ordering(), kOdrStrong);
  EXPECT_EQ(d.tp_id, 0xABCDEFu);
  EXPECT_EQ(d.remote_va, w.remote_va);
  EXPECT_EQ(d.local_va, w.local_va);
  EXPECT_EQ(d.len, 512u);
}

TEST(WqeLayout, WriteWithNotifyTakesTwoBlocksAndSplitsAcrossRingEnd) {
  Wqe w;
  w.opcode = kWriteWithNotify;
  w.notify_addr = 0x1000;
  w.notify_data = 7;
  w.len = 64;
  w.local_va = 0x2000;
  EXPECT_EQ(bb_count(kWriteWithNotify), 2u);
  uint8_t b[128];
  encode(w, b);
  EXPECT_EQ(qword(b, 7), 0x1000u);  // notify_addr at byte 56
  EXPECT_EQ(qword(b, 8), 7u);       // notify_data at byte 64
  uint32_t len;
  std::memcpy(&len, b + 80, 4);     // SGE after the 32 B notify block
  EXPECT_EQ(len, 64u);
  // The second block may sit elsewhere (the ring wrapped): decode takes it separately.
  uint8_t second[64];
  std::memcpy(second, b + 64, 64);
  const Wqe d = decode(b, second);
  EXPECT_EQ(d.notify_addr, 0x1000u);
  EXPECT_EQ(d.notify_data, 7u);
  EXPECT_EQ(d.local_va, 0x2000u);
  EXPECT_EQ(d.len, 64u);
}

TEST(WqeLayout, CqeOwnerAndStatusBits) {
  Cqe c;
  c.owner = true;
  c.status = 0x12;
  c.substatus = 0x34;
  c.entry_idx = 0xBEEF;
  c.tpn = 0x123456;
  c.byte_cnt = 4096;
  uint8_t b[64];
  encode(c, b);
  uint32_t dw0;
  std::memcpy(&dw0, b, 4);
  EXPECT_EQ((dw0 >> 2) & 1, 1u);     // owner: DW0 bit 2
  EXPECT_EQ(dw0 >> 24, 0x12u);       // status: bits 31:24
  EXPECT_EQ((dw0 >> 16) & 0xFF, 0x34u);  // substatus: 23:16
  EXPECT_TRUE(cqe_owner(b));
  EXPECT_EQ(read_cqe_status(b), 0x12);
  EXPECT_EQ(read_cqe_substatus(b), 0x34);
  EXPECT_EQ(read_cqe_entry_idx(b), 0xBEEF);
  const Cqe d = decode_cqe(b);
  EXPECT_EQ(d.entry_idx, 0xBEEF);
  EXPECT_EQ(d.tpn, 0x123456u);
  EXPECT_EQ(d.byte_cnt, 4096u);
  EXPECT_FALSE(d.ok());
}

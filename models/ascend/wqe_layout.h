// The UDMA work-queue element and completion entry as bytes in HBM, in the CANN SHMEM layout
// (docs/udma-layout.md): a 64 B WQE basic block (WQEBB) holding a 48 B SQE control header and a
// 16 B SGE; WRITE_WITH_NOTIFY, FAA and CAS take two WQEBBs. Kernels write these bytes; the
// engine parses them. Nothing else passes between them.
#pragma once
#include <array>
#include <cstdint>
#include <cstring>

namespace symsim::udma {

constexpr uint32_t kWqebbBytes = 64;
constexpr uint32_t kSqeBytes = 48;
constexpr uint32_t kSgeBytes = 16;
constexpr uint32_t kNotifyBytes = 32;
constexpr uint32_t kCqeBytes = 64;
constexpr uint32_t kMaxRequestBytes = 256u << 20;  // 256 MB per request

enum Opcode : uint8_t {
  kSend = 0,
  kSendImm = 1,
  kSendInv = 2,
  kWrite = 3,
  kWriteImm = 4,
  kWriteWithNotify = 5,
  kRead = 6,
  kCas = 7,
  kAtomicSwap = 8,
  kAtomicStore = 9,
  kAtomicLoad = 10,
  kFaa = 0x0b,
  kWriteWithReduce = 0x10,  // pseudo opcode: sent as WRITE with the UDF flag
  kNop = 0x11,
};

// Flag byte (SQE bits 23:16): odr[2:0], fence b3, se b4, cqe b5, udf b7.
namespace flag {
constexpr uint8_t kOdrMask = 0x07;
constexpr uint8_t kFence = 0x08;
constexpr uint8_t kSe = 0x10;
constexpr uint8_t kCqe = 0x20;
constexpr uint8_t kUdf = 0x80;
}  // namespace flag

constexpr uint8_t kOdrNone = 0;     // NO: no ordering
constexpr uint8_t kOdrRelaxed = 1;  // RO (value assumed: not in the public sources)
constexpr uint8_t kOdrStrong = 2;   // SO

// Reduce fields of a WRITE with the UDF flag (WRITE_WITH_REDUCE): what CANN SHMEM's float
// atomic add sends. Other codes are not in the public sources.
constexpr uint8_t kReduceOpAdd = 0xA;
constexpr uint8_t kReduceTypeFp32 = 0x7;

// Bytes of an FAA/CAS operand for a request of `len` bytes (4 or 8; anything else reads 8).
constexpr uint32_t atomic_width(uint32_t len) { return len == 4 ? 4 : 8; }

// Number of WQEBBs an opcode occupies.
constexpr uint32_t bb_count(uint8_t opcode) {
  return (opcode == kFaa || opcode == kCas || opcode == kWriteWithNotify) ? 2 : 1;
}

using Eid = std::array<uint8_t, 16>;

// A decoded SQE + SGE (+ notify / atomic operands).
struct Wqe {
  uint16_t sqe_bb_idx = 0;
  uint8_t flags = 0;
  bool token_en = false;
  uint8_t rmt_jetty_type = 1;
  bool owner = false;
  uint8_t target_hint = 0;
  uint8_t opcode = kWrite;
  uint32_t tp_id = 0;        // 24 bits
  uint8_t sge_num = 1;
  uint32_t rmt_jetty_or_seg_id = 0;  // 20 bits
  Eid rmt_eid{};
  uint32_t rmt_token_value = 0;
  uint8_t udf_type = 0;
  uint8_t reduce_data_type = 0;  // 4 bits
  uint8_t reduce_opcode = 0;     // 4 bits
  uint64_t remote_va = 0;
  // SGE
  uint32_t len = 0;
  uint32_t sge_token_id = 0;
  uint64_t local_va = 0;
  // WRITE_WITH_NOTIFY
  uint32_t notify_token_id = 0;  // 20 bits
  uint32_t notify_token_value = 0;
  uint64_t notify_addr = 0;
  uint64_t notify_data = 0;
  // FAA addend / CAS swap value at byte 64, CAS compare value after it (operand width =
  // atomic_width(len)); the old value returns to the SGE's local address.
  uint64_t atomic_operand = 0;
  uint64_t atomic_compare = 0;

  bool wants_cqe() const { return (flags & flag::kCqe) != 0; }
  uint8_t ordering() const { return flags & flag::kOdrMask; }
  bool fenced() const { return (flags & flag::kFence) != 0; }
};

// Writes `w` as bb_count(w.opcode) * 64 bytes at `out`.
void encode(const Wqe& w, uint8_t* out);
// Parses the WQE whose first WQEBB is `first` and (if any) second is `second` (inline, below).
inline Wqe decode(const uint8_t* first, const uint8_t* second);
// The opcode of a WQE from its first WQEBB alone (to know how many WQEBBs to fetch).
uint8_t peek_opcode(const uint8_t* first);

// A decoded completion queue entry.
struct Cqe {
  bool s_r = false;
  bool is_jetty = true;
  bool owner = false;
  bool inline_en = false;
  uint8_t opcode = 0;  // 3 bits
  bool fd = false;
  uint8_t substatus = 0;
  uint8_t status = 0;
  uint16_t entry_idx = 0;
  uint32_t local_num = 0;  // 20 bits
  uint32_t rmt_idx = 0;    // 20 bits
  uint32_t tpn = 0;        // 24 bits
  uint32_t byte_cnt = 0;
  uint64_t user_data = 0;
  std::array<uint32_t, 4> rmt_eid{};
  uint64_t data = 0;

  bool ok() const { return status == 0 && substatus == 0; }
};

inline void encode(const Cqe& c, uint8_t* out);  // inline, below
Cqe decode_cqe(const uint8_t* in);
// DW0 bit 2: the owner bit pollers test.
inline bool cqe_owner(const uint8_t* in) { return (in[0] >> 2) & 1; }
// What a poller reads of a ready CQE, without decoding the rest: DW0 bits 31:24 (status) and
// 23:16 (substatus), DW1 bits 15:0 (the SQ index after the WQE).
inline uint8_t read_cqe_status(const uint8_t* in) { return in[3]; }
inline uint8_t read_cqe_substatus(const uint8_t* in) { return in[2]; }
inline uint16_t read_cqe_entry_idx(const uint8_t* in) { return static_cast<uint16_t>(in[4] | in[5] << 8); }

// CQE status values the engine writes (the public sources define only 0 = success).
namespace cqe_status {
constexpr uint8_t kSuccess = 0;
constexpr uint8_t kLocalError = 0x01;
constexpr uint8_t kRemoteAccess = 0x02;  // substatus says which check failed
constexpr uint8_t kFlushed = 0x05;       // QP in error state: later WQEs flushed
}  // namespace cqe_status
namespace cqe_substatus {
constexpr uint8_t kNone = 0;
constexpr uint8_t kTokenMismatch = 0x01;
constexpr uint8_t kBadRemoteAddr = 0x02;
constexpr uint8_t kBadLocalAddr = 0x03;
constexpr uint8_t kBadOpcode = 0x04;
constexpr uint8_t kUnreachable = 0x05;
constexpr uint8_t kBadLength = 0x06;  // an atomic of another width than 4 or 8 bytes
}  // namespace cqe_substatus


// decode and the CQE's encode are inline: the engine calls each once per WQE, and inlined there
// the fields it never reads are neither parsed nor stored.
namespace wqe_detail {

inline uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline void store64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }
inline uint32_t load32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline void store32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }

constexpr uint64_t bits(uint64_t v, unsigned lo, unsigned width) {
  return (v >> lo) & ((width == 64 ? 0 : (uint64_t{1} << width)) - 1);
}
constexpr uint64_t field(uint64_t v, unsigned lo, unsigned width) {
  return (v & ((uint64_t{1} << width) - 1)) << lo;
}

// Byte offset of the SGE within the WQE.
inline uint32_t sge_offset(uint8_t opcode) { return opcode == kWriteWithNotify ? kSqeBytes + kNotifyBytes : kSqeBytes; }

}  // namespace wqe_detail

inline Wqe decode(const uint8_t* first, const uint8_t* second) {
  using namespace wqe_detail;
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

inline void encode(const Cqe& c, uint8_t* out) {
  using namespace wqe_detail;
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

}  // namespace symsim::udma

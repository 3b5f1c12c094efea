// The bytes a GPU thread writes for the NIC and the NIC writes back, in the mlx5 layout the
// IBGDA / DOCA GPUNetIO device code uses: 64 B WQE basic blocks (WQEBBs) made of 16 B segments
// (ctrl, remote address, data or inline data, atomic), big-endian fields; 64 B CQEs with the
// WQE counter and an owner/opcode byte. Shared by the NIC model (which parses them) and tests.
#pragma once
#include <cstdint>
#include <cstring>

namespace symsim::nv::mlx5 {

constexpr uint32_t kWqebbBytes = 64;
constexpr uint32_t kSegBytes = 16;
constexpr uint32_t kCqeBytes = 64;

// Opcodes (low byte of opmod_idx_opcode).
constexpr uint8_t kOpNop = 0x00;
constexpr uint8_t kOpRdmaWrite = 0x08;
constexpr uint8_t kOpRdmaWriteImm = 0x09;
constexpr uint8_t kOpRdmaRead = 0x10;
constexpr uint8_t kOpAtomicCs = 0x11;
constexpr uint8_t kOpAtomicFa = 0x12;
constexpr uint8_t kOpAtomicMaskedFa = 0x15;
// opmod of a masked atomic on a 4-byte word (DeepEP's 0x08000000 extended atomic size).
constexpr uint8_t kOpmodAtomic4B = 0x08;
// fm_ce_se: ask for a CQE.
constexpr uint8_t kCeCqUpdate = 0x08;
// byte_count flag of an inline data segment.
constexpr uint32_t kInlineSeg = 0x80000000u;
// CQE opcodes (high nibble of op_own).
constexpr uint8_t kCqeReq = 0x0;
constexpr uint8_t kCqeReqErr = 0xd;
constexpr uint8_t kCqeInvalid = 0xf;
// Error syndromes.
constexpr uint8_t kSyndLocalQpOpErr = 0x02;
constexpr uint8_t kSyndWrFlushErr = 0x05;
constexpr uint8_t kSyndRemoteAccessErr = 0x13;
constexpr uint8_t kSyndRemoteOpErr = 0x14;

// CQE field offsets.
constexpr uint32_t kCqeByteCnt = 44;
constexpr uint32_t kCqeSyndrome = 55;
constexpr uint32_t kCqeQpn = 56;
constexpr uint32_t kCqeWqeCounter = 60;
constexpr uint32_t kCqeOpOwn = 63;

inline uint16_t bswap16(uint16_t v) { return static_cast<uint16_t>((v >> 8) | (v << 8)); }
inline uint32_t bswap32(uint32_t v) { return __builtin_bswap32(v); }
inline uint64_t bswap64(uint64_t v) { return __builtin_bswap64(v); }

inline uint32_t be32_at(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return bswap32(v);
}
inline uint64_t be64_at(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return bswap64(v);
}
inline uint16_t be16_at(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return bswap16(v);
}
inline void put_be32(uint8_t* p, uint32_t v) {
  v = bswap32(v);
  std::memcpy(p, &v, 4);
}
inline void put_be64(uint8_t* p, uint64_t v) {
  v = bswap64(v);
  std::memcpy(p, &v, 8);
}
inline void put_be16(uint8_t* p, uint16_t v) {
  v = bswap16(v);
  std::memcpy(p, &v, 2);
}

// The control segment's fields.
struct Ctrl {
  uint8_t opmod = 0;
  uint16_t wqe_index = 0;
  uint8_t opcode = 0;
  uint32_t qpn = 0;
  uint8_t ds = 0;  // 16 B segments in the WQE
  uint8_t fm_ce_se = 0;
  uint32_t imm = 0;
};

inline Ctrl parse_ctrl(const uint8_t* seg) {
  Ctrl c;
  const uint32_t w0 = be32_at(seg), w1 = be32_at(seg + 4);
  c.opmod = static_cast<uint8_t>(w0 >> 24);
  c.wqe_index = static_cast<uint16_t>(w0 >> 8);
  c.opcode = static_cast<uint8_t>(w0);
  c.qpn = w1 >> 8;
  c.ds = static_cast<uint8_t>(w1 & 0x3f);
  c.fm_ce_se = seg[11];
  c.imm = be32_at(seg + 12);
  return c;
}

// WQEBBs a WQE of `ds` segments takes.
inline uint32_t wqebbs(uint32_t ds) { return (ds * kSegBytes + kWqebbBytes - 1) / kWqebbBytes; }

}  // namespace symsim::nv::mlx5

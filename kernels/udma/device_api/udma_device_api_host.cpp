// Host driver of udma_device_api (4 PEs): makes the teams, runs the kernel and checks every
// byte the kernel's calls moved (see the kernel's header for the layout).
#include <fmt/format.h>

#include <cstring>
#include <vector>

#include "kernels/udma/common/udma_host_common.h"
#include "kernels/registry/kernel_registry.h"

void launch_udma_device_api(void* stream, uint8_t* src, uint8_t* dst, uint8_t* got, int even, int row, int col);

namespace {

constexpr uint32_t kBytes = 8192;

template <typename T>
T at(const std::vector<uint8_t>& bytes, uint32_t offset) {
  T v;
  std::memcpy(&v, bytes.data() + offset, sizeof(T));
  return v;
}

// Bytes [begin, end) of `have` equal `want` at the same offsets; else where they differ.
std::string same_bytes(const std::vector<uint8_t>& have, const std::vector<uint8_t>& want, uint32_t begin,
                       uint32_t end) {
  for (uint32_t i = begin; i < end; ++i)
    if (have[i] != want[i]) return fmt::format("byte {} is {:#x}, want {:#x}", i, have[i], want[i]);
  return "";
}

void udma_device_api_host(int pe, const symsim::KernelArgs&) {
  aclrtStream stream = udma_example::setup(pe, 4u << 20, 1);
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(kBytes));
  auto* dst = static_cast<uint8_t*>(aclshmem_calloc(1, kBytes));
  auto* got = static_cast<uint8_t*>(aclshmem_calloc(1, kBytes));
  udma_example::fill_pattern(src, kBytes, pe, 0);
  aclshmem_team_t even = ACLSHMEM_TEAM_INVALID, row = ACLSHMEM_TEAM_INVALID, col = ACLSHMEM_TEAM_INVALID;
  const int split = aclshmem_team_split_strided(ACLSHMEM_TEAM_WORLD, 0, 2, 2, &even);
  const int split_2d = aclshmem_team_split_2d(ACLSHMEM_TEAM_WORLD, 2, &row, &col);
  symsim::check(split == ACLSHMEM_SUCCESS && split_2d == ACLSHMEM_SUCCESS, fmt::format("pe {}: teams split", pe),
                fmt::format("split_strided returned {}, split_2d {}", split, split_2d));
  symsim::check((even != ACLSHMEM_TEAM_INVALID) == (pe % 2 == 0) && aclshmem_team_n_pes(row) == 2 &&
                    aclshmem_team_my_pe(col) == pe / 2,
                fmt::format("pe {}: the host sees its teams", pe),
                fmt::format("even {}, row size {}, col rank {}", even, aclshmem_team_n_pes(row), aclshmem_team_my_pe(col)));
  // The strided calls stage in UB [16 KiB, 20 KiB), clear of the kernel's own buffers, on event 2.
  aclshmemx_set_mte_config(16384, 4096, 2);
  aclshmem_barrier_all();

  launch_udma_device_api(stream, src, dst, got, even, row, col);
  const aclError status = aclrtSynchronizeStream(stream);
  symsim::check(status == ACL_SUCCESS, fmt::format("pe {}: udma_device_api_kernel completed", pe),
                status == ACL_SUCCESS ? "" : fmt::format("aclrtSynchronizeStream returned {}", status));
  aclshmem_barrier_all();

  const int peer = pe ^ 1;
  std::vector<uint8_t> d(kBytes), g(kBytes), peer_src(kBytes), own_src(kBytes);
  aclrtMemcpy(d.data(), kBytes, dst, kBytes, ACL_MEMCPY_DEVICE_TO_HOST);
  aclrtMemcpy(g.data(), kBytes, got, kBytes, ACL_MEMCPY_DEVICE_TO_HOST);
  for (uint32_t i = 0; i < kBytes; ++i) {
    peer_src[i] = udma_example::pattern_byte(peer, 0, i);
    own_src[i] = udma_example::pattern_byte(pe, 0, i);
  }
  auto check = [&](bool ok, const std::string& what, const std::string& detail) {
    symsim::check(ok, fmt::format("pe {}: {}", pe, what), ok ? "" : detail);
  };
  check(at<int32_t>(d, 0) == 0x1000 + peer, "aclshmem_int32_p stored the peer's word",
        fmt::format("{:#x}", at<int32_t>(d, 0)));
  check(static_cast<float>(at<half>(d, 4)) == peer + 0.5f, "aclshmem_half_p stored the peer's half",
        fmt::format("{}", static_cast<float>(at<half>(d, 4))));
  check(static_cast<float>(at<bfloat16_t>(d, 8)) == 2.0f * peer + 0.25f, "aclshmem_bfloat16_p stored the peer's bf16",
        fmt::format("{}", static_cast<float>(at<bfloat16_t>(d, 8))));
  check(at<int32_t>(g, 0) == 0x1000 + pe, "aclshmem_int32_g read what this PE put", fmt::format("{:#x}", at<int32_t>(g, 0)));
  const std::string mte_put = same_bytes(d, peer_src, 1024, 2024) + same_bytes(d, std::vector<uint8_t>(kBytes), 2024, 3072);
  check(mte_put.empty(), "aclshmemx_mte_put_nbi (GM to GM) moved dst[1024, 2024) and nothing past it", mte_put);
  std::vector<uint8_t> shifted(kBytes);
  for (uint32_t i = 0; i < 1024; ++i) shifted[1024 + i] = peer_src[2048 + i];
  const std::string mte_get = same_bytes(g, shifted, 1024, 2048);
  check(mte_get.empty(), "aclshmemx_mte_get_nbi (GM to GM) read the peer's src[2048, 3072)", mte_get);
  const std::string ub2gm = same_bytes(d, peer_src, 3072, 3584);
  check(ub2gm.empty(), "aclshmemx_mte_put_nbi (UB to GM) moved dst[3072, 3584)", ub2gm);
  for (uint32_t i = 0; i < 256; ++i) shifted[3584 + i] = peer_src[3072 + i];
  const std::string generic_ub = same_bytes(d, shifted, 3584, 3840) + same_bytes(d, std::vector<uint8_t>(kBytes), 3840, 4096);
  check(generic_ub.empty(), "aclshmem_uint8_put_nbi from UB (ub2gm) moved dst[3584, 3840) and nothing past it",
        generic_ub);
  std::string iput, iget;
  for (uint32_t i = 0; i < 64 && iput.empty(); ++i) {
    const float want = at<float>(peer_src, 4096 + 4 * 3 * i), have = at<float>(d, 4096 + 4 * 2 * i);
    if (std::memcmp(&want, &have, 4) != 0) iput = fmt::format("element {}", i);
    if (i < 63 && at<uint32_t>(d, 4096 + 4 * (2 * i + 1)) != 0) iput = fmt::format("gap after element {}", i);
  }
  check(iput.empty(), "aclshmem_float_iput wrote every 2nd float from every 3rd", iput);
  for (uint32_t i = 0; i < 100 && iget.empty(); ++i)
    if (at<int16_t>(g, 5120 + 2 * i) != at<int16_t>(peer_src, 5120 + 2 * 2 * i)) iget = fmt::format("element {}", i);
  check(iget.empty(), "aclshmem_int16_iget read every 2nd int16 of the peer", iget);
  const std::string own = same_bytes(g, own_src, 3072, 3328);
  check(own.empty(), "aclshmem_putmem to this PE itself moved got[3072, 3328)", own);
  std::string detailed;
  for (uint32_t r = 0; r < 4; ++r)
    for (uint32_t j = 0; j < 12; ++j) {
      const int32_t have = at<int32_t>(g, 2048 + 4 * (12 * r + j));
      const int32_t want = j < 8 ? at<int32_t>(peer_src, 2048 + 4 * (16 * r + j)) : 0;
      if (have != want && detailed.empty() && !(r == 3 && j >= 8))
        detailed = fmt::format("row {} element {} is {:#x}, want {:#x}", r, j, have, want);
    }
  check(detailed.empty(), "aclshmem_int32_get (non-contiguous) read 4 rows of 8 int32", detailed);
  std::string signalled;
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t j = 0; j < 6; ++j) {
      const int16_t have = at<int16_t>(d, 5120 + 2 * (6 * r + j));
      const int16_t want = j < 4 ? at<int16_t>(peer_src, 5120 + 2 * (8 * r + j)) : 0;
      if (have != want && signalled.empty()) signalled = fmt::format("row {} element {} is {}, want {}", r, j, have, want);
    }
  if (at<int32_t>(d, 7700) != 9) signalled += fmt::format(" signal word {}", at<int32_t>(d, 7700));
  check(signalled.empty(), "aclshmem_int16_put_signal (non-contiguous) moved 2 rows of 4 int16, then set the signal",
        signalled);
  const std::string half_put = same_bytes(d, peer_src, 6144, 6400);
  check(half_put.empty(), "aclshmem_half_put_nbi moved dst[6144, 6400)", half_put);
  for (uint32_t i = 0; i < kBytes; ++i) shifted[i] = peer_src[i];
  const std::string bf16_get = same_bytes(g, shifted, 6144, 6400);
  check(bf16_get.empty(), "aclshmem_bfloat16_get read the peer's src[6144, 6400)", bf16_get);

  const bool member = pe % 2 == 0;
  const std::vector<int32_t> want = {member ? pe / 2 : -1, member ? 2 : -1, member ? 2 : -1, pe % 2, 2, pe / 2, 2,
                                     2 + pe % 2};
  std::string queries;
  for (uint32_t i = 0; i < want.size(); ++i)
    if (at<int32_t>(g, 7168 + 4 * i) != want[i])
      queries += fmt::format(" query {} is {}, want {};", i, at<int32_t>(g, 7168 + 4 * i), want[i]);
  check(queries.empty(), "the kernel's team queries", queries);
  if (member)
    check(at<int32_t>(g, 7680) == 7 + (2 - pe), "aclshmem_barrier(even) ordered the other even PE's store",
          fmt::format("{}", at<int32_t>(g, 7680)));
  aclshmem_team_destroy(even);
  aclshmem_team_destroy(row);
  aclshmem_team_destroy(col);
  udma_example::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(udma_device_api,
                       {"udma_device_api", "ascend",
                        "4 PEs exercise aclshmem_<T>_p/g, the MTE engine (GM to GM and UB to GM), iput/iget, half and "
                        "bfloat16 RMA, and split teams with a team barrier",
                        {},
                        1, udma_device_api_host});

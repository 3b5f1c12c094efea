// Host driver of udma_engines (the kernel's header says what each part does). Every PE checks
// every slot of `data` and its `gets` against the pattern its owner wrote, and the words and
// fetched values the part leaves; part 0 also checks aclshmem_team_get_config.
#include <fmt/format.h>

#include <cstring>
#include <string>
#include <vector>

#include "kernels/udma/common/udma_host_common.h"
#include "kernels/registry/kernel_registry.h"

void launch_udma_engines(void* stream, uint32_t blocks, uint8_t* data, uint8_t* gets, uint8_t* words, uint8_t* results,
                         uint32_t part, uint32_t bytes);

namespace {

std::vector<uint8_t> read_back(const uint8_t* device, uint64_t bytes) {
  std::vector<uint8_t> v(bytes);
  aclrtMemcpy(v.data(), bytes, device, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  return v;
}

template <typename T>
T word(const std::vector<uint8_t>& w, size_t offset) {
  T v;
  std::memcpy(&v, w.data() + offset, sizeof(T));
  return v;
}

void check_results(int pe, const uint8_t* results, const std::vector<uint64_t>& want, const char* part) {
  const std::vector<uint8_t> raw = read_back(results, want.size() * 8);
  for (size_t i = 0; i < want.size(); ++i) {
    const uint64_t got = word<uint64_t>(raw, i * 8);
    symsim::check(got == want[i], fmt::format("pe {}: {} result {} is {:#x}", pe, part, i, want[i]),
                  fmt::format("got {:#x}", got));
  }
}

void check_config(int pe) {
  aclshmem_team_config_t config;
  std::memset(&config, 0xAB, sizeof(config));
  const int ok = aclshmem_team_get_config(ACLSHMEM_TEAM_WORLD, &config);
  const aclshmem_team_config_t zero{};
  symsim::check(ok == ACLSHMEM_SUCCESS && std::memcmp(&config, &zero, sizeof(config)) == 0,
                fmt::format("pe {}: aclshmem_team_get_config(world) returns 0 and the all-zero config", pe),
                fmt::format("returned {}", ok));
  symsim::check(aclshmem_team_get_config(99, &config) == ACLSHMEM_INVALID_PARAM,
                fmt::format("pe {}: aclshmem_team_get_config of a team that is not live is ACLSHMEM_INVALID_PARAM", pe));
  symsim::check(aclshmem_team_get_config(ACLSHMEM_TEAM_WORLD, nullptr) == ACLSHMEM_INVALID_PARAM,
                fmt::format("pe {}: aclshmem_team_get_config with no config is ACLSHMEM_INVALID_PARAM", pe));
}

void udma_engines_host(int pe, const symsim::KernelArgs& a) {
  const auto part = static_cast<uint32_t>(a.u64("part"));
  const auto bytes = static_cast<uint32_t>(a.u64("bytes"));
  const auto blocks = static_cast<uint32_t>(a.blocks());
  aclrtStream stream = udma_example::setup(pe, 8 * uint64_t{bytes} + (4u << 20), 1);
  const int n = aclshmem_n_pes();
  auto* data = static_cast<uint8_t*>(aclshmem_calloc(n, bytes));
  auto* gets = static_cast<uint8_t*>(aclshmem_calloc(1, bytes));
  auto* words = static_cast<uint8_t*>(aclshmem_calloc(1, 64));
  auto* results = static_cast<uint8_t*>(aclshmem_calloc(16, sizeof(uint64_t)));
  udma_example::fill_pattern(data + uint64_t{bytes} * pe, bytes, pe, 0);
  aclshmem_barrier_all();
  launch_udma_engines(stream, blocks, data, gets, words, results, part, bytes);
  const aclError status = aclrtSynchronizeStream(stream);
  symsim::check(status == ACL_SUCCESS, fmt::format("pe {}: udma_engines_kernel part {} completed", pe, part),
                status == ACL_SUCCESS ? "" : fmt::format("aclrtSynchronizeStream returned {}", status));
  aclshmem_barrier_all();
  const int next = (pe + 1) % n;
  if (part <= 1) {
    for (int owner = 0; owner < n; ++owner) {
      const std::string diff = udma_example::compare_pattern(data + uint64_t{bytes} * owner, bytes, owner, 0);
      symsim::check(diff.empty(), fmt::format("pe {}: slot {} holds PE {}'s bytes", pe, owner, owner), diff);
    }
    const std::string diff = udma_example::compare_pattern(gets, bytes, next, 0);
    symsim::check(diff.empty(), fmt::format("pe {}: gets holds PE {}'s slot", pe, next), diff);
  }
  if (part == 0) check_config(pe);
  if (part == 1) check_results(pe, results, {1}, "aclshmem_roce_ptr is aclshmem_ptr");
  const std::vector<uint8_t> w = read_back(words, 64);
  if (part == 2 && pe == 0) check_results(pe, results, {6, 16, 17, 0xF00E, 0xF001, 0x01, 0, 42, 42}, "RoCE atomics");
  if (part == 2 && pe == 1) {
    symsim::check(word<int32_t>(w, 32) == 17, "pe 1: the int32 word ends at 17", fmt::format("{}", word<int32_t>(w, 32)));
    symsim::check(word<uint64_t>(w, 40) == 0x11, "pe 1: the uint64 word ends at 0x11",
                  fmt::format("{:#x}", word<uint64_t>(w, 40)));
    symsim::check(word<uint32_t>(w, 48) == 9, "pe 1: the uint32 word ends at 9", fmt::format("{}", word<uint32_t>(w, 48)));
  }
  if (part == 3) {
    const auto b = static_cast<int>(blocks);
    symsim::check(word<int8_t>(w, 0) == 3 * b, fmt::format("pe {}: int8 word is 3 x {} blocks", pe, b),
                  fmt::format("{}", word<int8_t>(w, 0)));
    symsim::check(word<int16_t>(w, 2) == 1000 * b, fmt::format("pe {}: int16 word is 1000 x {} blocks", pe, b),
                  fmt::format("{}", word<int16_t>(w, 2)));
    symsim::check(static_cast<float>(word<half>(w, 4)) == 0.5f * b, fmt::format("pe {}: half word is 0.5 x {} blocks", pe, b),
                  fmt::format("{}", static_cast<float>(word<half>(w, 4))));
    symsim::check(static_cast<float>(word<bfloat16_t>(w, 6)) == 0.25f * b,
                  fmt::format("pe {}: bfloat16 word is 0.25 x {} blocks", pe, b),
                  fmt::format("{}", static_cast<float>(word<bfloat16_t>(w, 6))));
    symsim::check(word<int32_t>(w, 8) == -7 * b, fmt::format("pe {}: int32 word is -7 x {} blocks", pe, b),
                  fmt::format("{}", word<int32_t>(w, 8)));
    symsim::check(word<float>(w, 12) == 1.5f * b, fmt::format("pe {}: float word is 1.5 x {} blocks", pe, b),
                  fmt::format("{}", word<float>(w, 12)));
    const int32_t sum = pe == 0 ? b * n * (n + 1) / 2 : 0;
    symsim::check(word<int32_t>(w, 32) == sum,
                  fmt::format("pe {}: the word every PE's blocks add my_pe + 1 to on PE 0 is {}", pe, sum),
                  fmt::format("{}", word<int32_t>(w, 32)));
  }
  if (part == 5) {
    const int prev = (pe + n - 1) % n;
    for (int owner : {pe, prev}) {
      const std::string diff = udma_example::compare_pattern(data + uint64_t{bytes} * owner, bytes, owner, 0);
      symsim::check(diff.empty(), fmt::format("pe {}: slot {} holds PE {}'s bytes (SIMT puts)", pe, owner, owner), diff);
    }
    const std::string diff = udma_example::compare_pattern(gets, bytes, prev, 0);
    symsim::check(diff.empty(), fmt::format("pe {}: gets holds PE {}'s slot (SIMT get)", pe, prev), diff);
    uint32_t first_word = 0;
    for (int i = 0; i < 4; ++i) first_word |= uint32_t{udma_example::pattern_byte(next, 0, i)} << (8 * i);
    check_results(pe, results, {first_word}, "simt aclshmem_int32_g of the next PE's first word");
    symsim::check(word<int32_t>(w, 32) == 1000 + prev, fmt::format("pe {}: the word PE {} put is {}", pe, prev, 1000 + prev),
                  fmt::format("{}", word<int32_t>(w, 32)));
  }
  if (part == 4 && pe == 0) check_results(pe, results, {1, 11, 12, 77, 88, 99, 0, 4}, "Ascend 950 MTE atomics");
  if (part == 4 && pe == 1) {
    symsim::check(word<int32_t>(w, 32) == 12, "pe 1: the int32 word ends at 12", fmt::format("{}", word<int32_t>(w, 32)));
    symsim::check(word<uint64_t>(w, 40) == 99, "pe 1: the uint64 word ends at 99", fmt::format("{}", word<uint64_t>(w, 40)));
  }
  udma_example::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(udma_engines,
                       {"udma_engines", "ascend",
                        "The SDMA and RoCE engines, MTE atomics and the Ascend 950 GM atomics through CANN SHMEM's "
                        "device calls; every byte and fetched value is checked",
                        {{"part", "0 SDMA, 1 RoCE, 2 RoCE atomics, 3 MTE atomic adds, 4 Ascend 950 MTE atomics, 5 SIMT", 0, 5, 0},
                         {"bytes", "bytes per PE slot (parts 0 and 1; a multiple of 64)", 64, 16 << 20, 65536}},
                        8, udma_engines_host});

// Host driver of udma_atomics: sets each word to its initial value, runs the script against
// the right neighbour, then checks the words the left neighbour changed here, the values this
// PE's atomics returned, the float sums, and (on every PE) that the contended counter on PE 0
// handed out each ticket exactly once.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/udma/common/udma_host_common.h"
#include "kernels/registry/kernel_registry.h"
#include "kernels/udma/atomics/udma_atomic_script.h"

void launch_udma_atomics(uint32_t block_dim, void* stream, uint8_t* words, uint8_t* floats, uint8_t* counter,
                         uint8_t* results, uint8_t* tickets, uint32_t type, uint32_t contend);

namespace {

using namespace udma_atomic_script;

template <typename T>
void put_initial(uint8_t* words) {
  std::vector<uint8_t> host(SLOTS * WORD_STRIDE, 0);
  for (uint32_t s = 0; s < SLOTS; ++s) {
    const T v = initial<T>(s);
    std::memcpy(host.data() + s * WORD_STRIDE, &v, sizeof(T));
  }
  aclrtMemcpy(words, host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE);
}

template <typename T>
std::string describe(T v) {
  return fmt::format("{}", v);
}

template <typename T>
void check_script(int pe, const char* type_name, uint8_t* words, uint8_t* results) {
  std::vector<uint8_t> w(SLOTS * WORD_STRIDE), r(RESULTS * sizeof(T));
  aclrtMemcpy(w.data(), w.size(), words, w.size(), ACL_MEMCPY_DEVICE_TO_HOST);
  aclrtMemcpy(r.data(), r.size(), results, r.size(), ACL_MEMCPY_DEVICE_TO_HOST);
  auto word = [&](uint32_t s) { T v; std::memcpy(&v, w.data() + s * WORD_STRIDE, sizeof(T)); return v; };
  auto ret = [&](uint32_t i) { T v; std::memcpy(&v, r.data() + i * sizeof(T), sizeof(T)); return v; };
  const T p = bits<T>(PATTERN), m = bits<T>(MASK);
  const struct {
    const char* what;
    T got, want;
  } checks[] = {
      {"add", word(ADD), static_cast<T>(initial<T>(ADD) + add_operand<T>())},
      {"inc", word(INC), static_cast<T>(initial<T>(INC) + 1)},
      {"fetch_add word", word(FETCH_ADD), static_cast<T>(initial<T>(FETCH_ADD) + fetch_add_operand<T>())},
      {"fetch_add returned", ret(R_FETCH_ADD), initial<T>(FETCH_ADD)},
      {"fetch_inc word", word(FETCH_INC), static_cast<T>(initial<T>(FETCH_INC) + 1)},
      {"fetch_inc returned", ret(R_FETCH_INC), initial<T>(FETCH_INC)},
      {"fetch word", word(FETCH), initial<T>(FETCH)},
      {"fetch returned", ret(R_FETCH), initial<T>(FETCH)},
      {"compare_swap word", word(COMPARE_SWAP), cas_value<T>()},
      {"compare_swap (hit) returned", ret(R_CAS_HIT), initial<T>(COMPARE_SWAP)},
      {"compare_swap (miss) returned", ret(R_CAS_MISS), cas_value<T>()},
      {"swap word", word(SWAP), swap_value<T>()},
      {"swap returned", ret(R_SWAP), initial<T>(SWAP)},
      {"fetch_and word", word(FETCH_AND), static_cast<T>(p & m)},
      {"fetch_and returned", ret(R_FETCH_AND), p},
      {"fetch_or word", word(FETCH_OR), static_cast<T>(p | m)},
      {"fetch_or returned", ret(R_FETCH_OR), p},
      {"fetch_xor word", word(FETCH_XOR), static_cast<T>(p ^ m)},
      {"fetch_xor returned", ret(R_FETCH_XOR), p},
      {"set word", word(SET), set_value<T>()},
      {"and word", word(AND), static_cast<T>(p & m)},
      {"or word", word(OR), static_cast<T>(p | m)},
      {"xor word", word(XOR), static_cast<T>(p ^ m)},
  };
  for (const auto& c : checks)
    symsim::check(c.got == c.want, fmt::format("pe {}: atomic {} ({}) = {}", pe, c.what, type_name, describe(c.want)),
                  c.got == c.want ? "" : fmt::format("got {}", describe(c.got)));
}

void udma_atomics_host(int pe, const symsim::KernelArgs& a) {
  const auto type = static_cast<uint32_t>(a.u64("type"));
  const auto contend = static_cast<uint32_t>(a.u64("contend"));
  aclrtStream stream = udma_example::setup(pe, 8u << 20, 1);
  auto* words = static_cast<uint8_t*>(aclshmem_malloc(SLOTS * WORD_STRIDE));
  auto* floats = static_cast<uint8_t*>(aclshmem_malloc(2 * sizeof(float)));
  auto* counter = static_cast<uint8_t*>(aclshmem_calloc(1, sizeof(uint64_t)));
  auto* tickets = static_cast<uint8_t*>(aclshmem_malloc(std::max<uint32_t>(contend, 1) * 8));
  uint8_t* results = nullptr;
  aclrtMalloc(reinterpret_cast<void**>(&results), RESULTS * 8, ACL_MEM_MALLOC_HUGE_FIRST);
  switch (type) {
    case 0: put_initial<int32_t>(words); break;
    case 1: put_initial<uint32_t>(words); break;
    case 2: put_initial<int64_t>(words); break;
    default: put_initial<uint64_t>(words); break;
  }
  aclrtMemcpy(floats, sizeof(FLOAT_INITIAL), FLOAT_INITIAL, sizeof(FLOAT_INITIAL), ACL_MEMCPY_HOST_TO_DEVICE);
  aclshmem_barrier_all();

  launch_udma_atomics(1, stream, words, floats, counter, results, tickets, type, contend);
  const aclError status = aclrtSynchronizeStream(stream);
  symsim::check(status == ACL_SUCCESS, fmt::format("pe {}: udma_atomics_kernel completed", pe),
                status == ACL_SUCCESS ? "" : fmt::format("aclrtSynchronizeStream returned {}", status));
  aclshmem_barrier_all();

  switch (type) {
    case 0: check_script<int32_t>(pe, "int32", words, results); break;
    case 1: check_script<uint32_t>(pe, "uint32", words, results); break;
    case 2: check_script<int64_t>(pe, "int64", words, results); break;
    default: check_script<uint64_t>(pe, "uint64", words, results); break;
  }
  float f[2];
  aclrtMemcpy(f, sizeof(f), floats, sizeof(f), ACL_MEMCPY_DEVICE_TO_HOST);
  const float want_add = FLOAT_INITIAL[0] + FLOAT_ADDEND, want_inc = FLOAT_INITIAL[1] + 1.0f;
  symsim::check(f[0] == want_add, fmt::format("pe {}: atomic add (float) = {}", pe, want_add), fmt::format("got {}", f[0]));
  symsim::check(f[1] == want_inc, fmt::format("pe {}: atomic inc (float) = {}", pe, want_inc), fmt::format("got {}", f[1]));

  // The contended counter: PE 0 reads every PE's tickets; together they must be exactly
  // 0 .. n * contend - 1, each handed out once, and the counter must end at n * contend.
  if (pe == 0) {
    const uint64_t total = uint64_t{contend} * aclshmem_n_pes();
    std::vector<uint64_t> all(total);
    for (int p = 0; p < aclshmem_n_pes() && contend; ++p)
      aclrtMemcpy(all.data() + uint64_t{contend} * p, contend * 8, aclshmem_ptr(tickets, p), contend * 8,
                  ACL_MEMCPY_DEVICE_TO_HOST);
    std::sort(all.begin(), all.end());
    uint64_t first_wrong = total;
    for (uint64_t i = 0; i < total && first_wrong == total; ++i)
      if (all[i] != i) first_wrong = i;
    symsim::check(first_wrong == total,
                  fmt::format("pe 0: {} contended fetch_add(1) returned each of 0..{} once", total, total - 1),
                  first_wrong == total ? "" : fmt::format("sorted ticket {} is {}", first_wrong, all[first_wrong]));
    uint64_t count = 0;
    aclrtMemcpy(&count, 8, counter, 8, ACL_MEMCPY_DEVICE_TO_HOST);
    symsim::check(count == total, fmt::format("pe 0: contended counter reached {}", total), fmt::format("got {}", count));
  }
  aclshmem_barrier_all();
  udma_example::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(udma_atomics,
                       {"udma_atomics", "ascend",
                        "all 14 UDMA atomics against the right neighbour (returned values and words checked), float "
                        "add/inc, and contended fetch_add on PE 0",
                        {{"type", "integer type: 0 int32, 1 uint32, 2 int64, 3 uint64", 0, 3, 0},
                         {"contend", "fetch_add(1) per PE on PE 0's counter", 0, 4096, 4}},
                        1, udma_atomics_host});

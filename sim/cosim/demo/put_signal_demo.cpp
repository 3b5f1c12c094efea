// A CANN-style host program, as a user writes it for hardware: initialise ACL and SHMEM,
// allocate symmetric memory, copy a pattern in, launch the put-with-signal kernel, copy the
// results back, check them, finalise. One process per PE; the rank comes from the launcher
// (mpirun: OMPI_COMM_WORLD_RANK; `symsim launch`: the same variables).
//
//   symsim launch -n 2 symsim-cosim-demo [BYTES [ROUNDS]]
//
// It makes the same calls in the same order as the in-process driver of udma_put_signal, so
// its simulated timeline matches `symsim run scenarios/udma/udma_put_signal_2pe.json`.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "shmem.h"

// The kernel's launch wrapper (its ACLRT_LAUNCH_KERNEL call), from the kernel's build.
void launch_udma_put_signal(uint32_t block_dim, void* stream, uint8_t* dst, uint8_t* src, uint8_t* seen,
                            uint8_t* sig, uint64_t bytes, uint64_t rounds);

namespace {

int env_int(const char* a, const char* b, int fallback) {
  for (const char* name : {a, b})
    if (const char* v = std::getenv(name); v && *v) return std::atoi(v);
  return fallback;
}

uint8_t pattern(int pe, uint64_t round, uint64_t i) {
  return static_cast<uint8_t>(pe * 131 + round * 17 + i * 7 + (i >> 9));
}

#define CHECK_ACL(call)                                               \
  do {                                                                \
    const int rc_ = (call);                                           \
    if (rc_ != 0) {                                                   \
      std::fprintf(stderr, "pe %d: %s failed: %d\n", pe, #call, rc_); \
      return 2;                                                       \
    }                                                                 \
  } while (0)

}  // namespace

int main(int argc, char** argv) {
  const uint64_t bytes = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 65536;
  const uint64_t rounds = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 4;
  const int pe = env_int("OMPI_COMM_WORLD_RANK", "RANK", 0);
  const int n_pes = env_int("OMPI_COMM_WORLD_SIZE", "WORLD_SIZE", 1);

  aclrtStream stream = nullptr;
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(pe));
  CHECK_ACL(aclrtCreateStream(&stream));
  aclshmemx_init_attr_t attr;
  attr.my_pe = pe;
  attr.n_pes = n_pes;
  attr.local_mem_size = 3 * bytes * rounds + (4u << 20);
  attr.option_attr.data_op_engine_type = ACLSHMEM_DATA_OP_UDMA;
  CHECK_ACL(aclshmemx_init_attr(ACLSHMEMX_INIT_WITH_DEFAULT, &attr));

  auto* dst = static_cast<uint8_t*>(aclshmem_malloc(bytes * rounds));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(bytes * rounds));
  auto* seen = static_cast<uint8_t*>(aclshmem_malloc(bytes * rounds));
  auto* sig = static_cast<uint8_t*>(aclshmem_calloc(1, sizeof(uint64_t)));
  if (!dst || !src || !seen || !sig) {
    std::fprintf(stderr, "pe %d: aclshmem_malloc failed\n", pe);
    return 2;
  }
  std::vector<uint8_t> host(bytes);
  for (uint64_t r = 0; r < rounds; ++r) {
    for (uint64_t i = 0; i < bytes; ++i) host[i] = pattern(pe, r, i);
    CHECK_ACL(aclrtMemcpy(src + r * bytes, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  }
  aclshmem_barrier_all();

  launch_udma_put_signal(1, stream, dst, src, seen, sig, bytes, rounds);
  CHECK_ACL(aclrtSynchronizeStream(stream));
  aclshmem_barrier_all();

  uint64_t signal = 0;
  CHECK_ACL(aclrtMemcpy(&signal, sizeof(signal), sig, sizeof(signal), ACL_MEMCPY_DEVICE_TO_HOST));
  const int from = (pe + n_pes - 1) % n_pes;
  uint64_t wrong = 0;
  for (uint64_t r = 0; r < rounds && wrong == 0; ++r) {
    CHECK_ACL(aclrtMemcpy(host.data(), bytes, seen + r * bytes, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint64_t i = 0; i < bytes; ++i) wrong += host[i] != pattern(from, r, i);
  }

  aclshmem_finalize();
  aclrtDestroyStream(stream);
  aclrtResetDevice(pe);
  aclFinalize();

  const bool ok = signal == rounds && wrong == 0;
  std::printf("pe %d: signal %llu of %llu, %llu wrong bytes: %s\n", pe,
              static_cast<unsigned long long>(signal), static_cast<unsigned long long>(rounds),
              static_cast<unsigned long long>(wrong), ok ? "OK" : "MISMATCH");
  return ok ? 0 : 1;
}

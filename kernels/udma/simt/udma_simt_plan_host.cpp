// Host driver of udma_simt_plan: checks the bytes the SIMT-planned batch moved, the squares
// read across the barrier, and the planning counter.
#include <fmt/format.h>

#include <vector>

#include "kernels/udma/common/udma_host_common.h"
#include "kernels/registry/kernel_registry.h"

void launch_udma_simt_plan(uint32_t block_dim, void* stream, uint8_t* dst, uint8_t* src, uint8_t* neighbour_squares,
                           uint8_t* planned, uint64_t bytes, uint32_t threads, uint32_t doorbell_in_vf);

namespace {

void udma_simt_plan_host(int pe, const symsim::KernelArgs& a) {
  const auto threads = static_cast<uint32_t>(a.u64("threads"));
  const uint64_t bytes = a.u64("chunk_bytes") * threads;
  aclrtStream stream = udma_example::setup(pe, 2 * bytes + (4u << 20), 1);
  auto* dst = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  auto* src = static_cast<uint8_t*>(aclshmem_malloc(bytes));
  uint8_t* squares = nullptr;
  uint8_t* planned = nullptr;
  aclrtMalloc(reinterpret_cast<void**>(&squares), threads * 8, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(reinterpret_cast<void**>(&planned), 64, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemset(planned, 64, 0, 64);
  udma_example::fill_pattern(src, bytes, pe, 0);
  aclshmem_barrier_all();

  launch_udma_simt_plan(1, stream, dst, src, squares, planned, bytes, threads,
                        static_cast<uint32_t>(a.u64("doorbell_in_vf")));
  const aclError status = aclrtSynchronizeStream(stream);
  symsim::check(status == ACL_SUCCESS, fmt::format("pe {}: udma_simt_plan_kernel completed", pe),
                status == ACL_SUCCESS ? "" : fmt::format("aclrtSynchronizeStream returned {}", status));
  aclshmem_barrier_all();

  std::vector<uint64_t> sq(threads);
  uint32_t count = 0;
  aclrtMemcpy(sq.data(), threads * 8, squares, threads * 8, ACL_MEMCPY_DEVICE_TO_HOST);
  aclrtMemcpy(&count, 4, planned, 4, ACL_MEMCPY_DEVICE_TO_HOST);
  uint32_t wrong = 0;
  for (uint32_t i = 0; i < threads; ++i) wrong += sq[i] != uint64_t{(i + 1) % threads} * ((i + 1) % threads);
  symsim::check(wrong == 0, fmt::format("pe {}: each of {} SIMT threads read its neighbour's square after the barrier",
                                        pe, threads),
                fmt::format("{} threads read a wrong value", wrong));
  symsim::check(count == threads, fmt::format("pe {}: {} SIMT atomicAdds on the GM counter", pe, threads),
                fmt::format("the counter is {}", count));
  const int from = (pe + aclshmem_n_pes() - 1) % aclshmem_n_pes();
  const std::string diff = udma_example::compare_pattern(dst, bytes, from, 0);
  symsim::check(diff.empty(), fmt::format("pe {}: {} bytes in {} SIMT-planned puts from pe {} match", pe, bytes,
                                          threads, from),
                diff);
  udma_example::teardown(stream);
}

}  // namespace

SYMSIM_REGISTER_KERNEL(udma_simt_plan,
                       {"udma_simt_plan", "ascend",
                        "SIMT threads (VF_CALL) plan one put per thread (atomicAdd/atomicOr in UB, barrier, 32 B "
                        "stores); scalar code posts them as one batch to the right neighbour",
                        {{"threads", "SIMT threads of the VF", 1, 1024, 128},
                         {"chunk_bytes", "bytes each thread's put moves", 1, 65536, 512},
                         {"doorbell_in_vf", "1: a SIMT thread calls st_dev (rejected)", 0, 1, 0}},
                        1, udma_simt_plan_host});

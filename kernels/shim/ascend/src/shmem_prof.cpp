// Kernel cycle profiling as CANN SHMEM offers it: the PE named by SHMEM_CYCLE_PROF_PE keeps,
// per block and frame, the cycles its SHMEMI_PROF_START/END windows took and their count;
// aclshmemx_get_prof hands them to that PE's host program.
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>

#include "kernel_operator.h"
#include "shmem_host.h"
#include "kernels/shim/ascend/src/world.h"

namespace symsim::shim {

namespace {

// The profiled PE (-1: none), from the environment as upstream reads it.
int prof_pe() {
  const char* env = std::getenv("SHMEM_CYCLE_PROF_PE");
  if (!env) return -1;
  const int pe = std::atoi(env);
  return pe >= 0 && pe < n_pes() ? pe : 0;
}

// One simulation per process: the profile of the profiled PE.
std::unique_ptr<aclshmem_prof_pe_t>& profile() {
  static std::unique_ptr<aclshmem_prof_pe_t> p;
  return p;
}

}  // namespace

void prof_mark(int64_t frame, bool end) {
  const int pe = my_pe();
  if (frame < 0 || frame >= ACLSHMEM_CYCLE_PROF_FRAME_CNT || pe != prof_pe()) return;
  const int64_t block = AscendC::GetBlockIdx();
  if (block >= ACLSHMEM_CYCLE_PROF_MAX_BLOCK) return;
  auto& p = profile();
  if (!p) {
    p = std::make_unique<aclshmem_prof_pe_t>();
    std::memset(p.get(), 0, sizeof(aclshmem_prof_pe_t));
    p->pe_id = pe;
  }
  pipe_barrier(PIPE_ALL);
  const auto cycle = static_cast<int64_t>(AscendC::GetSystemCycle());
  aclshmem_prof_block_t& b = p->block_prof[block];
  if (end) {
    b.cycles[frame] += cycle;
    b.ccount[frame] += 1;
  } else {
    b.cycles[frame] -= cycle;
  }
}

}  // namespace symsim::shim

void aclshmemx_get_prof(aclshmem_prof_pe_t** out_profs, bool verbose) {
  using namespace symsim::shim;
  const int pe = host().pe;
  auto& p = profile();
  if (pe != prof_pe() || !p) return;
  if (out_profs) *out_profs = p.get();
  if (!verbose) return;
  std::cout << std::left << std::setw(10) << "BlockID" << std::setw(10) << "FrameID" << std::setw(15) << "Cycles"
            << std::setw(15) << "Count" << "AvgTime(us)\n";
  for (int b = 0; b < ACLSHMEM_CYCLE_PROF_MAX_BLOCK; ++b)
    for (int f = 0; f < ACLSHMEM_CYCLE_PROF_FRAME_CNT; ++f) {
      const aclshmem_prof_block_t& blk = p->block_prof[b];
      if (blk.ccount[f] == 0) continue;
      std::cout << std::setw(10) << b << std::setw(10) << f << std::setw(15) << blk.cycles[f] << std::setw(15)
                << blk.ccount[f] << static_cast<double>(blk.cycles[f]) / blk.ccount[f] / 50.0 << "\n";
    }
}

void aclshmemx_show_prof() { aclshmemx_get_prof(nullptr, true); }

// Teams: the world team and those split from it (aclshmem_team_split_strided / split_2d), with
// their barriers. A team is a strided set of world PEs; its index is the same on every PE.
#pragma once
#include <systemc>

#include <cstdint>
#include <memory>
#include <vector>

#include "models/core/time.h"
#include "symsim/shim_core.h"

namespace symsim::shim {

struct Team {
  int start = 0, stride = 1, size = 0;  // world PEs start + i * stride, i < size
  bool live = false;
  // Device barrier over every block of the members' current launches.
  int arrived = 0;
  uint64_t generation = 0;
  Ps latest_ps = 0;
  sc_core::sc_event released;
  // Host barrier over the members' host programs.
  int hosts_arrived = 0;
  uint64_t host_generation = 0;
  sc_core::sc_event hosts_released;

  bool has(int world_pe) const {
    const int d = world_pe - start;
    return size > 0 && d >= 0 && d % stride == 0 && d / stride < size;
  }
  int rank_of(int world_pe) const { return has(world_pe) ? (world_pe - start) / stride : -1; }
  int world_of(int rank) const { return rank >= 0 && rank < size ? start + rank * stride : -1; }
  int destroyed = 0;  // members that called aclshmem_team_destroy
};

// Every team of the run, indexed as aclshmem_team_t (0: the world), and the splits that made
// them: the parent's PEs make the same splits in the same order, so the k-th split of each PE
// is the same split (made by the first PE to get there).
struct Teams {
  struct Split {
    int parent, start, stride, size;
    int x_range;             // split_2d; 0 for split_strided
    std::vector<int> teams;  // made: one, or split_2d's rows then columns (-1: did not fit)
  };
  std::vector<std::unique_ptr<Team>> list;
  std::vector<Split> splits;
  std::vector<size_t> made;  // per PE: splits it has made
};

// The live team `index` (world: ACLSHMEM_TEAM_WORLD), else null.
Team* find_team(int index);
// Host programs and kernels alike: the split collectives (aclshmem_team_split_strided / _2d),
// destroy, and the queries (-1 for a team that is not live or a PE outside it).
int team_split_strided(int parent, int start, int stride, int size, int* new_team);
int team_split_2d(int parent, int x_range, int* x_team, int* y_team);
void team_destroy(int index);
int team_rank(int index);
int team_size(int index);
int team_translate(int src_team, int src_pe, int dest_team);
// Every block of every member's launch arrives (the world team: the vector barrier); `hop_ps`:
// one dissemination round (0: aiv.barrier_hop_ns).
void team_device_barrier(int index, const char* api, CallSite site, Ps hop_ps = 0);
// Every member's host program arrives.
void team_host_barrier(int index, const char* api);

}  // namespace symsim::shim

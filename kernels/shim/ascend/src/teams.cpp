// Teams (teams.h): split collectives, queries and team barriers, for host programs and kernels.
#include "kernels/shim/ascend/src/teams.h"

#include <fmt/format.h>

#include <stdexcept>
#include <tuple>

#include "shmem_host.h"
#include "shmem_types.h"
#include "kernels/shim/ascend/src/world.h"

namespace symsim::shim {

namespace {

int rounds_for(int members) {
  int rounds = 1;
  while ((1 << rounds) < members) ++rounds;
  return rounds;
}

Teams& teams() {
  World& w = world();
  if (w.teams.list.empty()) {
    auto team = std::make_unique<Team>();
    team->size = n_pes();
    team->live = true;
    w.teams.list.push_back(std::move(team));
    w.teams.made.assign(static_cast<size_t>(n_pes()), 0);
  }
  return w.teams;
}

// A strided subset of `parent` (ranks start + i * stride, i < size) as a new team; -1 when it
// does not fit in the parent.
int make_team(const Team& parent, int start, int stride, int size) {
  if (size <= 0 || stride <= 0 || start < 0 || start + (size - 1) * stride >= parent.size) return -1;
  auto team = std::make_unique<Team>();
  team->start = parent.world_of(start);
  team->stride = stride * parent.stride;
  team->size = size;
  team->live = true;
  Teams& t = teams();
  t.list.push_back(std::move(team));
  return static_cast<int>(t.list.size()) - 1;
}

// The calling PE's next split: made by the first PE to get there, looked up by the others (the
// parent's PEs make the same splits in the same order).
const Teams::Split& next_split(const Teams::Split& wanted, const char* api) {
  Teams& t = teams();
  const int me = my_pe();
  size_t& k = t.made[static_cast<size_t>(me)];
  if (k == t.splits.size()) {
    Teams::Split s = wanted;
    const Team* parent = find_team(wanted.parent);
    if (parent && wanted.x_range == 0) {
      s.teams.push_back(make_team(*parent, wanted.start, wanted.stride, wanted.size));
    } else if (parent && wanted.x_range > 0) {  // split_2d: the rows, then the columns
      const int rows = (parent->size + wanted.x_range - 1) / wanted.x_range;
      for (int r = 0; r < rows; ++r)
        s.teams.push_back(make_team(*parent, r * wanted.x_range, 1, std::min(wanted.x_range, parent->size - r * wanted.x_range)));
      for (int c = 0; c < std::min(wanted.x_range, parent->size); ++c)
        s.teams.push_back(make_team(*parent, c, wanted.x_range, (parent->size - c + wanted.x_range - 1) / wanted.x_range));
    }
    t.splits.push_back(std::move(s));
  }
  const Teams::Split& s = t.splits[k++];
  if (std::tie(s.parent, s.start, s.stride, s.size, s.x_range) !=
      std::tie(wanted.parent, wanted.start, wanted.stride, wanted.size, wanted.x_range))
    throw std::runtime_error(fmt::format("{} on PE {}: split {} of the parent team differs from the one another PE "
                                         "made (team {}, start {}, stride {}, size {}, x_range {})",
                                         api, me, k - 1, s.parent, s.start, s.stride, s.size, s.x_range));
  return s;
}

// The team of `split` the calling PE belongs to, else ACLSHMEM_TEAM_INVALID.
int member_team(const std::vector<int>& candidates, size_t begin, size_t end) {
  for (size_t i = begin; i < end && i < candidates.size(); ++i) {
    const Team* t = find_team(candidates[i]);
    if (t && t->has(my_pe())) return candidates[i];
  }
  return ACLSHMEM_TEAM_INVALID;
}

}  // namespace

Team* find_team(int index) {
  Teams& t = teams();
  if (index < 0 || static_cast<size_t>(index) >= t.list.size() || !t.list[index]->live) return nullptr;
  return t.list[index].get();
}

void team_device_barrier(int index, const char* api, CallSite site, Ps hop_ps) {
  if (index == ACLSHMEM_TEAM_WORLD) return vector_barrier_all_at(site, api, hop_ps);
  World& w = world();
  AivCore& c = core();
  Team* team = find_team(index);
  if (!team || !team->has(c.pe()))
    trap(fmt::format("{}: {} on team {}, {}", where(site), api, index,
                     team ? fmt::format("which PE {} is not a member of", c.pe()) : std::string("not a live team")));
  BlockState& b = *w.blocks[c.pe()][c.core()];
  c.pipe_barrier(AivPipe::kAll);
  c.sync();
  int expected = 0;
  for (int r = 0; r < team->size; ++r) expected += static_cast<int>(w.launch_blocks[team->world_of(r)]);
  const uint64_t gen = team->generation;
  team->latest_ps = std::max(team->latest_ps, c.local_ps());
  if (++team->arrived == expected) {
    const Ps release =
        team->latest_ps + rounds_for(team->size) * (hop_ps ? hop_ps : ns_to_ps(w.sys->params().aiv_barrier_hop_ns));
    team->arrived = 0;
    team->latest_ps = 0;
    ++team->generation;
    team->released.notify(sc_core::sc_time::from_value(release - now_ps()));
    c.wait_until(release);
  } else {
    b.barrier_api = api;
    b.barrier_site = site;
    b.waiting_on = fmt::format("(team {}: {} of {} arrived)", index, team->arrived, expected);
    while (team->generation == gen) c.wait(team->released);
    b.waiting_on.clear();
  }
}

void team_host_barrier(int index, const char* api) {
  if (index == ACLSHMEM_TEAM_WORLD) return host_barrier(api);
  HostState& h = host();
  Team* team = find_team(index);
  if (!team || !team->has(h.pe))
    throw std::runtime_error(fmt::format("{} on team {} by the host program of PE {}, which is not a member", api,
                                         index, h.pe));
  const uint64_t gen = team->host_generation;
  if (++team->hosts_arrived == team->size) {
    team->hosts_arrived = 0;
    ++team->host_generation;
    team->hosts_released.notify(sc_core::SC_ZERO_TIME);
    sc_core::wait(sc_core::SC_ZERO_TIME);
  } else {
    h.waiting_on = fmt::format("host barrier of team {} in {}", index, api);
    while (team->host_generation == gen) sc_core::wait(team->hosts_released);
    h.waiting_on.clear();
  }
  current_exec() = &h.ctx;
}

int team_split_strided(int parent, int start, int stride, int size, int* new_team) {
  if (!new_team) return ACLSHMEM_INVALID_PARAM;
  Teams::Split wanted{parent, start, stride, size, 0, {}};
  const Teams::Split& s = next_split(wanted, "aclshmem_team_split_strided");
  *new_team = member_team(s.teams, 0, 1);
  return s.teams.empty() || s.teams[0] < 0 ? ACLSHMEM_INVALID_PARAM : ACLSHMEM_SUCCESS;
}

int team_split_2d(int parent, int x_range, int* x_team, int* y_team) {
  if (!x_team || !y_team || x_range <= 0) return ACLSHMEM_INVALID_PARAM;
  Teams::Split wanted{parent, 0, 0, 0, x_range, {}};
  const Teams::Split& s = next_split(wanted, "aclshmem_team_split_2d");
  const Team* p = find_team(parent);
  if (!p) return ACLSHMEM_INVALID_PARAM;
  const size_t rows = static_cast<size_t>((p->size + x_range - 1) / x_range);
  *x_team = member_team(s.teams, 0, rows);
  *y_team = member_team(s.teams, rows, s.teams.size());
  return ACLSHMEM_SUCCESS;
}

void team_destroy(int index) {
  if (index == ACLSHMEM_TEAM_WORLD) return;  // the world team outlives every split
  Team* t = find_team(index);
  if (t && t->has(my_pe()) && ++t->destroyed == t->size) t->live = false;  // collective over the members
}

int team_rank(int index) {
  const Team* t = find_team(index);
  return t ? t->rank_of(my_pe()) : -1;
}

int team_size(int index) {
  const Team* t = find_team(index);
  return t ? t->size : -1;
}

int team_translate(int src_team, int src_pe, int dest_team) {
  const Team* from = find_team(src_team);
  const Team* to = find_team(dest_team);
  if (!from || !to) return -1;
  const int world_pe = from->world_of(src_pe);
  return world_pe < 0 ? -1 : to->rank_of(world_pe);
}

}  // namespace symsim::shim

int aclshmem_team_split_strided(aclshmem_team_t parent_team, int pe_start, int pe_stride, int pe_size,
                                aclshmem_team_t* new_team) {
  return symsim::shim::team_split_strided(parent_team, pe_start, pe_stride, pe_size, new_team);
}
int aclshmem_team_split_2d(aclshmem_team_t parent_team, int x_range, aclshmem_team_t* x_team, aclshmem_team_t* y_team) {
  return symsim::shim::team_split_2d(parent_team, x_range, x_team, y_team);
}
void aclshmem_team_destroy(aclshmem_team_t team) { symsim::shim::team_destroy(team); }
int aclshmem_team_get_config(aclshmem_team_t team, aclshmem_team_config_t* config) {
  if (!config || !symsim::shim::find_team(team)) return ACLSHMEM_INVALID_PARAM;
  *config = aclshmem_team_config_t{};
  return ACLSHMEM_SUCCESS;
}

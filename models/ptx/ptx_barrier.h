// CTA barriers as the formal model (Dat3M's PTX front end) reads `bar.cta.sync a{, b{, c}}`:
// `a` is an instance id grouping the barrier instructions of one CTA, `b` an optional
// resource id (a register or a number) that must match for two threads to meet, and `c`
// an optional quorum. Without a quorum a barrier waits for every member of its group
// (members with a different resource id excepted); with one it waits until that many
// threads arrived with the same id. `bar.cta.arrive` never waits. Passing a barrier joins
// the views the partners had when they arrived (barriers order both ways).
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "models/ptx/ptx_program.h"
#include "models/ptx/ptx_view.h"

namespace symsim::ptx {

class Barriers {
 public:
  explicit Barriers(const Program& program);

  void arrive(int thread, size_t pc, int64_t resource_id, const View& view);
  bool can_pass(int thread, size_t pc, int64_t resource_id, int64_t quorum) const;
  // Join of the arrival views of the members that meet this one.
  View partners_view(int thread, size_t pc, int64_t resource_id) const;

 private:
  struct Member {
    int thread = 0;
    size_t pc = 0;
    const Instr* instr = nullptr;
    bool arrived = false;
    int64_t resource_id = 0;
    View view;
  };
  using GroupKey = std::tuple<int, int, bool>;  // cta uid, instance id, named
  struct Where {
    GroupKey group;
    size_t index;
  };

  const Where& find(int thread, size_t pc) const;
  bool meets(const Member& m, bool named, int64_t resource_id) const;

  std::map<GroupKey, std::vector<Member>> groups_;
  std::map<std::pair<int, size_t>, Where> where_;
};

}  // namespace symsim::ptx

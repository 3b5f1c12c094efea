// A hazard checker's registration: its name, family, the hazard ids it reports and how to
// build it. One SYMSIM_REGISTER_CHECKER line in the checker's own file is all a new checker
// adds to be built, switched by its ids, listed by `symsim list checkers|hazards` and accepted
// in a scenario's "checkers" and "expect.hazards".
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/catalog/hazard_id.h"
#include "sim/catalog/registry.h"

namespace symsim::catalog {

struct CheckerInfo {
  const char* name;  // the checker's file: "sq_overrun", "nvidia/nic_wqe"
  const char* family;
  std::vector<HazardId> ids;
  // Attach order within its family: when two checkers report on one WQE, the lower rank is
  // logged first, and the log folds the other into it as a consequence.
  int rank;
  const char* doc;
  std::pair<std::string, std::string> key() const { return {name, family}; }
};

// How a family builds a registered checker over its context.
template <typename Context, typename Base>
struct CheckerFactory {
  CheckerInfo info;
  std::unique_ptr<Base> (*make)(Context&);
  std::pair<int, std::string> key() const { return {info.rank, info.name}; }
};

template <typename Context, typename Base>
bool register_checker(CheckerInfo info, std::unique_ptr<Base> (*make)(Context&)) {
  Registry<CheckerInfo>::instance().add(info);
  return Registry<CheckerFactory<Context, Base>>::instance().add({std::move(info), make});
}

// A reporter that is not an observer (the hang diagnosis): listed, never built from here.
inline bool register_reporter(CheckerInfo info) { return Registry<CheckerInfo>::instance().add(std::move(info)); }

// Every registered checker and reporter, by name.
inline const std::vector<CheckerInfo>& checkers() { return Registry<CheckerInfo>::instance().all(); }

}  // namespace symsim::catalog

// In a checker's .cpp: SYMSIM_REGISTER_CHECKER(Class, Context, Base, "name", family, rank, "doc", kId...).
#define SYMSIM_REGISTER_CHECKER(Class, Context, Base, name, family, rank, doc, ...)                       \
  static const bool SYMSIM_CATALOG_UNIQUE(symsim_checker_registered_) = ::symsim::catalog::register_checker< \
      Context, Base>({name, family, {__VA_ARGS__}, rank, doc},                                              \
                     [](Context& c) -> std::unique_ptr<Base> { return std::make_unique<Class>(c); })

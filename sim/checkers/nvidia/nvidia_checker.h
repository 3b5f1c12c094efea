// The base of every NVIDIA hazard checker: an observer of the NVIDIA models' events
// (models/nvidia/nvidia_observer.h) reporting into the run's hazard log. Each checker is one
// .cpp in this folder that registers itself (SYMSIM_NVIDIA_CHECKER); NvidiaCheckerSet builds
// those whose hazard ids the scenario enables.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "sim/catalog/checker_registry.h"
#include "sim/checkers/hazard_log.h"
#include "models/nvidia/nvidia_observer.h"

namespace symsim {

struct NvidiaCheckerContext {
  HazardLog& log;
};

class NvidiaChecker : public nv::NvidiaObserver {
 public:
  explicit NvidiaChecker(NvidiaCheckerContext& ctx) : m_ctx(ctx) {}

 protected:
  // A hazard at WQE `wqe` (-1: none) of a NIC QP; `addr` named as reports name GPU memory.
  Hazard at_qp(const HazardId& id, const nv::NicQpView& q, int64_t wqe, uint64_t addr, Ps t, std::string detail) const;
  NvidiaCheckerContext& m_ctx;
};

class NvidiaCheckerSet {
 public:
  explicit NvidiaCheckerSet(HazardLog& log);
  void attach(Hooks& hooks);

 private:
  NvidiaCheckerContext m_ctx;
  std::vector<std::unique_ptr<NvidiaChecker>> m_checkers;
};

}  // namespace symsim

// Registers an NVIDIA checker (built over NvidiaCheckerContext) in its own .cpp.
#define SYMSIM_NVIDIA_CHECKER(Class, name, rank, doc, ...)                                                    \
  SYMSIM_REGISTER_CHECKER(Class, ::symsim::NvidiaCheckerContext, ::symsim::NvidiaChecker, name, \
                          ::symsim::family::kNvidia, rank, doc, __VA_ARGS__)

// Platform families: what a preset's "family" selects, and everything the one runner
// (runner/runner.h) needs to know about a family. A family declares its parameter table (the
// keys a preset must set, with ranges), the parameter that bounds kernel.blocks and those that
// must be powers of two, and builds the system one scenario runs on (FamilySimulation).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "models/platform/param_table.h"

namespace symsim {

struct Scenario;
class FamilySimulation;

class PlatformFamily {
 public:
  virtual ~PlatformFamily() = default;
  virtual const char* name() const = 0;
  // What one PE is called in messages: "pe" (an NPU) or "gpu".
  virtual const char* pe_noun() const = 0;
  // The parameter table over a scratch object (keys, docs, ranges).
  virtual ParamTable parameters() const = 0;
  virtual const char* blocks_param() const = 0;
  virtual std::vector<const char*> pow2_params() const = 0;
  // Builds the platform for one (validated) scenario; one simulation per process.
  virtual std::unique_ptr<FamilySimulation> build(const Scenario& s) const = 0;
};

const PlatformFamily* find_family(const std::string& name);
const std::vector<const PlatformFamily*>& platform_families();
// "ascend, nvidia", for messages.
std::string family_names();

}  // namespace symsim

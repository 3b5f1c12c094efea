// The `report` and `trace diff` subcommands on the symsim command line. main() adds them and
// asks whether one of them ran, as for the service's subcommands.
#pragma once
#include <memory>
#include <optional>

#include "sim/cli/subcommand_group.h"

namespace CLI {
class App;
}

namespace symsim::report {

class Commands : public cli::SubcommandGroup {
 public:
  explicit Commands(CLI::App& app);
  ~Commands() override;
  std::optional<int> dispatch() override;

 private:
  struct Impl;
  std::unique_ptr<Impl> m;
};

}  // namespace symsim::report

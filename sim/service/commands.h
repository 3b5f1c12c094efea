// The service's subcommands on the symsim command line: serve, submit, worker (internal),
// sweep and launch. main() adds them and asks which one ran.
#pragma once
#include <memory>
#include <optional>

#include "sim/cli/subcommand_group.h"

namespace CLI {
class App;
}

namespace symsim::service {

class Commands : public cli::SubcommandGroup {
 public:
  explicit Commands(CLI::App& app);
  ~Commands() override;
  std::optional<int> dispatch() override;

 private:
  struct Impl;
  std::unique_ptr<Impl> m;
};

}  // namespace symsim::service

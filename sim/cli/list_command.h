// `symsim list WHAT [--json]`: the catalogs, read from the registrations beside their code
// (kernels, platform families and their parameters, fault kinds, hazard ids, checkers,
// statistics).
#pragma once
#include <string>
#include <vector>

#include "sim/cli/subcommand_group.h"

namespace CLI {
class App;
}

namespace symsim::cli {

class ListCommand : public SubcommandGroup {
 public:
  // `kernel_libs`: where --kernel-lib goes (main loads them before dispatching).
  ListCommand(CLI::App& app, std::vector<std::string>& kernel_libs);
  std::optional<int> dispatch() override;

 private:
  CLI::App* m_cmd = nullptr;
  std::string m_what;
  bool m_json = false;
};

}  // namespace symsim::cli

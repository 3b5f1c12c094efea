// The `report` and `trace diff` subcommands on the symsim command line. main() adds them and
// asks whether one of them ran, as for the service's subcommands.
#pragma once
#include <memory>
#include <optional>

namespace CLI {
class App;
}

namespace symsim::report {

class Commands {
 public:
  explicit Commands(CLI::App& app);
  ~Commands();
  // The exit code of the subcommand given, or nullopt when it was neither. Throws InputError
  // (exit 2) and io::OutputError as the other subcommands do.
  std::optional<int> dispatch();

 private:
  struct Impl;
  std::unique_ptr<Impl> m;
};

}  // namespace symsim::report

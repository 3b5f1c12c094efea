// The service's subcommands on the symsim command line: serve, submit, worker (internal),
// sweep and launch. main() adds them and asks which one ran.
#pragma once
#include <memory>
#include <optional>

namespace CLI {
class App;
}

namespace symsim::service {

class Commands {
 public:
  explicit Commands(CLI::App& app);
  ~Commands();
  // The exit code of the subcommand given, or nullopt when it was none of these. Throws
  // InputError (exit 2) and other exceptions (exit 3) as the other subcommands do.
  std::optional<int> dispatch();

 private:
  struct Impl;
  std::unique_ptr<Impl> m;
};

}  // namespace symsim::service

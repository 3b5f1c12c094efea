// A group of subcommands on the symsim command line (list; serve, submit, ...; report, trace
// diff): the constructor adds them to the app, and after parsing dispatch() runs the one given.
#pragma once
#include <optional>

namespace symsim::cli {

class SubcommandGroup {
 public:
  virtual ~SubcommandGroup() = default;
  // The exit code of the subcommand given, or nullopt when it is none of this group's. Throws
  // InputError (exit 2) and io::OutputError as every subcommand does.
  virtual std::optional<int> dispatch() = 0;
};

}  // namespace symsim::cli

// Standalone `symsim-litmus PATH... --expected FILE [--seeds N] [--json OUT]`.
#include <string>
#include <vector>

#include "sim/litmus/litmus_command.h"

int main(int argc, char** argv) {
  return symsim::litmus::litmus_cli(std::vector<std::string>(argv + 1, argv + argc));
}

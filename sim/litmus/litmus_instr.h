// Parses one PTX instruction cell of a litmus table (`ld.acquire.gpu r1, x`, `LC00:`,
// `bar.cta.sync 1, r2`, ...) into a model instruction.
#pragma once

#include <functional>
#include <string>

#include "models/ptx/ptx_program.h"

namespace symsim::litmus {

struct ParsedInstr {
  enum class Status { Instruction, Label, Empty, Unsupported, Error } status = Status::Empty;
  ptx::Instr instr;
  std::string label;   // Label: its name; Branch / Jump: the target name
  std::string detail;  // Unsupported: the opcode name; Error: the message
};

// `addr_of` returns the virtual address id of a location name (creating it if new).
ParsedInstr parse_instruction(const std::string& cell, const std::function<int(const std::string&)>& addr_of);

}  // namespace symsim::litmus

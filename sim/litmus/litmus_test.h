// A parsed litmus test: the PTX program, its final condition, and the instructions the
// model cannot run (a test with any of those is reported, not run).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/litmus/litmus_condition.h"
#include "models/ptx/ptx_program.h"

namespace symsim::litmus {

struct LitmusTest {
  std::string path;
  std::string name;
  ptx::Program program;
  std::map<std::string, int> addr_ids;  // location name -> virtual address id
  Quantifier quantifier = Quantifier::Exists;
  Cond condition;
  std::vector<std::string> unsupported;  // opcode names, each once
};

struct ParseResult {
  bool ok = false;
  LitmusTest test;
  std::string error;  // when !ok
};

ParseResult parse_litmus_text(const std::string& text, const std::string& path);
ParseResult parse_litmus_file(const std::string& path);

}  // namespace symsim::litmus

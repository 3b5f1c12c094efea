// Inline PTX to simulator calls, for symsim-rewrite --cuda: one `asm volatile(...)` statement
// (its template, output and input operands) becomes a C++ block that runs each instruction on
// the timed PTX ordering model through symsim/cuda/inline_ptx.h.
#pragma once
#include <string>
#include <vector>

namespace symsim::rewrite {

struct AsmOperand {
  std::string constraint;  // "=r", "+l", "r", "n", ...
  std::string expr;        // the C++ expression in parentheses
};

struct AsmStatement {
  std::string text;  // the template, string literals joined and escapes decoded
  bool has_operands = false;  // extended asm (%% is %, %N an operand) rather than basic asm
  std::vector<AsmOperand> outputs;
  std::vector<AsmOperand> inputs;
};

// The C++ that stands for `a` (one line). An instruction outside the supported subset becomes a
// static_assert naming it, so the build fails at the asm statement's file:line (and only when
// that code is compiled: dead #if branches stay harmless). `unique` names labels and %=.
std::string translate_asm(const AsmStatement& a, int unique);
// The same, but an instruction outside the subset gives "" and its text in `unsupported`.
std::string translate_asm_or_why(const AsmStatement& a, int unique, std::string& unsupported);
// static_assert(condition, "...unsupported inline PTX instruction: what").
std::string unsupported_assert(const std::string& what, const std::string& condition);

}  // namespace symsim::rewrite

// Final-state conditions of a litmus test: `exists (...)`, `~exists (...)`, `forall (...)`
// over terms `P0:r1` (or `0:r1`), location names and integers, combined with `==`, `=`,
// `!=`, `/\`, `\/`, `~` and parentheses.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace symsim::litmus {

enum class Quantifier { Exists, NotExists, Forall };

struct Term {
  enum class Kind { Register, Location, Constant } kind = Kind::Constant;
  int thread = 0;        // Register
  int reg = 0;           // Register: rN -> N
  std::string location;  // Location
  int64_t value = 0;     // Constant
  std::string name() const;  // "P0:r1", "x" or the number
};

struct Cond {
  enum class Op { True, False, Equal, NotEqual, And, Or, Not } op = Op::True;
  Term lhs, rhs;           // Equal / NotEqual
  std::vector<Cond> kids;  // And / Or (two or more), Not (one)
};

// Parses the condition body (after the quantifier). Throws std::runtime_error on bad input.
Cond parse_condition(const std::string& text);

// Registers and locations the condition reads, each once, in first-use order.
std::vector<Term> condition_variables(const Cond& c);

bool evaluate(const Cond& c, const std::function<int64_t(const Term&)>& value_of);

const char* to_string(Quantifier q);

}  // namespace symsim::litmus

// The program the PTX model executes: virtual addresses (with their physical location and
// generic address), and one straight list of instructions per thread. Labels are resolved
// to instruction indices by whoever builds the program (the litmus parser).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/ptx/ptx_types.h"

namespace symsim::ptx {

struct Operand {
  bool is_reg = false;
  int reg = 0;        // register number (rN -> N) when is_reg
  int64_t imm = 0;    // immediate value otherwise
  static Operand Reg(int r) { return Operand{true, r, 0}; }
  static Operand Imm(int64_t v) { return Operand{false, 0, v}; }
};

enum class OpKind {
  Load,        // ld / tld / suld / cold
  Store,       // st / sust
  Atom,        // atom: read-modify-write with a destination register
  Red,         // red: read-modify-write without a destination
  Fence,       // fence.acq_rel.<scope>
  FenceSc,     // fence.sc.<scope>, membar
  ProxyFence,  // fence.proxy.{surface,texture,constant}
  AliasFence,  // fence.proxy.alias
  Barrier,     // bar.cta.sync / bar.cta.arrive
  Move,        // dst = a
  Alu,         // dst = a <op> b
  Branch,      // if (a <cmp> b) goto target
  Jump,        // goto target
};

enum class AluOp { Add, Sub, Mul, Div, And, Or, Xor, Min, Max, Exch, Cas, Inc, Dec };
enum class CmpOp { Eq, Ne, Lt, Le, Gt, Ge };

struct Instr {
  OpKind kind = OpKind::Move;
  Sem sem = Sem::Weak;
  Scope scope = Scope::Sys;
  Proxy proxy = Proxy::Generic;  // proxy of a memory access or of a proxy fence
  int addr = -1;                 // virtual address id (index into Program::addrs)
  int dst = -1;                  // destination register, -1 if none
  AluOp alu = AluOp::Add;        // Alu, and the operation of Atom / Red
  CmpOp cmp = CmpOp::Eq;         // Branch
  Operand a, b, c;               // store value; alu operands; cas expected (a) / new (b)
  int target = -1;               // Branch / Jump: index of the next instruction to run
  // Barrier: instance id (first number), optional resource id (b) and quorum (c).
  int bar_instance = 0;
  bool bar_named = false;
  bool bar_quorum = false;
  bool bar_arrive = false;
  std::string text;              // source text, for messages
};

struct Address {
  std::string name;
  int physical = -1;  // id of the address that owns the storage (itself if not an alias)
  int generic = -1;   // id of the generic address it maps to (vloc in the formal model)
};

struct ThreadCode {
  Placement place;
  std::vector<Instr> code;
  std::map<int, int64_t> reg_init;
};

struct Program {
  std::vector<Address> addrs;
  std::map<int, int64_t> init_value;  // by physical address id; missing means 0
  std::vector<ThreadCode> threads;
};

}  // namespace symsim::ptx

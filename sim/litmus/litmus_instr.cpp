#include "sim/litmus/litmus_instr.h"

#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "sim/litmus/litmus_text.h"

namespace symsim::litmus {

namespace {

using ptx::AluOp;
using ptx::CmpOp;
using ptx::Instr;
using ptx::OpKind;
using ptx::Operand;
using ptx::Proxy;
using ptx::Scope;
using ptx::Sem;
using Status = ParsedInstr::Status;

// Qualifiers after the opcode head, e.g. `.acquire.gpu.add`.
struct Qualifiers {
  std::optional<Sem> sem;
  std::optional<Scope> scope;
  std::optional<AluOp> op;
  bool is_volatile = false;
  std::vector<std::string> unknown;
};

Qualifiers read_qualifiers(const std::vector<std::string>& parts, size_t from) {
  static const std::map<std::string, Sem> sems = {{"weak", Sem::Weak},       {"relaxed", Sem::Relaxed},
                                                  {"acquire", Sem::Acquire}, {"release", Sem::Release},
                                                  {"acq_rel", Sem::AcqRel},  {"sc", Sem::Sc}};
  static const std::map<std::string, Scope> scopes = {{"cta", Scope::Cta}, {"gpu", Scope::Gpu}, {"sys", Scope::Sys}};
  static const std::map<std::string, AluOp> ops = {
      {"add", AluOp::Add}, {"sub", AluOp::Sub}, {"mul", AluOp::Mul}, {"div", AluOp::Div},   {"and", AluOp::And},
      {"or", AluOp::Or},   {"xor", AluOp::Xor}, {"min", AluOp::Min}, {"max", AluOp::Max},   {"exch", AluOp::Exch},
      {"cas", AluOp::Cas}, {"inc", AluOp::Inc}, {"dec", AluOp::Dec}};
  // Data types and the global state space change nothing in this model.
  static const std::set<std::string> ignored = {"global", "u32", "s32", "b32", "u64", "s64", "b64"};
  Qualifiers q;
  for (size_t i = from; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    if (auto s = sems.find(p); s != sems.end()) {
      q.sem = s->second;
    } else if (auto sc = scopes.find(p); sc != scopes.end()) {
      q.scope = sc->second;
    } else if (auto o = ops.find(p); o != ops.end()) {
      q.op = o->second;
    } else if (p == "volatile") {
      q.is_volatile = true;
    } else if (!ignored.count(p)) {
      q.unknown.push_back(p);
    }
  }
  return q;
}

std::optional<Operand> value_operand(const std::string& s) {
  if (s.size() > 1 && s[0] == 'r') {
    if (auto n = parse_int(s.substr(1)); n && *n >= 0) return Operand::Reg(static_cast<int>(*n));
  }
  if (auto v = parse_int(s)) return Operand::Imm(*v);
  return std::nullopt;
}

std::optional<int> register_operand(const std::string& s) {
  auto op = value_operand(s);
  if (!op || !op->is_reg) return std::nullopt;
  return op->reg;
}

std::string location_name(std::string s) {
  if (s.size() > 2 && s.front() == '[' && s.back() == ']') s = s.substr(1, s.size() - 2);
  return trim(s);
}

class InstrReader {
 public:
  InstrReader(const std::string& opcode, const std::vector<std::string>& args,
              const std::function<int(const std::string&)>& addr_of)
      : opcode_(opcode), parts_(split(opcode, '.')), args_(args), addr_of_(addr_of) {
    out_.status = Status::Instruction;
    out_.instr.text = opcode + (args.empty() ? "" : " ...");
  }

  ParsedInstr read() {
    const std::string& head = parts_[0];
    static const std::map<std::string, Proxy> loads = {
        {"ld", Proxy::Generic}, {"tld", Proxy::Texture}, {"suld", Proxy::Surface}, {"cold", Proxy::Constant}};
    static const std::map<std::string, Proxy> stores = {{"st", Proxy::Generic}, {"sust", Proxy::Surface}};
    static const std::map<std::string, Proxy> rmws = {
        {"atom", Proxy::Generic}, {"red", Proxy::Generic}, {"suatom", Proxy::Surface}, {"sured", Proxy::Surface}};
    if (auto l = loads.find(head); l != loads.end()) return load(l->second);
    if (auto s = stores.find(head); s != stores.end()) return store(s->second);
    if (auto r = rmws.find(head); r != rmws.end()) return rmw(r->second, head == "atom" || head == "suatom");
    if (head == "fence") return fence();
    if (head == "membar") return membar();
    if (head == "bar" || head == "barrier") return barrier();
    if (head == "goto" || head == "bra") return jump();
    if (head == "beq" || head == "bne" || head == "blt" || head == "bgt" || head == "ble" || head == "bge") {
      return branch(head);
    }
    if (head == "mov") return move();
    return alu(head);
  }

 private:
  ParsedInstr unsupported() {
    out_.status = Status::Unsupported;
    out_.detail = opcode_;
    return out_;
  }
  ParsedInstr error(const std::string& what) {
    out_.status = Status::Error;
    out_.detail = opcode_ + ": " + what;
    return out_;
  }
  bool arity(size_t n) const { return args_.size() == n; }
  // Applies sem/scope qualifiers; false if they are not supported for this instruction.
  bool memory_order(const Qualifiers& q, std::initializer_list<Sem> allowed, Sem default_sem, Scope default_scope) {
    if (!q.unknown.empty() || q.op) return false;
    Sem sem = q.sem.value_or(default_sem);
    Scope scope = q.scope.value_or(default_scope);
    if (q.is_volatile) {  // .volatile behaves as .relaxed.sys
      sem = Sem::Relaxed;
      scope = Scope::Sys;
    }
    bool ok = false;
    for (Sem s : allowed) ok = ok || s == sem;
    out_.instr.sem = sem;
    out_.instr.scope = scope;
    return ok;
  }

  ParsedInstr load(Proxy proxy) {
    Instr& in = out_.instr;
    // `ld r0, 1` (a value, not a location) is a register move in these tests.
    if (parts_.size() == 1 && arity(2) && value_operand(args_[1])) {
      if (!register_operand(args_[0])) return error("expected a register");
      in.kind = OpKind::Move;
      in.dst = *register_operand(args_[0]);
      in.a = *value_operand(args_[1]);
      return out_;
    }
    if (!memory_order(read_qualifiers(parts_, 1), {Sem::Weak, Sem::Relaxed, Sem::Acquire}, Sem::Weak, Scope::Sys)) {
      return unsupported();
    }
    if (!arity(2) || !register_operand(args_[0])) return error("expected 'reg, location'");
    const std::string loc = location_name(args_[1]);
    if (!is_identifier(loc)) return error("bad location");
    in.kind = OpKind::Load;
    in.proxy = proxy;
    in.dst = *register_operand(args_[0]);
    in.addr = addr_of_(loc);
    return out_;
  }

  ParsedInstr store(Proxy proxy) {
    if (!memory_order(read_qualifiers(parts_, 1), {Sem::Weak, Sem::Relaxed, Sem::Release}, Sem::Weak, Scope::Sys)) {
      return unsupported();
    }
    if (!arity(2) || !value_operand(args_[1])) return error("expected 'location, value'");
    const std::string loc = location_name(args_[0]);
    if (!is_identifier(loc)) return error("bad location");
    Instr& in = out_.instr;
    in.kind = OpKind::Store;
    in.proxy = proxy;
    in.addr = addr_of_(loc);
    in.a = *value_operand(args_[1]);
    return out_;
  }

  ParsedInstr rmw(Proxy proxy, bool has_dst) {
    Qualifiers q = read_qualifiers(parts_, 1);
    if (!q.op) return unsupported();
    const AluOp op = *q.op;
    q.op.reset();
    if (!memory_order(q, {Sem::Relaxed, Sem::Acquire, Sem::Release, Sem::AcqRel}, Sem::Relaxed, Scope::Gpu)) {
      return unsupported();
    }
    const size_t values = op == AluOp::Cas ? 2 : 1;
    const size_t first = has_dst ? 1 : 0;
    if (!arity(first + 1 + values)) return error("wrong number of operands");
    Instr& in = out_.instr;
    in.kind = has_dst ? OpKind::Atom : OpKind::Red;
    in.proxy = proxy;
    in.alu = op;
    if (has_dst) {
      if (!register_operand(args_[0])) return error("expected a register");
      in.dst = *register_operand(args_[0]);
    }
    const std::string loc = location_name(args_[first]);
    if (!is_identifier(loc)) return error("bad location");
    in.addr = addr_of_(loc);
    auto a = value_operand(args_[first + 1]);
    if (!a) return error("bad value");
    in.a = *a;
    if (values == 2) {
      auto b = value_operand(args_[first + 2]);
      if (!b) return error("bad value");
      in.b = *b;
    }
    return out_;
  }

  ParsedInstr fence() {
    Instr& in = out_.instr;
    if (!arity(0)) return error("fences take no operands");
    if (parts_.size() == 3 && parts_[1] == "proxy") {
      static const std::map<std::string, Proxy> proxies = {
          {"surface", Proxy::Surface}, {"texture", Proxy::Texture}, {"constant", Proxy::Constant}};
      if (parts_[2] == "alias") {
        in.kind = OpKind::AliasFence;
        return out_;
      }
      auto p = proxies.find(parts_[2]);
      if (p == proxies.end()) return unsupported();
      in.kind = OpKind::ProxyFence;
      in.proxy = p->second;
      return out_;
    }
    const Qualifiers q = read_qualifiers(parts_, 1);
    if (!q.unknown.empty() || q.op || !q.sem || q.is_volatile) return unsupported();
    if (*q.sem != Sem::Sc && *q.sem != Sem::AcqRel) return unsupported();
    in.kind = *q.sem == Sem::Sc ? OpKind::FenceSc : OpKind::Fence;
    in.sem = *q.sem;
    in.scope = q.scope.value_or(Scope::Sys);
    return out_;
  }

  ParsedInstr membar() {
    // membar.{cta,gl,sys} is fence.sc with the matching scope.
    static const std::map<std::string, Scope> levels = {{"cta", Scope::Cta}, {"gl", Scope::Gpu}, {"sys", Scope::Sys}};
    if (parts_.size() != 2 || !levels.count(parts_[1])) return unsupported();
    if (!arity(0)) return error("membar takes no operands");
    out_.instr.kind = OpKind::FenceSc;
    out_.instr.sem = Sem::Sc;
    out_.instr.scope = levels.at(parts_[1]);
    return out_;
  }

  ParsedInstr barrier() {
    // bar{.cta}.{sync,arrive}{.aligned} instance{, resource{, quorum}}
    std::optional<bool> arrive;
    for (size_t i = 1; i < parts_.size(); ++i) {
      const std::string& p = parts_[i];
      if (p == "sync") {
        arrive = false;
      } else if (p == "arrive") {
        arrive = true;
      } else if (p != "cta" && p != "aligned") {
        return unsupported();
      }
    }
    if (!arrive) return unsupported();
    if (args_.empty() || args_.size() > 3) return error("expected 1 to 3 operands");
    auto instance = parse_int(args_[0]);
    if (!instance) return error("barrier instance must be a number");
    Instr& in = out_.instr;
    in.kind = OpKind::Barrier;
    in.bar_arrive = *arrive;
    in.bar_instance = static_cast<int>(*instance);
    if (args_.size() >= 2) {
      auto id = value_operand(args_[1]);
      if (!id) return error("bad barrier id");
      in.bar_named = true;
      in.b = *id;
    }
    if (args_.size() == 3) {
      auto quorum = value_operand(args_[2]);
      if (!quorum) return error("bad barrier quorum");
      in.bar_quorum = true;
      in.c = *quorum;
    }
    return out_;
  }

  ParsedInstr jump() {
    if (parts_.size() != 1 || !arity(1) || !is_identifier(args_[0])) return error("expected a label");
    out_.instr.kind = OpKind::Jump;
    out_.label = args_[0];
    return out_;
  }

  ParsedInstr branch(const std::string& head) {
    static const std::map<std::string, CmpOp> cmps = {{"beq", CmpOp::Eq}, {"bne", CmpOp::Ne}, {"blt", CmpOp::Lt},
                                                      {"bgt", CmpOp::Gt}, {"ble", CmpOp::Le}, {"bge", CmpOp::Ge}};
    if (parts_.size() != 1 || !arity(3)) return error("expected 'a, b, label'");
    auto a = value_operand(args_[0]);
    auto b = value_operand(args_[1]);
    if (!a || !b || !is_identifier(args_[2])) return error("bad operands");
    Instr& in = out_.instr;
    in.kind = OpKind::Branch;
    in.cmp = cmps.at(head);
    in.a = *a;
    in.b = *b;
    out_.label = args_[2];
    return out_;
  }

  ParsedInstr move() {
    if (!arity(2) || !register_operand(args_[0]) || !value_operand(args_[1])) return error("expected 'reg, value'");
    out_.instr.kind = OpKind::Move;
    out_.instr.dst = *register_operand(args_[0]);
    out_.instr.a = *value_operand(args_[1]);
    return out_;
  }

  ParsedInstr alu(const std::string& head) {
    static const std::map<std::string, AluOp> ops = {{"add", AluOp::Add}, {"sub", AluOp::Sub}, {"mul", AluOp::Mul},
                                                     {"div", AluOp::Div}, {"and", AluOp::And}, {"or", AluOp::Or},
                                                     {"xor", AluOp::Xor}, {"min", AluOp::Min}, {"max", AluOp::Max}};
    auto op = ops.find(head);
    if (op == ops.end()) return unsupported();
    const Qualifiers q = read_qualifiers(parts_, 1);  // only data types may follow
    if (!q.unknown.empty() || q.sem || q.scope || q.op || q.is_volatile) return unsupported();
    if (!arity(3) || !register_operand(args_[0])) return error("expected 'reg, a, b'");
    auto a = value_operand(args_[1]);
    auto b = value_operand(args_[2]);
    if (!a || !b) return error("bad operands");
    Instr& in = out_.instr;
    in.kind = OpKind::Alu;
    in.alu = op->second;
    in.dst = *register_operand(args_[0]);
    in.a = *a;
    in.b = *b;
    return out_;
  }

  std::string opcode_;
  std::vector<std::string> parts_;
  std::vector<std::string> args_;
  const std::function<int(const std::string&)>& addr_of_;
  ParsedInstr out_;
};

}  // namespace

ParsedInstr parse_instruction(const std::string& cell, const std::function<int(const std::string&)>& addr_of) {
  const std::string text = trim(cell);
  ParsedInstr out;
  if (text.empty()) return out;
  if (text.back() == ':' && is_identifier(trim(text.substr(0, text.size() - 1)))) {
    out.status = Status::Label;
    out.label = trim(text.substr(0, text.size() - 1));
    return out;
  }
  size_t space = 0;
  while (space < text.size() && !std::isspace(static_cast<unsigned char>(text[space]))) ++space;
  const std::string opcode = text.substr(0, space);
  const std::string rest = trim(text.substr(space));
  std::vector<std::string> args;
  if (!rest.empty()) {
    for (const std::string& a : split(rest, ',')) args.push_back(trim(a));
  }
  ParsedInstr parsed = InstrReader(opcode, args, addr_of).read();
  parsed.instr.text = text;
  return parsed;
}

}  // namespace symsim::litmus

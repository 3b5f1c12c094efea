// Inline PTX to simulator calls (ptx_translate.h). The template is split into instructions
// (';'), block braces, labels and `.reg` declarations; each instruction is matched on its
// opcode and modifiers and written as a call of symsim::cuda::ptx_asm / symsim::nv with the
// semantics, scope and width its modifiers give. Local registers are uint64_t variables,
// labels and `bra` are C++ labels and goto.
#include "tools/ptx_translate.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace symsim::rewrite {

namespace {

const char* const kX = "::symsim::cuda::ptx_asm::";
const char* const kN = "::symsim::nv::";

// Thrown for an instruction outside the subset; becomes a static_assert.
struct Unsupported {
  std::string what;
};

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  const size_t e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%'; }

std::vector<std::string> split_dots(const std::string& op) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : op) {
    if (c == '.') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  return parts;
}

// Operands at top-level commas ({a, b} vectors and [a+8] addresses stay whole).
std::vector<std::string> split_operands(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : s) {
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!trim(cur).empty()) out.push_back(trim(cur));
  return out;
}

struct Instr {
  std::string pred;  // "", "p" or "!p"
  std::string opcode;
  std::vector<std::string> mods;  // opcode's dot-separated parts after the first
  std::vector<std::string> operands;
  std::string text;
  bool has(const std::string& m) const {
    for (const std::string& x : mods)
      if (x == m) return true;
    return false;
  }
};

class Translator {
 public:
  Translator(const AsmStatement& a, int unique) : m_asm(a), m_unique(unique) {}

  std::string run() {
    const std::string body = expand_template();
    std::ostringstream out;
    out << "do { const " << kN << "Site symsim_site{__FILE__, __LINE__}; (void)symsim_site; ";
    size_t n = 0;
    for (const AsmOperand& o : m_asm.outputs) out << "auto&& symsim_op" << n++ << " = (" << o.expr << "); ";
    for (const AsmOperand& o : m_asm.inputs) out << "auto&& symsim_op" << n++ << " = (" << o.expr << "); ";
    std::ostringstream code;
    for (const std::string& piece : split_statements(body)) code << statement(piece);
    for (const std::string& r : m_regs) out << "uint64_t " << r << " = 0; (void)" << r << "; ";
    out << code.str() << "} while (0)";
    return out.str();
  }

 private:
  // %N -> $N, %% -> %, %= -> the unique number (extended asm only).
  std::string expand_template() const {
    if (!m_asm.has_operands) return m_asm.text;
    std::string out;
    const std::string& t = m_asm.text;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] != '%' || i + 1 >= t.size()) {
        out += t[i];
      } else if (t[i + 1] == '%') {
        out += '%';
        ++i;
      } else if (t[i + 1] == '=') {
        out += std::to_string(m_unique);
        ++i;
      } else if (std::isdigit(static_cast<unsigned char>(t[i + 1]))) {
        out += '$';
      } else if (std::isalpha(static_cast<unsigned char>(t[i + 1]))) {
        out += '%';  // a PTX register such as %laneid (nvcc passes it through)
      } else {
        throw Unsupported{"operand reference " + t.substr(i, 8) + " (named operands are not supported)"};
      }
    }
    return out;
  }

  // Instructions; comments dropped.
  static std::vector<std::string> split_statements(const std::string& body) {
    std::string clean;
    for (size_t i = 0; i < body.size(); ++i) {
      if (body.compare(i, 2, "//") == 0) {
        while (i < body.size() && body[i] != '\n') ++i;
        clean += '\n';
      } else {
        clean += body[i];
      }
    }
    std::vector<std::string> out;
    std::string cur;
    for (char c : clean) {
      if (c == ';') {
        out.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    out.push_back(cur);
    return out;
  }

  std::string label(const std::string& name) const {
    std::string s = "symsim_L" + std::to_string(m_unique) + "_";
    for (char c : name) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return s;
  }
  static std::string reg_name(const std::string& name) {
    std::string s = "symsim_reg_";
    for (char c : name) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return s;
  }

  // One piece between ';': leading braces and labels, then a directive or an instruction.
  std::string statement(std::string s) {
    std::string out;
    for (;;) {
      s = trim(s);
      if (!s.empty() && (s[0] == '{' || s[0] == '}')) {
        s.erase(0, 1);
        continue;
      }
      size_t i = 0;
      while (i < s.size() && is_ident(s[i])) ++i;
      if (i > 0 && i < s.size() && s[i] == ':' && (i + 1 >= s.size() || s[i + 1] != ':')) {
        out += label(s.substr(0, i)) + ":; ";
        s.erase(0, i + 1);
        continue;
      }
      break;
    }
    if (s.empty()) return out;
    if (s.rfind(".reg", 0) == 0) {
      // .reg .TYPE a, b;  (or a<N> arrays, not supported)
      std::istringstream words(s.substr(4));
      std::string type, rest;
      words >> type;
      std::getline(words, rest);
      for (const std::string& r : split_operands(rest)) {
        if (r.find('<') != std::string::npos) throw Unsupported{".reg array " + r};
        m_regs.insert(reg_name(r));
        m_declared.insert(r);
      }
      return out;
    }
    return out + instruction(parse(s));
  }

  Instr parse(const std::string& s) const {
    Instr in;
    in.text = s;
    std::string rest = s;
    if (rest[0] == '@') {
      size_t i = 1;
      while (i < rest.size() && !std::isspace(static_cast<unsigned char>(rest[i]))) ++i;
      in.pred = rest.substr(1, i - 1);
      rest = trim(rest.substr(i));
    }
    size_t i = 0;
    while (i < rest.size() && !std::isspace(static_cast<unsigned char>(rest[i]))) ++i;
    std::vector<std::string> parts = split_dots(rest.substr(0, i));
    in.opcode = parts[0];
    in.mods.assign(parts.begin() + 1, parts.end());
    in.operands = split_operands(rest.substr(i));
    return in;
  }

  // The bits of a source operand.
  std::string read(const std::string& op) const {
    const std::string o = trim(op);
    if (o.empty()) throw Unsupported{"empty operand"};
    if (o[0] == '$') return std::string(kX) + "bits(symsim_op" + o.substr(1) + ")";
    if (m_declared.count(o)) return reg_name(o);
    if (o[0] == '%') return std::string(kX) + "special(\"" + o + "\")";
    if (o[0] == '-' || std::isdigit(static_cast<unsigned char>(o[0])))
      return "static_cast<uint64_t>(" + o + (o.find_first_of("xX") == std::string::npos ? "ll" : "ull") + ")";
    throw Unsupported{"operand '" + o + "'"};
  }
  // Stores `value` into a destination operand.
  std::string write(const std::string& op, const std::string& value) const {
    const std::string o = trim(op);
    if (o == "_") return "(void)(" + value + "); ";
    if (!o.empty() && o[0] == '$') return std::string(kX) + "set(symsim_op" + o.substr(1) + ", " + value + "); ";
    if (m_declared.count(o)) return reg_name(o) + " = " + value + "; ";
    throw Unsupported{"destination '" + o + "'"};
  }
  // [a], [a+8], [a-8], [a+-8]: a generic pointer.
  std::string address(const std::string& op) const {
    std::string o = trim(op);
    if (o.size() < 2 || o.front() != '[' || o.back() != ']') throw Unsupported{"address operand '" + o + "'"};
    o = trim(o.substr(1, o.size() - 2));
    std::string base = o, offset = "0";
    const size_t plus = o.find_first_of("+-", 1);
    if (plus != std::string::npos) {
      base = trim(o.substr(0, plus));
      offset = trim(o.substr(plus + 1));
      if (o[plus] == '-') offset = "-" + offset;
      if (offset.rfind("+", 0) == 0) offset.erase(0, 1);
    }
    return std::string(kX) + "ptr(" + read(base) + ", " + offset + ")";
  }
  static std::vector<std::string> vector_items(const std::string& op) {
    const std::string o = trim(op);
    if (o.empty() || o.front() != '{') return {o};
    return split_operands(o.substr(1, o.size() - 2));
  }

  // Width in bytes of the instruction's data type, and whether it is signed.
  static uint32_t type_bytes(const Instr& in, bool* is_signed = nullptr, std::string* type = nullptr) {
    for (const std::string& m : in.mods) {
      if (m.size() < 2 || std::string("busf").find(m[0]) == std::string::npos) continue;
      const std::string digits = m.substr(1);
      if (digits != "8" && digits != "16" && digits != "32" && digits != "64" && digits != "128") continue;
      if (is_signed) *is_signed = m[0] == 's';
      if (type) *type = m;
      return static_cast<uint32_t>(std::stoi(digits) / 8);
    }
    throw Unsupported{in.text + " (no data type)"};
  }
  static uint32_t vector_count(const Instr& in) {
    if (in.has("v2")) return 2;
    if (in.has("v4")) return 4;
    if (in.has("v8")) return 8;
    return 1;
  }
  static std::string scope(const Instr& in, const char* fallback) {
    if (in.has("cta")) return std::string(kN) + "Scope::Cta";
    if (in.has("gpu") || in.has("cluster")) return std::string(kN) + "Scope::Gpu";
    if (in.has("sys")) return std::string(kN) + "Scope::Sys";
    return std::string(kN) + "Scope::" + fallback;
  }
  static std::string sem(const std::string& s) { return std::string(kN) + "Sem::" + s; }

  std::string guarded(const Instr& in, const std::string& code) const {
    if (in.pred.empty()) return "{ " + code + "} ";
    const bool neg = in.pred[0] == '!';
    return "if (" + std::string(neg ? "!" : "") + read(neg ? in.pred.substr(1) : in.pred) + ") { " + code + "} ";
  }

  std::string instruction(const Instr& in) { return guarded(in, body(in)); }

  void need(const Instr& in, size_t n) const {
    if (in.operands.size() < n) throw Unsupported{in.text + " (expected " + std::to_string(n) + " operands)"};
  }

  std::string body(const Instr& in) {
    const std::string& op = in.opcode;
    if (op == "ld" || op == "st") return load_store(in);
    if (op == "atom" || op == "red") return atomic(in);
    if (op == "fence" || op == "membar") return fence(in);
    if (op == "mbarrier") return mbarrier(in);
    if (op == "cp" && in.mods.size() >= 2 && in.mods[0] == "async" && in.mods[1] == "bulk") return bulk_copy(in);
    if (op == "mov") {
      need(in, 2);
      const std::vector<std::string> dst = vector_items(in.operands[0]), src = vector_items(in.operands[1]);
      if (dst.size() == 1 && src.size() == 1) return write(in.operands[0], read(in.operands[1]));
      // mov.b64 {lo, hi}, x / mov.b64 x, {lo, hi} (also .b32 with 16-bit halves): unpack, pack.
      const uint32_t bytes = type_bytes(in);
      const size_t parts = std::max(dst.size(), src.size());
      if ((dst.size() != 1 && src.size() != 1) || bytes % parts != 0 || bytes > 8) throw Unsupported{in.text};
      const std::string bits = std::to_string(8 * bytes / parts);
      const std::string mask = bits == "64" ? "~0ull" : "((1ull << " + bits + ") - 1)";
      std::string code;
      if (dst.size() > 1) {
        code = "const uint64_t symsim_whole = " + read(src[0]) + "; ";
        for (size_t i = 0; i < parts; ++i)
          code += write(dst[i], "((symsim_whole >> " + std::to_string(i) + " * " + bits + ") & " + mask + ")");
        return code;
      }
      std::string packed = "0ull";
      for (size_t i = 0; i < parts; ++i)
        packed = "(" + packed + " | ((" + read(src[i]) + " & " + mask + ") << " + std::to_string(i) + " * " + bits + "))";
      return write(dst[0], packed);
    }
    if (op == "prmt" && in.mods.size() == 1 && in.mods[0] == "b32") {  // default mode: a byte permute
      need(in, 4);
      return write(in.operands[0], std::string(kX) + "prmt(" + read(in.operands[1]) + ", " + read(in.operands[2]) + ", " +
                                       read(in.operands[3]) + ")");
    }
    if (op == "elect" && in.has("sync")) {
      need(in, 2);
      const std::string dests = in.operands[0];
      const size_t bar = dests.find('|');
      const std::string lane = bar == std::string::npos ? dests : dests.substr(0, bar);
      const std::string pred = bar == std::string::npos ? "_" : dests.substr(bar + 1);
      return "bool symsim_e = false; const uint64_t symsim_l = " + std::string(kX) + "elect(static_cast<uint32_t>(" +
             read(in.operands[1]) + "), symsim_e); " + write(lane, "symsim_l") + write(pred, "static_cast<uint64_t>(symsim_e)");
    }
    if (op == "nanosleep") {
      need(in, 1);
      return std::string(kN) + "nanosleep(static_cast<uint32_t>(" + read(in.operands[0]) + ")); ";
    }
    if (op == "trap") return std::string(kN) + "trap(\"trap (inline PTX)\"); ";
    if (op == "prefetch" || op == "prefetchu") return std::string(kN) + "work(1); ";
    if (op == "bra") {
      need(in, 1);
      return "goto " + label(in.operands[0]) + "; ";
    }
    if (op == "setp") return setp(in);
    if (op == "bar" || op == "barrier") return named_barrier(in);
    if ((op == "lg2" || op == "ex2") && in.has("approx") && in.has("f32")) {
      need(in, 2);
      const std::string x = std::string(kX) + "f32(" + read(in.operands[1]) + ")";
      return write(in.operands[0], std::string(kX) + "f32_bits(" + (op == "lg2" ? "std::log2(" : "std::exp2(") + x + "))");
    }
    if (op == "selp") {
      need(in, 4);
      return write(in.operands[0], "(" + read(in.operands[3]) + " ? " + read(in.operands[1]) + " : " + read(in.operands[2]) + ")");
    }
    static const std::set<std::string> kAlu = {"add", "sub", "and", "or", "xor", "shl", "shr"};
    if (kAlu.count(op)) {
      need(in, 3);
      static const std::map<std::string, std::string> sym = {{"add", "+"}, {"sub", "-"}, {"and", "&"}, {"or", "|"},
                                                              {"xor", "^"}, {"shl", "<<"}, {"shr", ">>"}};
      return write(in.operands[0], "(" + read(in.operands[1]) + " " + sym.at(op) + " " + read(in.operands[2]) + ")");
    }
    throw Unsupported{in.text};
  }

  std::string load_store(const Instr& in) {
    const bool is_load = in.opcode == "ld";
    need(in, 2);
    for (const char* bad : {"param", "const", "local", "async", "tile", "shared::cluster"})
      if (in.has(bad) && !(is_load && std::string(bad) == "shared::cluster")) throw Unsupported{in.text};
    bool is_signed = false;
    const uint32_t bytes = type_bytes(in, &is_signed);
    const uint32_t n = vector_count(in);
    std::string s = "Weak", sc = scope(in, "Gpu");
    if (in.has("volatile")) s = "Relaxed", sc = scope(in, "Sys");
    if (in.has("relaxed")) s = "Relaxed";
    if (in.has("acquire") && is_load) s = "Acquire";
    if (in.has("release") && !is_load) s = "Release";
    if ((in.has("acquire") && !is_load) || (in.has("release") && is_load) || in.has("mmio")) throw Unsupported{in.text};
    const std::string tail = ", " + std::to_string(bytes) + ", " + std::to_string(n) + ", " + sem(s) + ", " + sc + ", symsim_site); ";
    if (bytes == 16) {
      // .b128: one 16-byte operand ("q", __int128) moved as one access.
      const std::string& value = in.operands[is_load ? 0 : 1];
      if (n != 1 || trim(value).empty() || trim(value)[0] != '$') throw Unsupported{in.text + " (.b128 needs one C++ operand)"};
      const std::string op = "symsim_op" + trim(value).substr(1);
      const std::string where = address(in.operands[is_load ? 1 : 0]);
      const std::string rest = ", " + sem(s) + ", " + sc + ", symsim_site); ";
      return is_load ? std::string(kX) + "ld_wide(" + op + ", " + where + rest : std::string(kX) + "st_wide(" + where + ", " + op + rest;
    }
    if (is_load) {
      const std::vector<std::string> dst = vector_items(in.operands[0]);
      if (dst.size() != n) throw Unsupported{in.text + " (vector size)"};
      std::string code = "uint64_t symsim_v[8]; " + std::string(kX) + "ld(symsim_v, " + address(in.operands[1]) + tail;
      for (uint32_t i = 0; i < n; ++i) {
        const std::string v = "symsim_v[" + std::to_string(i) + "]";
        code += write(dst[i], is_signed ? std::string(kX) + "sext(" + v + ", " + std::to_string(bytes) + ")" : v);
      }
      return code;
    }
    const std::vector<std::string> src = vector_items(in.operands[1]);
    if (src.size() != n) throw Unsupported{in.text + " (vector size)"};
    std::string code = "const uint64_t symsim_v[8] = {";
    for (uint32_t i = 0; i < n; ++i) code += (i ? ", " : "") + read(src[i]);
    return code + "}; " + std::string(kX) + "st(" + address(in.operands[0]) + ", symsim_v" + tail;
  }

  std::string atomic(const Instr& in) {
    const bool is_red = in.opcode == "red";
    static const std::map<std::string, std::string> ops = {{"add", "Add"}, {"inc", "Inc"}, {"dec", "Dec"},
                                                           {"min", "Min"}, {"max", "Max"}, {"and", "And"},
                                                           {"or", "Or"},   {"xor", "Xor"}, {"exch", "Exch"},
                                                           {"cas", "Cas"}};
    std::string aop;
    for (const std::string& m : in.mods)
      if (ops.count(m)) aop = ops.at(m);
    std::string type;
    bool is_signed = false;
    type_bytes(in, &is_signed, &type);
    static const std::map<std::string, std::string> types = {{"u32", "U32"}, {"b32", "U32"}, {"s32", "S32"},
                                                             {"u64", "U64"}, {"b64", "U64"}, {"s64", "S64"},
                                                             {"f32", "F32"}, {"f64", "F64"}};
    if (aop.empty() || !types.count(type) || in.has("v2") || in.has("v4") || in.has("shared::cluster") ||
        (is_red && aop == "Cas"))
      throw Unsupported{in.text};
    std::string s = "Relaxed";
    if (in.has("acquire")) s = "Acquire";
    if (in.has("release")) s = "Release";
    if (in.has("acq_rel")) s = "AcqRel";
    const size_t first = is_red ? 0 : 1;
    need(in, first + (aop == "Cas" ? 3 : 2));
    const std::string operand = read(in.operands[first + (aop == "Cas" ? 2 : 1)]);
    const std::string compare = aop == "Cas" ? read(in.operands[first + 1]) : "0";
    const std::string call = std::string(kX) + "atom(" + address(in.operands[first]) + ", " + kN + "AtomicOp::" + aop +
                             ", " + kN + "AtomicType::" + types.at(type) + ", " + operand + ", " + compare + ", " + sem(s) +
                             ", " + scope(in, "Gpu") + ", " + (is_red ? "false" : "true") + ", symsim_site)";
    return is_red ? call + "; " : write(in.operands[0], call);
  }

  std::string fence(const Instr& in) {
    if (in.opcode == "membar") {
      const std::string sc = in.has("cta") ? "Cta" : in.has("gl") ? "Gpu" : in.has("sys") ? "Sys" : "";
      if (sc.empty()) throw Unsupported{in.text};
      return std::string(kN) + "fence(" + sem("Sc") + ", " + kN + "Scope::" + sc + ", symsim_site); ";
    }
    // The TMA model reads and writes shared memory at issue, so generic and async proxies
    // are already ordered: the fence costs an issue slot.
    if (in.has("proxy")) return std::string(kN) + "work(1); ";
    if (in.has("mbarrier_init")) return std::string(kN) + "fence(" + sem("AcqRel") + ", " + kN + "Scope::Cta, symsim_site); ";
    if (in.has("sc")) return std::string(kN) + "fence(" + sem("Sc") + ", " + scope(in, "Gpu") + ", symsim_site); ";
    if (in.has("acq_rel")) return std::string(kN) + "fence(" + sem("AcqRel") + ", " + scope(in, "Gpu") + ", symsim_site); ";
    throw Unsupported{in.text};
  }

  std::string mbarrier(const Instr& in) {
    const std::string what = in.mods.empty() ? "" : in.mods[0];
    auto u32 = [this](const std::string& o) { return "static_cast<uint32_t>(" + read(o) + ")"; };
    if (what == "init") {
      need(in, 2);
      return std::string(kN) + "mbar_init(" + address(in.operands[0]) + ", " + u32(in.operands[1]) + "); ";
    }
    if (what == "inval") {
      need(in, 1);
      return std::string(kX) + "mbar_inval(" + address(in.operands[0]) + "); ";
    }
    if (what == "arrive") {
      // The state result is a token (the phase the arrival belongs to) that try_wait /
      // test_wait without .parity accept.
      need(in, 2);
      if (in.has("expect_tx")) {
        need(in, 3);
        return write(in.operands[0], std::string(kX) + "mbar_arrive_token(" + address(in.operands[1]) + ", 1, " +
                                         u32(in.operands[2]) + ", symsim_site)");
      }
      const std::string count = in.operands.size() > 2 ? u32(in.operands[2]) : "1";
      return write(in.operands[0], std::string(kX) + "mbar_arrive_token(" + address(in.operands[1]) + ", " + count +
                                       ", 0, symsim_site)");
    }
    if (what == "expect_tx") {
      need(in, 2);
      return std::string(kN) + "mbar_expect_tx(" + address(in.operands[0]) + ", " + u32(in.operands[1]) + "); ";
    }
    if (what == "try_wait" || what == "test_wait") {
      // .parity P waits for the phase of parity P; a state token for the phase it names.
      need(in, 3);
      const std::string parity = in.has("parity") ? u32(in.operands[2]) : "static_cast<uint32_t>(" + read(in.operands[2]) + " & 1)";
      return write(in.operands[0], "static_cast<uint64_t>(" + std::string(kN) + "mbar_test(" + address(in.operands[1]) +
                                       ", " + parity + ", symsim_site))");
    }
    throw Unsupported{in.text};
  }

  std::string bulk_copy(const Instr& in) {
    if (in.has("commit_group")) return std::string(kN) + "tma_commit(); ";
    if (in.has("wait_group")) {
      need(in, 1);
      return std::string(kN) + "tma_wait(static_cast<uint32_t>(" + read(in.operands[0]) + "), symsim_site); ";
    }
    if (in.has("prefetch")) return std::string(kN) + "work(1); ";
    if (in.has("tensor") || in.has("multicast::cluster") || in.mods.size() < 4) throw Unsupported{in.text};
    const std::string dst_space = in.mods[2];
    need(in, 3);
    const std::string size = "static_cast<uint32_t>(" + read(in.operands[2]) + ")";
    if (dst_space.rfind("shared", 0) == 0 && in.has("global") && in.has("mbarrier::complete_tx::bytes")) {
      need(in, 4);
      return std::string(kN) + "tma_load(" + address(in.operands[0]) + ", " + address(in.operands[1]) + ", " + size +
             ", " + address(in.operands[3]) + ", symsim_site); ";
    }
    if (dst_space == "global" && in.has("bulk_group"))
      return std::string(kN) + "tma_store(" + address(in.operands[0]) + ", " + address(in.operands[1]) + ", " + size +
             ", symsim_site); ";
    throw Unsupported{in.text};
  }

  // bar.sync / barrier.sync{.aligned} id{, threads}: the CTA's named barrier `id` (all live
  // threads when no count is given). bar.arrive and reductions are outside the subset.
  std::string named_barrier(const Instr& in) {
    if (!(in.has("sync") || (in.opcode == "bar" && in.mods.empty())) || in.has("red") || in.has("arrive"))
      throw Unsupported{in.text};
    need(in, 1);
    const std::string count = in.operands.size() > 1 ? "static_cast<uint32_t>(" + read(in.operands[1]) + ")" : "0u";
    return std::string(kN) + "cta_barrier(static_cast<uint32_t>(" + read(in.operands[0]) + "), " + count + ", symsim_site); ";
  }

  std::string setp(const Instr& in) {
    need(in, 3);
    static const std::map<std::string, std::string> cmp = {{"eq", "=="}, {"ne", "!="}, {"lt", "<"},
                                                           {"le", "<="}, {"gt", ">"},  {"ge", ">="}};
    if (in.mods.size() < 2 || !cmp.count(in.mods[0])) throw Unsupported{in.text};
    bool is_signed = false;
    const uint32_t bytes = type_bytes(in, &is_signed);
    auto value = [&](const std::string& o) {
      const std::string v = is_signed ? std::string(kX) + "sext(" + read(o) + ", " + std::to_string(bytes) + ")" : read(o);
      const std::string mask = bytes >= 8 ? v : "(" + v + " & ((1ull << " + std::to_string(8 * bytes) + ") - 1))";
      return is_signed ? "static_cast<int64_t>(" + v + ")" : mask;
    };
    return write(in.operands[0], "static_cast<uint64_t>(" + value(in.operands[1]) + " " + cmp.at(in.mods[0]) + " " +
                                     value(in.operands[2]) + ")");
  }

  const AsmStatement& m_asm;
  int m_unique;
  std::set<std::string> m_regs;
  std::set<std::string> m_declared;
};

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' || c == '\t' ? ' ' : c;
  }
  return out;
}

}  // namespace

std::string translate_asm(const AsmStatement& a, int unique) {
  std::string why;
  const std::string code = translate_asm_or_why(a, unique, why);
  return code.empty() ? unsupported_assert(why, "sizeof(char) == 0") : code;
}

std::string translate_asm_or_why(const AsmStatement& a, int unique, std::string& unsupported) {
  try {
    return Translator(a, unique).run();
  } catch (const Unsupported& u) {
    unsupported = trim(u.what);
    return "";
  }
}

std::string unsupported_assert(const std::string& what, const std::string& condition) {
  return "static_assert(" + condition + ", \"symsim-nvcc: unsupported inline PTX instruction: " + escape(what) + "\")";
}

}  // namespace symsim::rewrite

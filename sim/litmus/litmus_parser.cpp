// Parser for herd-style PTX litmus files:
//   PTX name
//   "optional comments"
//   { x=0; y @ surface aliases x; P1:r0=0; }
//    P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
//    st.weak x, 1   | ld.acquire.gpu r1, y ;
//   exists (P1:r1 == 1 /\ x == 1)
#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "sim/litmus/litmus_instr.h"
#include "sim/litmus/litmus_test.h"
#include "sim/litmus/litmus_text.h"

namespace symsim::litmus {

namespace {

class FileParser {
 public:
  FileParser(const std::string& text, const std::string& path) : text_(text) { t_.path = path; }

  ParseResult parse() {
    ParseResult r;
    try {
      const size_t open = header();
      const size_t close = text_.find('}', open);
      if (close == std::string::npos) throw std::runtime_error("missing '}' after the initial state");
      init_state(text_.substr(open + 1, close - open - 1));
      program_and_condition(text_.substr(close + 1));
      r.ok = true;
      r.test = std::move(t_);
    } catch (const std::exception& e) {
      r.error = e.what();
    }
    return r;
  }

 private:
  // First line "PTX name"; then comments (quoted, maybe over several lines) until '{'.
  size_t header() {
    const size_t eol = std::min(text_.find('\n'), text_.size());
    std::istringstream first(text_.substr(0, eol));
    std::string arch;
    first >> arch;
    if (arch != "PTX" && arch != "ptx") throw std::runtime_error("not a PTX litmus test (first word '" + arch + "')");
    std::getline(first, t_.name);
    t_.name = trim(t_.name);
    bool quoted = false;
    for (size_t i = eol; i < text_.size(); ++i) {
      if (text_[i] == '"') quoted = !quoted;
      if (text_[i] == '{' && !quoted) return i;
    }
    throw std::runtime_error("missing '{' with the initial state");
  }

  int addr_of(const std::string& name) {
    auto it = t_.addr_ids.find(name);
    if (it != t_.addr_ids.end()) return it->second;
    const int id = static_cast<int>(t_.program.addrs.size());
    t_.program.addrs.push_back(ptx::Address{name, id, id});
    t_.addr_ids[name] = id;
    return id;
  }

  void init_state(const std::string& body) {
    std::string flat = body;
    std::replace(flat.begin(), flat.end(), '\n', ';');
    static const std::regex alias(R"(^([A-Za-z_]\w*)\s*@\s*(\w+)\s+aliases\s+([A-Za-z_]\w*)$)");
    static const std::regex reg(R"(^P?(\d+)\s*:\s*r(\d+)\s*=\s*(-?\d+)$)");
    static const std::regex loc(R"(^([A-Za-z_]\w*)\s*=\s*(-?\d+)$)");
    for (const std::string& piece : split(flat, ';')) {
      const std::string d = trim(piece);
      std::smatch m;
      if (d.empty()) continue;
      if (std::regex_match(d, m, alias)) {
        define_alias(m[1], m[2], m[3]);
      } else if (std::regex_match(d, m, reg)) {
        reg_init_[std::stoi(m[1])][std::stoi(m[2])] = std::stoll(m[3]);
      } else if (std::regex_match(d, m, loc)) {
        const int id = addr_of(m[1]);
        t_.program.init_value[t_.program.addrs[id].physical] = std::stoll(m[2]);
      } else {
        throw std::runtime_error("unsupported initial-state entry '" + d + "'");
      }
    }
  }

  void define_alias(const std::string& name, const std::string& proxy, const std::string& target) {
    if (t_.addr_ids.count(name)) throw std::runtime_error("alias '" + name + "' already defined");
    auto tgt = t_.addr_ids.find(target);
    if (tgt == t_.addr_ids.end()) throw std::runtime_error("alias of unknown location '" + target + "'");
    if (proxy != "generic" && proxy != "surface" && proxy != "texture" && proxy != "constant") {
      throw std::runtime_error("unknown proxy '" + proxy + "'");
    }
    const ptx::Address target_addr = t_.program.addrs[tgt->second];
    const int id = addr_of(name);
    // A generic alias is a new generic address; a proxy alias maps to its target's.
    t_.program.addrs[id].physical = target_addr.physical;
    t_.program.addrs[id].generic = proxy == "generic" ? id : target_addr.generic;
  }

  void program_and_condition(const std::string& rest) {
    static const std::regex keyword(R"((~\s*)?\b(exists|forall)\b)");
    std::smatch m;
    if (!std::regex_search(rest, m, keyword)) throw std::runtime_error("missing exists/~exists/forall condition");
    t_.quantifier = m[2] == "forall" ? Quantifier::Forall
                    : m[1].matched   ? Quantifier::NotExists
                                     : Quantifier::Exists;
    program(rest.substr(0, m.position(0)));
    t_.condition = parse_condition(rest.substr(m.position(0) + m.length(0)));
    for (const Term& v : condition_variables(t_.condition)) {
      if (v.kind == Term::Kind::Register && v.thread >= static_cast<int>(t_.program.threads.size())) {
        throw std::runtime_error("condition names missing thread P" + std::to_string(v.thread));
      }
      if (v.kind == Term::Kind::Location && !t_.addr_ids.count(v.location)) {
        throw std::runtime_error("condition names unknown location '" + v.location + "'");
      }
    }
  }

  void program(const std::string& text) {
    std::vector<std::string> rows = split(text, ';');
    size_t r = 0;
    while (r < rows.size() && trim(rows[r]).empty()) ++r;
    if (r == rows.size()) throw std::runtime_error("missing thread header row");
    threads(rows[r]);
    const size_t n = t_.program.threads.size();
    std::vector<std::vector<ParsedInstr>> cells(n);
    auto addr = [this](const std::string& name) { return addr_of(name); };
    for (++r; r < rows.size(); ++r) {
      if (trim(rows[r]).empty()) continue;
      std::vector<std::string> cols = split(rows[r], '|');
      for (size_t c = n; c < cols.size(); ++c) {
        if (!trim(cols[c]).empty()) throw std::runtime_error("more columns than threads: '" + trim(rows[r]) + "'");
      }
      for (size_t c = 0; c < n && c < cols.size(); ++c) cells[c].push_back(parse_instruction(cols[c], addr));
    }
    for (size_t c = 0; c < n; ++c) thread_code(c, cells[c]);
  }

  void threads(const std::string& row) {
    static const std::regex place(R"(^P(\d+)@cta(\d+),gpu(\d+)$)");
    for (const std::string& col : split(row, '|')) {
      std::string s = col;
      s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char ch) { return std::isspace(ch); }), s.end());
      std::smatch m;
      if (!std::regex_match(s, m, place)) throw std::runtime_error("bad thread header '" + trim(col) + "'");
      const int id = std::stoi(m[1]);
      if (id != static_cast<int>(t_.program.threads.size())) throw std::runtime_error("threads must be P0, P1, ...");
      ptx::ThreadCode tc;
      tc.place = ptx::Placement{id, std::stoi(m[2]), std::stoi(m[3])};
      tc.reg_init = reg_init_[id];
      t_.program.threads.push_back(tc);
    }
    for (const auto& [thread, regs] : reg_init_) {
      if (thread >= static_cast<int>(t_.program.threads.size())) {
        throw std::runtime_error("initial state names missing thread P" + std::to_string(thread));
      }
    }
  }

  void thread_code(size_t thread, const std::vector<ParsedInstr>& cells) {
    std::map<std::string, int> labels;  // label -> index of the instruction after it
    std::vector<ParsedInstr> kept;
    for (const ParsedInstr& p : cells) {
      switch (p.status) {
        case ParsedInstr::Status::Empty: break;
        case ParsedInstr::Status::Label: labels[p.label] = static_cast<int>(kept.size()); break;
        case ParsedInstr::Status::Error: throw std::runtime_error(p.detail);
        case ParsedInstr::Status::Unsupported:
          if (std::find(t_.unsupported.begin(), t_.unsupported.end(), p.detail) == t_.unsupported.end()) {
            t_.unsupported.push_back(p.detail);
          }
          kept.push_back(p);
          break;
        case ParsedInstr::Status::Instruction: kept.push_back(p); break;
      }
    }
    std::vector<ptx::Instr>& code = t_.program.threads[thread].code;
    for (ParsedInstr& p : kept) {
      if (p.instr.kind == ptx::OpKind::Branch || p.instr.kind == ptx::OpKind::Jump) {
        if (p.status == ParsedInstr::Status::Instruction) {
          auto l = labels.find(p.label);
          if (l == labels.end()) throw std::runtime_error("unknown label '" + p.label + "'");
          p.instr.target = l->second;
        }
      }
      code.push_back(p.instr);
    }
  }

  const std::string& text_;
  LitmusTest t_;
  std::map<int, std::map<int, int64_t>> reg_init_;
};

}  // namespace

ParseResult parse_litmus_text(const std::string& text, const std::string& path) {
  return FileParser(text, path).parse();
}

ParseResult parse_litmus_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ParseResult r;
    r.error = "cannot read " + path;
    return r;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_litmus_text(ss.str(), path);
}

}  // namespace symsim::litmus

#include "sim/litmus/litmus_condition.h"

#include <cctype>
#include <stdexcept>

namespace symsim::litmus {

std::string Term::name() const {
  switch (kind) {
    case Kind::Register: return "P" + std::to_string(thread) + ":r" + std::to_string(reg);
    case Kind::Location: return location;
    case Kind::Constant: return std::to_string(value);
  }
  return "?";
}

const char* to_string(Quantifier q) {
  switch (q) {
    case Quantifier::Exists: return "exists";
    case Quantifier::NotExists: return "~exists";
    case Quantifier::Forall: return "forall";
  }
  return "?";
}

namespace {

// Recursive-descent parser over the raw text; whitespace is insignificant.
class CondParser {
 public:
  explicit CondParser(const std::string& text) : s_(text) {}

  Cond parse() {
    Cond c = parse_or();
    skip_space();
    if (pos_ != s_.size()) fail("unexpected text");
    return c;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("condition: " + what + " at '" + s_.substr(pos_, 20) + "'");
  }
  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(const std::string& tok) {
    skip_space();
    if (s_.compare(pos_, tok.size(), tok) != 0) return false;
    pos_ += tok.size();
    return true;
  }
  bool word_ahead(const std::string& w) {
    skip_space();
    if (s_.compare(pos_, w.size(), w) != 0) return false;
    const size_t end = pos_ + w.size();
    return end == s_.size() || !(std::isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '_');
  }

  Cond parse_or() {
    Cond first = parse_and();
    if (!peek_or()) return first;
    Cond c;
    c.op = Cond::Op::Or;
    c.kids.push_back(first);
    while (eat("\\/")) c.kids.push_back(parse_and());
    return c;
  }
  bool peek_or() {
    skip_space();
    return s_.compare(pos_, 2, "\\/") == 0;
  }
  Cond parse_and() {
    Cond first = parse_unary();
    skip_space();
    if (s_.compare(pos_, 2, "/\\") != 0) return first;
    Cond c;
    c.op = Cond::Op::And;
    c.kids.push_back(first);
    while (eat("/\\")) c.kids.push_back(parse_unary());
    return c;
  }
  Cond parse_unary() {
    if (eat("~") || word_ahead("not")) {
      if (word_ahead("not")) pos_ += 3;
      Cond c;
      c.op = Cond::Op::Not;
      c.kids.push_back(parse_unary());
      return c;
    }
    if (eat("(")) {
      Cond c = parse_or();
      if (!eat(")")) fail("missing ')'");
      return c;
    }
    if (word_ahead("true")) {
      pos_ += 4;
      return Cond{Cond::Op::True, {}, {}, {}};
    }
    if (word_ahead("false")) {
      pos_ += 5;
      return Cond{Cond::Op::False, {}, {}, {}};
    }
    Cond c;
    c.lhs = parse_term();
    if (eat("!=")) {
      c.op = Cond::Op::NotEqual;
    } else if (eat("==") || eat("=")) {
      c.op = Cond::Op::Equal;
    } else {
      fail("expected '==' or '!='");
    }
    c.rhs = parse_term();
    return c;
  }
  Term parse_term() {
    skip_space();
    Term t;
    const size_t start = pos_;
    if (pos_ < s_.size() && (s_[pos_] == '-' || std::isdigit(static_cast<unsigned char>(s_[pos_])))) {
      ++pos_;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      const std::string num = s_.substr(start, pos_ - start);
      if (eat(":")) return register_term(std::stoi(num));
      t.kind = Term::Kind::Constant;
      t.value = std::stoll(num);
      return t;
    }
    std::string id = identifier();
    const size_t after_id = pos_;
    if (id.size() > 1 && id[0] == 'P' && std::isdigit(static_cast<unsigned char>(id[1])) && eat(":")) {
      return register_term(std::stoi(id.substr(1)));
    }
    pos_ = after_id;
    t.kind = Term::Kind::Location;
    t.location = id;
    return t;
  }
  Term register_term(int thread) {
    std::string r = identifier();
    if (r.size() < 2 || r[0] != 'r') fail("expected a register rN");
    Term t;
    t.kind = Term::Kind::Register;
    t.thread = thread;
    t.reg = std::stoi(r.substr(1));
    return t;
  }
  std::string identifier() {
    skip_space();
    const size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    if (pos_ == start) fail("expected a name");
    return s_.substr(start, pos_ - start);
  }

  const std::string& s_;
  size_t pos_ = 0;
};

void collect(const Cond& c, std::vector<Term>& out) {
  auto add = [&out](const Term& t) {
    if (t.kind == Term::Kind::Constant) return;
    for (const Term& o : out) {
      if (o.name() == t.name()) return;
    }
    out.push_back(t);
  };
  if (c.op == Cond::Op::Equal || c.op == Cond::Op::NotEqual) {
    add(c.lhs);
    add(c.rhs);
  }
  for (const Cond& k : c.kids) collect(k, out);
}

}  // namespace

Cond parse_condition(const std::string& text) { return CondParser(text).parse(); }

std::vector<Term> condition_variables(const Cond& c) {
  std::vector<Term> out;
  collect(c, out);
  return out;
}

bool evaluate(const Cond& c, const std::function<int64_t(const Term&)>& value_of) {
  auto val = [&](const Term& t) { return t.kind == Term::Kind::Constant ? t.value : value_of(t); };
  switch (c.op) {
    case Cond::Op::True: return true;
    case Cond::Op::False: return false;
    case Cond::Op::Equal: return val(c.lhs) == val(c.rhs);
    case Cond::Op::NotEqual: return val(c.lhs) != val(c.rhs);
    case Cond::Op::Not: return !evaluate(c.kids.at(0), value_of);
    case Cond::Op::And:
      for (const Cond& k : c.kids) {
        if (!evaluate(k, value_of)) return false;
      }
      return true;
    case Cond::Op::Or:
      for (const Cond& k : c.kids) {
        if (evaluate(k, value_of)) return true;
      }
      return false;
  }
  return false;
}

}  // namespace symsim::litmus

// The CUDA half of symsim-rewrite (cuda_rewrite.h). Replacements keep the line count (the
// newlines of the replaced text follow it, escaped inside a macro body), so file:line of
// diagnostics and of hazard reports stay those of the original source.
#include "tools/cuda_rewrite.h"

#include <cctype>
#include <initializer_list>
#include <map>

#include "tools/ptx_translate.h"

namespace symsim::rewrite {

namespace {

bool ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

int line_of(const std::string& s, size_t pos) {
  int line = 1;
  for (size_t i = 0; i < pos && i < s.size(); ++i) line += s[i] == '\n';
  return line;
}

// The newlines of s[begin, end) as they must follow a one-line replacement.
std::string kept_newlines(const std::string& s, size_t begin, size_t end) {
  std::string out;
  for (size_t i = begin; i < end; ++i)
    if (s[i] == '\n') out += i > begin && s[i - 1] == '\\' ? " \\\n" : "\n";
  return out;
}

size_t skip_space(const std::string& s, size_t i) {
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

// True when the word at i is `word` as a whole identifier.
bool word_at(const std::string& s, size_t i, const std::string& word) {
  return s.compare(i, word.size(), word) == 0 && (i == 0 || !ident(s[i - 1])) &&
         (i + word.size() >= s.size() || !ident(s[i + word.size()]));
}

// `decl` without the given words, each with its parenthesised argument if it has one
// (`__align__(16)`, `__attribute__((...))`).
std::string without_words(const std::string& decl, std::initializer_list<const char*> words) {
  std::string kept;
  for (size_t i = 0; i < decl.size();) {
    bool dropped = false;
    for (const char* w : words) {
      if (!word_at(decl, i, w)) continue;
      i = skip_space(decl, i + std::string(w).size());
      if (i < decl.size() && decl[i] == '(') {
        int d = 0;
        for (; i < decl.size(); ++i) {
          if (decl[i] == '(') ++d;
          if (decl[i] == ')' && --d == 0) break;
        }
        ++i;
      }
      dropped = true;
      break;
    }
    if (!dropped) kept += decl[i++];
  }
  return kept;
}

// The close paren matching the open one at `open` (code only), or npos.
size_t matching_paren(const std::string& s, const std::vector<bool>& code, size_t open) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (!code[i]) continue;
    if (s[i] == '(') ++depth;
    if (s[i] == ')' && --depth == 0) return i;
  }
  return std::string::npos;
}

// Decodes the string literal starting at s[i] == '"'; returns the index after it.
size_t read_literal(const std::string& s, size_t i, std::string& out) {
  ++i;
  while (i < s.size() && s[i] != '"') {
    if (s[i] == '\\' && i + 1 < s.size()) {
      const char e = s[i + 1];
      out += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
      i += 2;
    } else {
      out += s[i++];
    }
  }
  return i + 1;
}

// Splits s[begin, end) at top-level `sep` (code only). An asm statement's operand expressions
// sit in parentheses, so every top-level ':' separates sections (`::: "memory"` too).
std::vector<std::pair<size_t, size_t>> split_top(const std::string& s, const std::vector<bool>& code, size_t begin,
                                                 size_t end, char sep) {
  std::vector<std::pair<size_t, size_t>> parts;
  int depth = 0;
  size_t start = begin;
  for (size_t i = begin; i < end; ++i) {
    if (!code[i]) continue;
    const char c = s[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == sep && depth == 0) {
      parts.emplace_back(start, i);
      start = i + 1;
    }
  }
  parts.emplace_back(start, end);
  return parts;
}

bool parse_operands(const std::string& s, const std::vector<bool>& code, std::pair<size_t, size_t> range,
                    std::vector<AsmOperand>& out, std::string& error) {
  for (auto [b, e] : split_top(s, code, range.first, range.second, ',')) {
    size_t i = skip_space(s, b);
    if (i >= e) continue;
    if (s[i] == '[') i = skip_space(s, s.find(']', i) + 1);  // a symbolic name
    if (i >= e || s[i] != '"') {
      error = "an asm operand without a constraint string";
      return false;
    }
    AsmOperand op;
    i = skip_space(s, read_literal(s, i, op.constraint));
    if (i >= e || s[i] != '(') {
      error = "an asm operand without (expression)";
      return false;
    }
    const size_t close = matching_paren(s, code, i);
    op.expr = s.substr(i + 1, close - i - 1);
    out.push_back(op);
  }
  return true;
}

// `#define NAME "text" ...` lines of the file: every value each name is given (in any #if
// branch), for asm templates that splice such a macro with literals (DeepEP's LD_NC_FUNC).
std::map<std::string, std::vector<std::string>> string_macros(const std::string& s) {
  std::map<std::string, std::vector<std::string>> out;
  for (size_t at = 0; at < s.size();) {
    size_t end = s.find('\n', at);
    if (end == std::string::npos) end = s.size();
    size_t i = skip_space(s, at);
    if (i < end && s[i] == '#') {
      i = skip_space(s, i + 1);
      if (word_at(s, i, "define")) {
        i = skip_space(s, i + 6);
        const size_t name_begin = i;
        while (i < end && ident(s[i])) ++i;
        const std::string name = s.substr(name_begin, i - name_begin);
        std::string value;
        bool literal = i < end && (s[i] == ' ' || s[i] == '\t');
        for (i = skip_space(s, i); literal && i < end && s[i] == '"';) i = skip_space(s, read_literal(s, i, value));
        if (literal && !name.empty() && i >= end && !value.empty()) out[name].push_back(value);
      }
    }
    at = end + 1;
  }
  return out;
}

std::string cxx_literal(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? std::string("\\n") : c == '\t' ? std::string("\\t") : std::string(1, c);
  }
  return out + "\"";
}

// An asm template spliced from macros and literals: each combination of the values the file
// gives its macros is translated, and the compiler picks the one the macros really expand to
// (an unseen value or an unsupported instruction in the chosen one is a build error).
std::string translate_spliced(const AsmStatement& base, const std::vector<std::pair<bool, std::string>>& pieces,
                              const std::string& spelled, const std::map<std::string, std::vector<std::string>>& macros,
                              int& unique) {
  std::vector<std::string> texts = {""}, names;
  for (const auto& [is_macro, text] : pieces) {
    if (!is_macro) {
      for (std::string& t : texts) t += text;
      continue;
    }
    names.push_back(text);
    std::vector<std::string> next;
    for (const std::string& t : texts)
      for (const std::string& v : macros.at(text)) next.push_back(t + v);
    texts.swap(next);
  }
  std::string which = "::symsim::cuda::ptx_asm::which_text(" + spelled;
  for (const std::string& t : texts) which += ", " + cxx_literal(t);
  std::string out = "do { constexpr int symsim_which = " + which + "); static_assert(symsim_which >= 0, " +
                    cxx_literal("symsim-nvcc: the asm template uses a macro value no #define of this file gives") + "); ";
  for (size_t k = 0; k < texts.size(); ++k) {
    AsmStatement a = base;
    a.text = texts[k];
    std::string why;
    std::string code = translate_asm_or_why(a, unique++, why);
    if (code.empty()) code = unsupported_assert(why, "symsim_which != " + std::to_string(k));
    out += std::string(k ? "else " : "") + "if constexpr (symsim_which == " + std::to_string(k) + ") { " + code + "; } ";
  }
  return out + "} while (0)";
}

}  // namespace

bool rewrite_asm_statements(std::string& s, const std::string& file, std::string& error) {
  int unique = 0;
  const auto macros = string_macros(s);
  for (size_t at = 0;;) {
    const std::vector<bool> code = code_mask(s);
    size_t kw = std::string::npos, after = 0;
    for (size_t i = at; i < s.size() && kw == std::string::npos; ++i) {
      if (!code[i] || (s[i] != 'a' && s[i] != '_')) continue;
      for (const char* w : {"asm", "__asm__", "__asm"}) {
        if (word_at(s, i, w)) {
          kw = i;
          after = i + std::string(w).size();
          break;
        }
      }
    }
    if (kw == std::string::npos) return true;
    size_t i = skip_space(s, after);
    for (bool more = true; more;) {
      more = false;
      for (const char* q : {"volatile", "__volatile__", "__volatile", "inline", "goto"}) {
        if (word_at(s, i, q)) {
          if (std::string(q) == "goto") {
            error = file + ":" + std::to_string(line_of(s, kw)) + ": asm goto is not supported";
            return false;
          }
          i = skip_space(s, i + std::string(q).size());
          more = true;
        }
      }
    }
    if (i >= s.size() || s[i] != '(') {  // `asm` used as a name
      at = after;
      continue;
    }
    const size_t close = matching_paren(s, code, i);
    const std::string where = file + ":" + std::to_string(line_of(s, kw));
    if (close == std::string::npos) {
      error = where + ": an asm statement without its closing parenthesis";
      return false;
    }
    AsmStatement a;
    size_t j = skip_space(s, i + 1);
    std::vector<std::pair<bool, std::string>> pieces;  // (is a macro, literal text or macro name)
    bool spliced = false;
    while (j < close && (s[j] == '"' || ident(s[j]))) {
      std::string text;
      const bool is_macro = s[j] != '"';
      if (!is_macro) {
        j = skip_space(s, read_literal(s, j, text));
      } else {
        const size_t b = j;
        while (j < close && ident(s[j])) ++j;
        text = s.substr(b, j - b);
        j = skip_space(s, j);
        if (!macros.count(text)) {
          error = where + ": the asm template uses " + text +
                  ", which is no `#define " + text + " \"...\"` of this file (symsim-nvcc translates the template at build time)";
          return false;
        }
        spliced = true;
      }
      a.text += text;
      pieces.emplace_back(is_macro, text);
    }
    if (j < close && s[j] != ':') {
      error = where + ": the asm template must be string literals (symsim-nvcc translates it at build time)";
      return false;
    }
    if (j < close) {
      a.has_operands = true;
      const auto sections = split_top(s, code, j + 1, close, ':');
      if (!parse_operands(s, code, sections[0], a.outputs, error) ||
          (sections.size() > 1 && !parse_operands(s, code, sections[1], a.inputs, error))) {
        error = where + ": " + error;
        return false;
      }
    }
    std::string translated;
    if (spliced) {
      std::string spelled;
      for (const auto& [is_macro, text] : pieces) spelled += (is_macro ? text : cxx_literal(text)) + " ";
      translated = translate_spliced(a, pieces, spelled, macros, unique);
    } else {
      translated = translate_asm(a, unique++);
    }
    const std::string replacement = translated + kept_newlines(s, kw, close + 1);
    s.replace(kw, close + 1 - kw, replacement);
    at = kw + replacement.size();
  }
}

bool rewrite_extern_shared(std::string& s, const std::string& file, std::string& error) {
  for (size_t at = 0;;) {
    const std::vector<bool> code = code_mask(s);
    size_t kw = s.find("extern", at);
    while (kw != std::string::npos &&
           (!code[kw] || !word_at(s, kw, "extern") || !word_at(s, skip_space(s, kw + 6), "__shared__")))
      kw = s.find("extern", kw + 6);
    if (kw == std::string::npos) return true;
    const size_t semi = s.find(';', kw);
    const std::string where = file + ":" + std::to_string(line_of(s, kw));
    int depth = 0;
    for (size_t i = 0; i < kw; ++i)
      if (code[i]) depth += s[i] == '{' ? 1 : s[i] == '}' ? -1 : 0;
    if (semi == std::string::npos || depth == 0) {
      error = where + ": extern __shared__ is supported inside a function only";
      return false;
    }
    // Drop extern, __shared__, __align__(n), alignas(n), __attribute__((...)).
    const std::string kept =
        without_words(s.substr(kw + 6, semi - kw - 6), {"__shared__", "__align__", "alignas", "__attribute__"});
    size_t end = kept.find_last_not_of(" \t\r\n");
    if (end == std::string::npos || kept[end] != ']') {
      error = where + ": extern __shared__ declares an array T name[]";
      return false;
    }
    end = kept.rfind('[', end);
    size_t name_end = kept.find_last_not_of(" \t\r\n", end - 1) + 1, name_begin = name_end;
    while (name_begin > 0 && ident(kept[name_begin - 1])) --name_begin;
    const std::string name = kept.substr(name_begin, name_end - name_begin);
    std::string type = kept.substr(0, name_begin);
    type = type.substr(type.find_first_not_of(" \t\r\n"));
    type = type.substr(0, type.find_last_not_of(" \t\r\n") + 1);
    const std::string replacement = type + "* const " + name + " = static_cast<" + type +
                                    "*>(::symsim::cuda::dynamic_smem())" + kept_newlines(s, kw, semi);
    s.replace(kw, semi - kw, replacement);
    at = kw + replacement.size();
  }
}

namespace {

// True when the code at `pos` sits inside a function body (some enclosing brace opens
// neither a namespace nor an `extern "C"` block).
bool inside_function(const std::string& s, const std::vector<bool>& code, size_t pos) {
  std::vector<bool> scope_is_function;
  for (size_t i = 0; i < pos; ++i) {
    if (!code[i]) continue;
    if (s[i] == '}' && !scope_is_function.empty()) scope_is_function.pop_back();
    if (s[i] != '{') continue;
    size_t b = i;  // the statement before the brace
    while (b > 0 && (code[b - 1] ? s[b - 1] != ';' && s[b - 1] != '{' && s[b - 1] != '}' : true)) --b;
    std::string head;  // its code, without comments
    for (size_t k = b; k < i; ++k)
      if (code[k]) head += s[k];
    const bool is_namespace = head.find("namespace") != std::string::npos || head.find("extern") != std::string::npos;
    scope_is_function.push_back(!is_namespace);
  }
  for (bool f : scope_is_function)
    if (f) return true;
  return false;
}

}  // namespace

bool rewrite_static_shared(std::string& s, const std::string& file, std::string& error) {
  int unique = 0;
  for (size_t at = 0;;) {
    const std::vector<bool> code = code_mask(s);
    size_t kw = s.find("__shared__", at);
    while (kw != std::string::npos && (!code[kw] || !word_at(s, kw, "__shared__"))) kw = s.find("__shared__", kw + 10);
    if (kw == std::string::npos) return true;
    const std::string where = file + ":" + std::to_string(line_of(s, kw));
    // Only a declaration that starts with __shared__ (or static/volatile/__align__ before it).
    size_t semi = kw;
    for (int depth = 0; semi < s.size(); ++semi) {  // __align__(n) and [dims] parentheses are skipped
      if (!code[semi]) continue;
      if (s[semi] == '(') ++depth;
      if (s[semi] == ')' && --depth < 0) break;
      if (depth == 0 && (s[semi] == ';' || s[semi] == '{')) break;
    }
    if (semi >= s.size() || s[semi] != ';') {  // a macro's use of the word, not a declaration
      at = kw + 10;
      continue;
    }
    if (!inside_function(s, code, kw)) {
      error = where + ": a __shared__ variable at namespace scope is not per CTA in a kernel library; declare it "
                      "inside the kernel";
      return false;
    }
    size_t decl_begin = kw;  // qualifiers written before __shared__ belong to the type
    while (decl_begin > 0 && code[decl_begin - 1] && s[decl_begin - 1] != ';' && s[decl_begin - 1] != '{' &&
           s[decl_begin - 1] != '}' && s[decl_begin - 1] != ')' && s[decl_begin - 1] != ':')
      --decl_begin;
    decl_begin = skip_space(s, decl_begin);
    const std::string kept = without_words(s.substr(decl_begin, semi - decl_begin),
                                           {"__shared__", "__align__", "alignas", "__attribute__", "static"});
    if (kept.find('=') != std::string::npos) {
      error = where + ": a __shared__ variable cannot have an initializer";
      return false;
    }
    // `T a[N], b[M]`: the type is what precedes the first declarator's name.
    std::vector<std::string> declarators;
    int depth = 0;
    size_t from = 0;
    for (size_t i = 0; i <= kept.size(); ++i) {
      const char c = i < kept.size() ? kept[i] : ',';
      depth += c == '[' || c == '(' || c == '<' ? 1 : c == ']' || c == ')' || c == '>' ? -1 : 0;
      if (c == ',' && depth == 0) {
        declarators.push_back(kept.substr(from, i - from));
        from = i + 1;
      }
    }
    std::string type, replacement;
    for (size_t d = 0; d < declarators.size(); ++d) {
      const std::string& one = declarators[d];
      const size_t bracket = one.find('[');
      const size_t name_end = one.find_last_not_of(" \t\r\n", bracket == std::string::npos ? std::string::npos : bracket - 1) + 1;
      size_t name_begin = name_end;
      while (name_begin > 0 && ident(one[name_begin - 1])) --name_begin;
      const std::string name = one.substr(name_begin, name_end - name_begin);
      if (d == 0) type = one.substr(0, name_begin);
      const std::string dims = bracket == std::string::npos ? "" : one.substr(bracket);
      if (name.empty() || type.find_first_not_of(" \t\r\n") == std::string::npos ||
          (d > 0 && one.substr(0, name_begin).find_first_not_of(" \t\r\n") != std::string::npos)) {
        error = where + ": a __shared__ declaration symsim-rewrite cannot read";
        return false;
      }
      // One object per declarator (and per template instantiation: the tag is a local static),
      // kept per CTA by the shim.
      const std::string n = std::to_string(unique++);
      const std::string alias = "symsim_shared_t" + n, tag = "symsim_shared_k" + n;
      std::string flat;
      for (char c : type + " " + dims) flat += c == '\n' || c == '\r' ? ' ' : c;
      replacement += (d ? "; " : "") + std::string("using ") + alias + " = " + flat + "; static const char " + tag +
                     " = 0; " + alias + "& " + name + " = *static_cast<" + alias + "*>(::symsim::cuda::static_smem(&" +
                     tag + ", sizeof(" + alias + "), alignof(" + alias + ") < 16 ? 16 : alignof(" + alias + ")))";
    }
    replacement += kept_newlines(s, decl_begin, semi);
    s.replace(decl_begin, semi - decl_begin, replacement);
    at = decl_begin + replacement.size();
  }
}

bool strip_launch_casts(std::string& s) {
  // cudaLaunchCooperativeKernel((void*)kernel, ...): the shim's launch needs the kernel's type
  // to copy its arguments out of `void** args`, so the cast to void* goes.
  for (const char* call : {"cudaLaunchCooperativeKernel", "cudaLaunchKernel"}) {
    const std::string name = call;
    for (size_t at = s.find(name); at != std::string::npos; at = s.find(name, at + name.size())) {
      const std::vector<bool> code = code_mask(s);
      if (!code[at] || !word_at(s, at, name)) continue;
      const size_t open = skip_space(s, at + name.size());
      if (open >= s.size() || s[open] != '(') continue;
      const size_t arg = skip_space(s, open + 1);
      for (const char* cast : {"(void*)", "(void *)", "(const void*)", "(const void *)"}) {
        if (s.compare(arg, std::string(cast).size(), cast) == 0) {
          s.erase(arg, std::string(cast).size());
          break;
        }
      }
    }
  }
  // cfg.gridDim / cfg->blockDim (cudaLaunchConfig_t): the builtins are macros in the shim.
  for (const char* field : {"gridDim", "blockDim"}) {
    const std::string f = field, renamed = f == "gridDim" ? "symsim_grid_dim" : "symsim_block_dim";
    for (size_t at = s.find(f); at != std::string::npos; at = s.find(f, at + 1)) {
      const std::vector<bool> code = code_mask(s);
      if (!code[at] || !word_at(s, at, f)) continue;
      size_t before = at;
      while (before > 0 && std::isspace(static_cast<unsigned char>(s[before - 1]))) --before;
      const bool member = before > 0 && (s[before - 1] == '.' || (before > 1 && s[before - 1] == '>' && s[before - 2] == '-'));
      if (member) s.replace(at, f.size(), renamed);
    }
  }
  return true;
}

}  // namespace symsim::rewrite

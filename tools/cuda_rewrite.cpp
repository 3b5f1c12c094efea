// The CUDA half of symsim-rewrite (cuda_rewrite.h). Replacements keep the line count (the
// newlines of the replaced text follow it, escaped inside a macro body), so file:line of
// diagnostics and of hazard reports stay those of the original source.
#include "cuda_rewrite.h"

#include <cctype>

#include "ptx_translate.h"

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

}  // namespace

bool rewrite_asm_statements(std::string& s, const std::string& file, std::string& error) {
  int unique = 0;
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
    while (j < close && s[j] == '"') j = skip_space(s, read_literal(s, j, a.text));
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
    const std::string replacement = translate_asm(a, unique++) + kept_newlines(s, kw, close + 1);
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
    std::string decl = s.substr(kw + 6, semi - kw - 6), kept;
    for (size_t i = 0; i < decl.size();) {
      bool dropped = false;
      for (const char* w : {"__shared__", "__align__", "alignas", "__attribute__"}) {
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

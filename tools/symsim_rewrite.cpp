// symsim-rewrite IN OUT: prepares an unmodified CANN-style source for the host compiler.
// symsim-rewrite --cuda IN OUT: the same for a CUDA source (tools/symsim-nvcc): launches become
// CUDA shim launches, inline PTX and `extern __shared__` are translated (cuda_rewrite.h).
// symsim-rewrite --info OUT --name NAME [--doc TEXT] [--argv TEMPLATE] [--max-blocks N]
//                [--platform nvidia] [--arg NAME:MIN:MAX:DEFAULT:DOC]...: writes the kernel
// library's description (symsim/kernel_library.h) for `symsim run --kernel-lib`.
//   kernel<<<block_dim, l2ctrl, stream>>>(args...)
//     -> ::symsim::shim::chevron_launch("kernel", &kernel, block_dim, l2ctrl, stream)(args...)
//     (a callee pasted with ## in a macro gets nullptr for its name: the shim looks it up)
//   int main(...)  -> int symsim_host_main(...), plus a C entry point the loader calls
// Comments, string and character literals are left alone; line numbers are kept and a #line
// directive names the original file, so diagnostics and __FILE__ point at it.
#include <cctype>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tools/cuda_rewrite.h"

namespace symsim::rewrite {

// Marks which bytes are code (not comment or literal).
std::vector<bool> code_mask(const std::string& s) {
  std::vector<bool> code(s.size(), true);
  size_t i = 0;
  while (i < s.size()) {
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') code[i++] = false;
    } else if (s.compare(i, 2, "/*") == 0) {
      const size_t end = s.find("*/", i + 2);
      const size_t stop = end == std::string::npos ? s.size() : end + 2;
      while (i < stop) code[i++] = false;
    } else if (s[i] == '"' || s[i] == '\'') {
      const char quote = s[i];
      // A raw string R"delim(...)delim".
      if (quote == '"' && i > 0 && s[i - 1] == 'R') {
        const size_t open = s.find('(', i);
        const std::string delim = ")" + s.substr(i + 1, open - i - 1) + "\"";
        const size_t end = s.find(delim, open);
        const size_t stop = end == std::string::npos ? s.size() : end + delim.size();
        while (i < stop) code[i++] = false;
        continue;
      }
      code[i++] = false;
      while (i < s.size() && s[i] != quote && s[i] != '\n') {
        if (s[i] == '\\') code[i++] = false;
        if (i < s.size()) code[i++] = false;
      }
      if (i < s.size()) code[i++] = false;
    } else {
      ++i;
    }
  }
  return code;
}

}  // namespace symsim::rewrite

namespace {

using symsim::rewrite::code_mask;

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Start of the callee expression that ends just before `end` (an identifier, possibly
// qualified and with template arguments).
size_t callee_start(const std::string& s, size_t end) {
  size_t i = end;
  while (i > 0 && std::isspace(static_cast<unsigned char>(s[i - 1]))) --i;
  for (;;) {
    if (i > 0 && s[i - 1] == '>') {  // template arguments
      int depth = 0;
      while (i > 0) {
        --i;
        if (s[i] == '>') ++depth;
        if (s[i] == '<' && --depth == 0) break;
      }
    }
    while (i > 0 && ident_char(s[i - 1])) --i;
    if (i >= 2 && s[i - 1] == ':' && s[i - 2] == ':') {
      i -= 2;
      continue;
    }
    // Token pasting in a macro body: name_##type##_put.
    size_t j = i;
    while (j > 0 && (s[j - 1] == ' ' || s[j - 1] == '\t')) --j;
    if (j >= 2 && s[j - 1] == '#' && s[j - 2] == '#') {
      i = j - 2;
      while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t')) --i;
      continue;
    }
    return i;
  }
}

// Splits the launch configuration at top-level commas.
std::vector<std::string> split_config(const std::string& text) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char c : text) {
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      parts.emplace_back();
      continue;
    }
    parts.back() += c;
  }
  return parts;
}

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  const size_t e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Rewrites every launch; returns how many or -1 (with a message) on a malformed one.
// CANN launches (<<<blocks[, l2ctrl[, stream]]>>>) go to the Ascend shim, CUDA ones
// (<<<grid, block[, smem[, stream]]>>>) to the CUDA shim.
int rewrite_launches(std::string& s, bool cuda, std::string& error) {
  int count = 0;
  for (size_t at = 0;;) {
    const std::vector<bool> code = code_mask(s);
    size_t open = s.find("<<<", at);
    while (open != std::string::npos && !code[open]) open = s.find("<<<", open + 3);
    if (open == std::string::npos) return count;
    const size_t close = s.find(">>>", open + 3);
    if (close == std::string::npos) {
      error = "a <<< launch without >>>";
      return -1;
    }
    const size_t start = callee_start(s, open);
    const std::string callee = trim(s.substr(start, open - start));
    std::vector<std::string> config = split_config(s.substr(open + 3, close - open - 3));
    if (callee.empty() || config.size() < (cuda ? 2u : 1u) || config.size() > (cuda ? 4u : 3u)) {
      error = "cannot parse the launch before <<<" + (callee.empty() ? std::string() : " of " + callee);
      return -1;
    }
    // A callee pasted together in a macro has no spelling yet: the shim names it by its symbol.
    const bool pasted = callee.find("##") != std::string::npos;
    std::string replacement = std::string(cuda ? "::symsim::cuda::chevron_launch(" : "::symsim::shim::chevron_launch(") + (pasted ? std::string("nullptr") : "\"" + callee + "\"") +
                              ", &" + callee;
    for (const std::string& c : config) replacement += ", " + trim(c);
    replacement += ")";
    // Keep the line count: newlines inside the replaced text move to its end.
    for (size_t i = start; i < close + 3; ++i)
      if (s[i] == '\n') replacement += '\n';
    s.replace(start, close + 3 - start, replacement);
    at = start + replacement.size();
    ++count;
  }
}

// Renames `int main(` (code only); true when it did.
bool rename_main(std::string& s) {
  const std::vector<bool> code = code_mask(s);
  for (size_t i = s.find("main"); i != std::string::npos; i = s.find("main", i + 4)) {
    if (!code[i] || (i > 0 && ident_char(s[i - 1])) || (i + 4 < s.size() && ident_char(s[i + 4]))) continue;
    size_t after = i + 4;
    while (after < s.size() && std::isspace(static_cast<unsigned char>(s[after]))) ++after;
    if (after >= s.size() || s[after] != '(') continue;
    size_t before = i;
    while (before > 0 && std::isspace(static_cast<unsigned char>(s[before - 1]))) --before;
    if (before < 3 || s.compare(before - 3, 3, "int") != 0 || (before > 3 && ident_char(s[before - 4]))) continue;
    s.replace(i, 4, "symsim_host_main");
    return true;
  }
  return false;
}

std::string quote(const std::string& v) {
  std::string out = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// --info mode: the C description a kernel library exports.
int write_info(int argc, char** argv) {
  std::string out_path, name, doc, argv_template = "{n_pes} {pe}", max_blocks = "48", platform;
  std::vector<std::vector<std::string>> args;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--info") out_path = value;
    else if (key == "--name") name = value;
    else if (key == "--doc") doc = value;
    else if (key == "--argv") argv_template = value;
    else if (key == "--max-blocks") max_blocks = value;
    else if (key == "--platform") platform = value;
    else if (key == "--arg") {
      std::vector<std::string> f;
      std::stringstream ss(value);
      for (std::string part; f.size() < 4 && std::getline(ss, part, ':');) f.push_back(part);
      std::string rest;
      std::getline(ss, rest);
      f.push_back(rest);
      if (f.size() != 5) {
        std::cerr << "symsim-rewrite: --arg " << value << ": expected NAME:MIN:MAX:DEFAULT:DOC\n";
        return 2;
      }
      args.push_back(f);
    } else {
      std::cerr << "symsim-rewrite: unknown option " << key << "\n";
      return 2;
    }
  }
  if (out_path.empty() || name.empty()) {
    std::cerr << "symsim-rewrite: --info needs OUT and --name\n";
    return 2;
  }
  std::ofstream out(out_path);
  out << "// Generated by symsim-rewrite --info: what `symsim run --kernel-lib` registers.\n"
      << "#include \"symsim/kernel_library.h\"\n\n";
  out << "static const symsim_kernel_library_arg symsim_library_args[] = {\n";
  for (const auto& a : args)
    out << "    {" << quote(a[0]) << ", " << quote(a[4]) << ", " << a[1] << ", " << a[2] << ", " << a[3] << "},\n";
  if (args.empty()) out << "    {nullptr, nullptr, 0, 0, 0},\n";
  out << "};\n\n"
      << "extern \"C\" __attribute__((visibility(\"default\"))) const symsim_kernel_library_info_t* "
         "symsim_kernel_library_info() {\n"
      << "  static const symsim_kernel_library_info_t info{1, " << quote(name) << ", " << quote(doc) << ", "
      << quote(argv_template) << ", " << max_blocks << ", " << args.size() << ", symsim_library_args};\n"
      << "  return &info;\n}\n";
  // The platform family its kernel runs on (the loader's default is ascend).
  if (!platform.empty())
    out << "\nextern \"C\" __attribute__((visibility(\"default\"))) const char* symsim_kernel_library_platform() {\n"
        << "  return " << quote(platform) << ";\n}\n";
  return out ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--info") return write_info(argc, argv);
  const bool cuda = argc > 1 && std::string(argv[1]) == "--cuda";
  if (cuda) {
    --argc;
    ++argv;
  }
  if (argc != 3) {
    std::cerr << "usage: symsim-rewrite [--cuda] IN.cpp OUT.cpp\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "symsim-rewrite: cannot read " << argv[1] << "\n";
    return 2;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  std::string error;
  if (rewrite_launches(text, cuda, error) < 0) {
    std::cerr << argv[1] << ": symsim-rewrite: " << error << "\n";
    return 1;
  }
  if (cuda && (!symsim::rewrite::rewrite_asm_statements(text, argv[1], error) ||
               !symsim::rewrite::rewrite_extern_shared(text, argv[1], error) ||
               !symsim::rewrite::rewrite_static_shared(text, argv[1], error) ||
               !symsim::rewrite::strip_launch_casts(text))) {
    std::cerr << error << ": symsim-rewrite\n";
    return 1;
  }
  const bool has_main = rename_main(text);
  std::ofstream out(argv[2], std::ios::binary);
  if (cuda) out << "#include \"symsim/cuda/inline_ptx.h\"\n";
  out << "#line 1 \"" << argv[1] << "\"\n" << text;
  if (has_main) {
    out << "\n#include \"symsim/kernel_library.h\"\n"
        << "extern \"C\" __attribute__((visibility(\"default\"))) int symsim_kernel_library_main(int argc, char** argv) {\n"
        << "  return ::symsim::shim::call_main(&symsim_host_main, argc, argv);\n}\n";
  }
  return out ? 0 : 2;
}

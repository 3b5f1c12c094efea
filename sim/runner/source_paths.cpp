#include "sim/runner/source_paths.h"

#include <filesystem>

#ifndef SYMSIM_SOURCE_DIR
#define SYMSIM_SOURCE_DIR ""
#endif

namespace symsim {

namespace fs = std::filesystem;

namespace {

bool path_char(char c) {
  return c != ' ' && c != '\t' && c != '\n' && c != '(' && c != ')' && c != '\'' && c != '"' && c != ',' && c != ';';
}

// The file part of "file:line" (the path itself may not hold ':').
std::string file_part(const std::string& path) {
  const size_t colon = path.find(':');
  return colon == std::string::npos ? path : path.substr(0, colon);
}

}  // namespace

const std::string& build_source_root() {
  static const std::string root = [] {
    std::string r = SYMSIM_SOURCE_DIR;
    while (r.size() > 1 && r.back() == '/') r.pop_back();
    return r;
  }();
  return root;
}

std::string source_relative(const std::string& path, const std::string& root) {
  if (root.empty() || path.empty()) return path;
  if (path[0] == '/') {
    if (path.size() > root.size() && path.compare(0, root.size(), root) == 0 && path[root.size()] == '/')
      return path.substr(root.size() + 1);
    return path;
  }
  // "../../kernels/x.cpp": relative to a build folder; the file is the source root's when it
  // is there once the leading "../" are gone.
  size_t skip = 0;
  while (path.compare(skip, 3, "../") == 0) skip += 3;
  while (path.compare(skip, 2, "./") == 0) skip += 2;
  if (skip == 0) return path;
  const std::string rest = path.substr(skip);
  std::error_code ec;
  return fs::is_regular_file(fs::path(root) / file_part(rest), ec) ? rest : path;
}

std::string source_relative_in_text(const std::string& text, const std::string& root) {
  if (root.empty()) return text;
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const bool starts_word = i == 0 || !path_char(text[i - 1]);
    if (starts_word && (text[i] == '/' || text.compare(i, 3, "../") == 0)) {
      size_t end = i;
      while (end < text.size() && path_char(text[end])) ++end;
      out += source_relative(text.substr(i, end - i), root);
      i = end;
    } else {
      out += text[i++];
    }
  }
  return out;
}

}  // namespace symsim

// Symbolising kernel call sites with libdw (elfutils): the module that holds the address, its
// compile unit, the line table, and the chain of inlined calls (DW_TAG_inlined_subroutine with
// its DW_AT_call_file / DW_AT_call_line) that the shim's always-inline headers put between the
// kernel's call and the recorded return address.
#include "symsim/code_site.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace symsim::shim {
namespace {

// `path` without "." and "dir/.." components (DWARF joins relative names to the compilation
// directory; reports print paths under the source tree relative to it).
std::string normalised(const std::string& path) {
  std::vector<std::string> parts;
  size_t i = 0;
  while (i <= path.size()) {
    const size_t j = std::min(path.find('/', i), path.size());
    const std::string part = path.substr(i, j - i);
    if (part == "..") {
      if (!parts.empty() && parts.back() != "..") parts.pop_back();
      else if (path[0] != '/') parts.push_back(part);
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    i = j + 1;
  }
  std::string out = path[0] == '/' ? "/" : "";
  for (size_t k = 0; k < parts.size(); ++k) out += (k ? "/" : "") + parts[k];
  return out;
}

std::string absolute(const char* name, const char* comp_dir) {
  if (name[0] == '/' || !comp_dir) return name;
  return std::string(comp_dir) + "/" + name;
}

bool exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

class Symbolizer {
 public:
  SourceLine lookup(const void* return_address) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_cache.find(return_address);
    if (it != m_cache.end()) return it->second;
    // The call instruction ends just before the return address.
    const Dwarf_Addr pc = reinterpret_cast<Dwarf_Addr>(return_address) - 1;
    Dwfl_Module* module = m_loaded ? dwfl_addrmodule(m_loaded.get(), pc) : nullptr;
    if (!module) module = module_of(pc);
    SourceLine line;
    if (module) line = resolve(module, pc);
    m_cache.emplace(return_address, line);
    return line;
  }

  void note_loaded(const std::string& file, uintptr_t load_bias) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    static const Dwfl_Callbacks callbacks = {dwfl_build_id_find_elf, dwfl_standard_find_debuginfo,
                                             dwfl_offline_section_address, nullptr};
    if (!m_loaded) m_loaded.reset(dwfl_begin(&callbacks));
    if (!m_loaded) return;
    dwfl_report_begin_add(m_loaded.get());
    dwfl_report_elf(m_loaded.get(), file.c_str(), file.c_str(), -1, load_bias, false);
    dwfl_report_end(m_loaded.get(), nullptr, nullptr);
  }

 private:
  struct DwflDeleter {
    void operator()(Dwfl* d) const { dwfl_end(d); }
  };

  // The loaded module holding `pc`; the process's modules are read again when a kernel library
  // was loaded since they were last read.
  Dwfl_Module* module_of(Dwarf_Addr pc) {
    if (m_dwfl) {
      if (Dwfl_Module* m = dwfl_addrmodule(m_dwfl.get(), pc)) return m;
    }
    static const Dwfl_Callbacks callbacks = {dwfl_linux_proc_find_elf, dwfl_standard_find_debuginfo, nullptr,
                                             nullptr};
    m_dwfl.reset(dwfl_begin(&callbacks));
    if (!m_dwfl) return nullptr;
    dwfl_report_begin(m_dwfl.get());
    if (dwfl_linux_proc_report(m_dwfl.get(), ::getpid()) != 0 ||
        dwfl_report_end(m_dwfl.get(), nullptr, nullptr) != 0) {
      m_dwfl.reset();
      return nullptr;
    }
    return dwfl_addrmodule(m_dwfl.get(), pc);
  }

  SourceLine resolve(Dwfl_Module* module, Dwarf_Addr pc) {
    Dwarf_Addr bias = 0;
    Dwarf_Die* cu = dwfl_module_addrdie(module, pc, &bias);
    Dwfl_Line* row = dwfl_module_getsrc(module, pc);
    if (!cu || !row) return {};
    int line = 0;
    const char* name = dwfl_lineinfo(row, nullptr, &line, nullptr, nullptr, nullptr);
    if (!name) return {};
    // Names relative to the compilation directory (a compiler cache may make them so).
    Dwarf_Attribute comp_dir_attr;
    const char* comp_dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &comp_dir_attr));
    const std::string file = absolute(name, comp_dir);
    // The innermost location first, then each inlined call outwards: the first one outside
    // the shim's headers is where the kernel called the shim.
    if (!is_shim_header(file)) return intern(file, line);
    Dwarf_Files* files = nullptr;
    size_t n_files = 0;
    if (dwarf_getsrcfiles(cu, &files, &n_files) != 0) return intern(file, line);
    SourceLine found = intern(file, line);
    // dwarf_getscopes gives the innermost inlined call at pc; past it, it follows where the
    // inlined function was defined, not where it was called, so each next call out is found
    // among the DIEs that hold the current one (dwarf_getscopes_die).
    Dwarf_Die* scopes = nullptr;
    const int n = dwarf_getscopes(cu, pc - bias, &scopes);
    Dwarf_Die call;
    bool have_call = false;
    for (int i = 0; i < n && !have_call; ++i)
      if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine) {
        call = scopes[i];
        have_call = true;
      }
    std::free(scopes);
    while (have_call) {
      Dwarf_Attribute attr;
      Dwarf_Word file_index = 0, call_line = 0;
      if (!dwarf_attr(&call, DW_AT_call_file, &attr) || dwarf_formudata(&attr, &file_index) != 0) break;
      if (!dwarf_attr(&call, DW_AT_call_line, &attr) || dwarf_formudata(&attr, &call_line) != 0) break;
      const char* call_name = dwarf_filesrc(files, file_index, nullptr, nullptr);
      if (!call_name) break;
      const std::string call_file = absolute(call_name, comp_dir);
      found = intern(call_file, static_cast<int>(call_line));
      if (!is_shim_header(call_file)) break;
      have_call = outer_call(&call);
    }
    return found;
  }

  // The inlined call that holds `call` (a shim function inlined into another one): replaces
  // `call` and returns true; false when `call` sits directly in a function.
  static bool outer_call(Dwarf_Die* call) {
    Dwarf_Die* chain = nullptr;
    const int n = dwarf_getscopes_die(call, &chain);  // chain[0] is `call` itself
    bool found = false;
    for (int i = 1; i < n; ++i) {
      const int tag = dwarf_tag(&chain[i]);
      if (tag == DW_TAG_inlined_subroutine) {
        *call = chain[i];
        found = true;
        break;
      }
      if (tag == DW_TAG_subprogram) break;
    }
    std::free(chain);
    return found;
  }

  // A file of the shim's include tree: a directory at or above it holds symsim/shim_core.h.
  // An object compiled in a source tree that is gone since (a ccache hit from a deleted
  // checkout) names files that no longer exist; those are told by the source tree's layout.
  bool is_shim_header(const std::string& file) {
    const std::string path = normalised(file);
    if (!exists(path)) return path.find("/kernels/shim/ascend/include/") != std::string::npos;
    std::string dir = path.substr(0, path.rfind('/') == std::string::npos ? 0 : path.rfind('/'));
    for (int up = 0; up < 4 && !dir.empty(); ++up) {
      auto it = m_shim_dirs.find(dir);
      if (it == m_shim_dirs.end())
        it = m_shim_dirs.emplace(dir, exists(dir + "/symsim/shim_core.h") || exists(dir + "/shim_core.h")).first;
      if (it->second) return true;
      const size_t slash = dir.rfind('/');
      if (slash == std::string::npos) break;
      dir.resize(slash);
    }
    return false;
  }

  SourceLine intern(const std::string& file, int line) {
    return {m_names.insert(normalised(file)).first->c_str(), line};
  }

  std::mutex m_mutex;
  std::unique_ptr<Dwfl, DwflDeleter> m_dwfl;    // the process's modules
  std::unique_ptr<Dwfl, DwflDeleter> m_loaded;  // kernel libraries, from their original files
  std::map<const void*, SourceLine> m_cache;
  std::map<std::string, bool> m_shim_dirs;
  std::set<std::string> m_names;
};

Symbolizer& symbolizer() {
  static Symbolizer s;
  return s;
}

}  // namespace

SourceLine source_line(const void* return_address) {
  if (!return_address) return {};
  return symbolizer().lookup(return_address);
}

void note_loaded_code(const std::string& file, uintptr_t load_bias) { symbolizer().note_loaded(file, load_bias); }

std::string where(CallSite site) {
  const SourceLine l = source_line(site.pc);
  return l.file ? fmt::format("{}:{}", l.file, l.line) : "?";
}

}  // namespace symsim::shim

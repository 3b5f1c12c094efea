// Loading a kernel library (symsim/kernel_library.h): the library describes itself, symsim
// registers a kernel under that name, and each PE's host program runs `main` in its own copy
// of the library (a private file copy, so globals are per PE as they are per process on
// hardware). The program's exit status is its verification: 0 passes.
#include "symsim/kernel_library.h"

#include <dlfcn.h>
#include <getopt.h>
#include <link.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "kernels/registry/kernel_registry.h"
#include "symsim/code_site.h"
#include "symsim/cuda/runtime.h"
#include "symsim/shim_core.h"

namespace symsim::shim {

namespace {

namespace fs = std::filesystem;

using InfoFn = const symsim_kernel_library_info_t* (*)();
using MainFn = int (*)(int, char**);

struct Library {
  std::string path;
  std::string name;
  std::vector<std::string> argv_template;
  bool nvidia = false;  // a CUDA program (tools/symsim-nvcc): its PEs are the CUDA shim's GPUs
  std::map<int, void*> copies;  // by PE
};

std::vector<std::unique_ptr<Library>>& libraries() {
  static std::vector<std::unique_ptr<Library>> libs;
  return libs;
}

// Opens a private copy of `path`: a library opened twice under one name is shared.
void* open_copy(const std::string& path) {
  // (Reports read the library's line tables from `path`: code_site.h.)
  static int counter = 0;
  const fs::path copy = fs::temp_directory_path() / fmt::format("symsim-kernel-lib-{}-{}.so", ::getpid(), counter++);
  std::error_code ec;
  fs::copy_file(path, copy, fs::copy_options::overwrite_existing, ec);
  if (ec) throw std::invalid_argument(fmt::format("--kernel-lib {}: cannot copy it: {}", path, ec.message()));
  void* handle = dlopen(copy.c_str(), RTLD_NOW | RTLD_LOCAL);
  const char* error = handle ? nullptr : dlerror();
  fs::remove(copy, ec);  // the mapping stays
  if (!handle) throw std::invalid_argument(fmt::format("--kernel-lib {}: {}", path, error ? error : "dlopen failed"));
  link_map* map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map) note_loaded_code(fs::absolute(path).string(), map->l_addr);
  return handle;
}

std::string format_number(double v) {
  return std::floor(v) == v ? fmt::format("{}", static_cast<long long>(v)) : fmt::format("{}", v);
}

// argv from the template: {pe}, {n_pes} and {ARG} are replaced.
std::vector<std::string> build_argv(const Library& lib, int pe, const KernelArgs& args) {
  std::vector<std::string> argv{lib.name};
  for (std::string word : lib.argv_template) {
    std::string out;
    for (size_t i = 0; i < word.size();) {
      const size_t close = word[i] == '{' ? word.find('}', i) : std::string::npos;
      if (close == std::string::npos) {
        out += word[i++];
        continue;
      }
      const std::string key = word.substr(i + 1, close - i - 1);
      if (key == "pe") out += std::to_string(pe);
      else if (key == "n_pes") out += std::to_string(lib.nvidia ? cuda::n_ranks() : n_pes());
      else out += format_number(args.number(key));
      i = close + 1;
    }
    argv.push_back(out);
  }
  return argv;
}

void run_main(Library& lib, int pe, const KernelArgs& args) {
  void*& handle = lib.copies[pe];
  if (!handle) handle = open_copy(lib.path);
  auto main_fn = reinterpret_cast<MainFn>(dlsym(handle, "symsim_kernel_library_main"));
  if (!main_fn) throw std::runtime_error(fmt::format("{}: no symsim_kernel_library_main", lib.path));
  std::vector<std::string> argv = build_argv(lib, pe, args);
  std::vector<char*> ptrs;
  for (std::string& a : argv) ptrs.push_back(a.data());
  ptrs.push_back(nullptr);
  // libc's getopt state is one per process, not per library copy: restart it for this PE
  // (option parsing runs at the top of main, before any simulated wait, so PEs do not mix).
  optind = 0;
  const int rc = main_fn(static_cast<int>(argv.size()), ptrs.data());
  check(rc == 0, fmt::format("pe {}: {} main returned 0", pe, lib.name), rc == 0 ? "" : fmt::format("returned {}", rc));
}

}  // namespace

std::string load_kernel_library(const std::string& path) {
  if (!fs::exists(path)) throw std::invalid_argument(fmt::format("--kernel-lib {}: no such file", path));
  auto lib = std::make_unique<Library>();
  lib->path = fs::absolute(path).string();
  void* first = open_copy(lib->path);
  auto info_fn = reinterpret_cast<InfoFn>(dlsym(first, "symsim_kernel_library_info"));
  if (!info_fn) {
    // A library of registered kernels (SYMSIM_REGISTER_KERNEL): loading it registered them.
    return "";
  }
  const symsim_kernel_library_info_t* info = info_fn();
  if (!info || info->version != 1 || !info->name)
    throw std::invalid_argument(fmt::format("--kernel-lib {}: unsupported kernel library description", path));
  lib->name = info->name;
  std::istringstream words(info->argv ? info->argv : "");
  for (std::string w; words >> w;) lib->argv_template.push_back(w);
  lib->copies[0] = first;
  KernelInfo k;
  k.name = info->name;
  // A CUDA program (tools/symsim-nvcc) says it runs on NVIDIA platforms; CANN programs do not say.
  using PlatformFn = const char* (*)();
  auto platform_fn = reinterpret_cast<PlatformFn>(dlsym(first, "symsim_kernel_library_platform"));
  k.platform_family = platform_fn ? platform_fn() : "ascend";
  lib->nvidia = k.platform_family == "nvidia";
  k.doc = info->doc ? info->doc : "";
  k.max_blocks = info->max_blocks > 0 ? info->max_blocks : 48;
  for (int i = 0; i < info->n_args; ++i) {
    const symsim_kernel_library_arg& a = info->args[i];
    k.args.push_back({a.name, a.doc ? a.doc : "", a.min, a.max, a.default_value, true});
  }
  Library* raw = lib.get();
  k.host_main = [raw](int pe, const KernelArgs& args) { run_main(*raw, pe, args); };
  if (!KernelRegistry::instance().add(std::move(k)))
    throw std::invalid_argument(fmt::format("--kernel-lib {}: a kernel named '{}' is already registered", path,
                                            info->name));
  libraries().push_back(std::move(lib));
  return raw->name;
}

}  // namespace symsim::shim

// A kernel library: a CANN-style program (host main + kernels) built against the shim into a
// shared object that `symsim run --kernel-lib` loads. The build (cmake/SymsimKernelLibrary.cmake
// or tools/symsim-cxx) renames the program's main and adds two C entry points:
//   symsim_kernel_library_info()  what to register: kernel name, arguments, argv template
//   symsim_kernel_library_main()  the program's main
// Each simulated PE runs main in its own copy of the library (its own globals), with argv
// built from the template: {pe}, {n_pes} and {ARG} (a kernel argument) are substituted.
#pragma once
#include <cstdint>
#include <string>

extern "C" {

struct symsim_kernel_library_arg {
  const char* name;
  const char* doc;
  double min;
  double max;
  double default_value;
};

struct symsim_kernel_library_info_t {
  int version;       // 1
  const char* name;  // the kernel name scenarios use
  const char* doc;
  const char* argv;  // space-separated argv template (argv[0] is added)
  int max_blocks;
  int n_args;
  const symsim_kernel_library_arg* args;
};

}  // extern "C"

namespace symsim::shim {

// Calls a renamed `main` whichever of its two standard forms it has.
inline int call_main(int (*main_fn)(), int, char**) { return main_fn(); }
inline int call_main(int (*main_fn)(int, char**), int argc, char** argv) { return main_fn(argc, argv); }
inline int call_main(int (*main_fn)(int, const char**), int argc, char** argv) {
  return main_fn(argc, const_cast<const char**>(argv));
}

// Loads `path`, registers the kernel it describes, and returns its name; throws
// std::invalid_argument when the file is not a kernel library.
std::string load_kernel_library(const std::string& path);

}  // namespace symsim::shim

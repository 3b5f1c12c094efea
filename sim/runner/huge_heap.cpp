#include "sim/runner/huge_heap.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace symsim {

namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb";

// "always" or "madvise" (glibc's hugetlb=1 madvises its memory); "never" or no THP at all would
// make the exec pointless.
bool huge_pages_available() {
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  return std::getline(f, line) && line.find("[never]") == std::string::npos;
}

bool glibc_knows_tunable() {
#if defined(__GLIBC__) && defined(__GLIBC_PREREQ)
#if __GLIBC_PREREQ(2, 35)
  return true;
#endif
#endif
  return false;
}

}  // namespace

void reexec_with_huge_heap(char* argv[]) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return;  // their allocator, not glibc's
#endif
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables && std::strstr(tunables, kTunable)) return;  // this is the second start, or the user chose
  const char* preload = std::getenv("LD_PRELOAD");
  if (preload && std::strstr(preload, "vgpreload")) return;  // valgrind
  if (!glibc_knows_tunable() || !huge_pages_available()) return;
  const std::string old = tunables ? tunables : "";
  const std::string value = (old.empty() ? "" : old + ":") + kTunable + "=1";
  if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // Still here: go on with the heap as it is, and the environment as it was.
  if (tunables) setenv("GLIBC_TUNABLES", old.c_str(), 1);
  else unsetenv("GLIBC_TUNABLES");
}

}  // namespace symsim

#include "sim/runner/huge_heap.h"

#include "sim/runner/heap_warmer.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace symsim {

namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb";
// From this many PEs on the huge heap paid in paired runs (MoE EP 8 direct: user time -15%);
// below, and for a run that names no scenario (symsim-bench's setup, put and table), the second
// start (about 10 ms) and the huge pages' clearing (slow where the host backs them on first
// touch) cost more than they save (docs/performance.md, Session 17: MoE at scale).
constexpr int kHugeHeapMinPes = 8;
// A scenario is read here only when it is a regular file of a plausible size: a FIFO or a device
// would block or never end before the loader reports it (exit 2, "not a regular file").
constexpr off_t kMaxScenarioBytes = 4 << 20;

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

int run_pes(char* argv[]) {
  int pes = 0;
  const char* scenario = nullptr;
  for (char** a = argv + 1; *a; ++a) {
    const std::string arg = *a;
    if (arg.rfind("pes=", 0) == 0) pes = std::atoi(arg.c_str() + 4);
    const size_t n = arg.size();
    if (!scenario && n > 5 && arg.compare(n - 5, 5, ".json") == 0) scenario = *a;
  }
  if (pes > 0 || !scenario) return pes;
  struct stat st {};
  if (stat(scenario, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > kMaxScenarioBytes) return 0;
  std::ifstream f(scenario);
  const nlohmann::json j = nlohmann::json::parse(f, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return 0;
  const auto it = j.find("pes");
  return it != j.end() && it->is_number_integer() ? it->get<int>() : 0;
}

void reexec_with_huge_heap(char* argv[]) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return;  // their allocator, not glibc's
#endif
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables && std::strstr(tunables, kTunable)) return;  // this is the second start, or the user chose
  const char* preload = std::getenv("LD_PRELOAD");
  if (preload && std::strstr(preload, "vgpreload")) return;  // valgrind
  if (!glibc_knows_tunable() || !huge_pages_available()) return;
  const int pes = run_pes(argv);
  if (pes < kHugeHeapMinPes) return;
  const std::string old = tunables ? tunables : "";
  std::string value = (old.empty() ? "" : old + ":") + kTunable + "=1";
  // From 64 PEs the heap grows by hundreds of MiB (1.1 GiB at EP 256) and a helper thread faults
  // its new huge pages in ahead (heap_warmer.h), which needs glibc's top pad.
  if (pes >= kHeapWarmMinPes) value = value + ":" + kHeapWarmTunables;
  if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
  // By its path, not /proc/self/exe: the process keeps its name (ps, top).
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n > 0) {
    self[n] = '\0';
    execv(self, argv);
  }
  // Still here: go on with the heap as it is, and the environment as it was.
  if (tunables) setenv("GLIBC_TUNABLES", old.c_str(), 1);
  else unsetenv("GLIBC_TUNABLES");
}

}  // namespace symsim

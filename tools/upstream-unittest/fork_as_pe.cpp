// Linked into a kernel library built from CANN SHMEM's unit-test harness (tests/unittest, not
// part of this repository) so that the harness runs unmodified under `symsim run`. Upstream's
// test_mutil_task forks one child per rank, the child runs the test body for its rank and
// raises SIGUSR1 (passed) or SIGUSR2 (failed), and the parent waitpid()s every child. Under
// symsim each simulated PE's host program runs the whole harness, and these definitions (the
// library's own, -Bsymbolic) make it play both roles:
//   fork()     the child of rank `host_pe()` is this PE: 0 for it, a pseudo pid for the others;
//   raise()    SIGUSR1/SIGUSR2 from that child records its verdict and returns, so the PE goes
//              on as the parent; any other raise() is libc's;
//   waitpid()  the first wait of a round is a host barrier (every PE's child has finished),
//              then each child's status is the signal its PE recorded, as the kernel reports
//              a real child killed by that signal.
// So every PE's gtest judges every rank, as upstream's parent does. What the harness does
// besides (pipes of test_mutil_task_with_uid) is not mapped: those tests are not UDMA tests.
#include <dlfcn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>

#include "shmem_host.h"
#include "symsim/forked_pes.h"

namespace {

constexpr pid_t kPseudoPidBase = 1 << 22;  // above Linux's pid_max default: never a real child

struct ForkRounds {
  uint64_t round = 0;      // fork rounds begun by this PE (one per test_mutil_task call)
  int next_rank = 0;       // rank of the next fork() of this round
  bool waiting = true;     // the last harness call was waitpid(): the next fork() begins a round
  bool in_child = false;   // between fork() returning 0 and the child's raise()
  bool barrier_done = false;
};
ForkRounds g_rounds;  // per PE: each PE runs its own copy of this library

int rank_of(pid_t pid) {
  if (pid == 0) return symsim::shim::forked::host_pe();  // this PE's own child kept pid 0
  return pid >= kPseudoPidBase ? pid - kPseudoPidBase : -1;
}

}  // namespace

extern "C" pid_t fork() {
  if (g_rounds.waiting) {
    ++g_rounds.round;
    g_rounds.next_rank = 0;
    g_rounds.waiting = false;
    g_rounds.barrier_done = false;
  }
  const int rank = g_rounds.next_rank++;
  if (rank == symsim::shim::forked::host_pe()) {
    g_rounds.in_child = true;
    return 0;
  }
  return kPseudoPidBase + rank;
}

extern "C" int raise(int sig) {
  if (g_rounds.in_child && (sig == SIGUSR1 || sig == SIGUSR2)) {
    g_rounds.in_child = false;
    symsim::shim::forked::record_verdict(g_rounds.round, symsim::shim::forked::host_pe(), sig);
    return 0;
  }
  using RaiseFn = int (*)(int);
  static auto libc_raise = reinterpret_cast<RaiseFn>(dlsym(RTLD_NEXT, "raise"));
  return libc_raise(sig);
}

extern "C" pid_t waitpid(pid_t pid, int* status, int options) {
  const int rank = rank_of(pid);
  if (rank < 0) {
    using WaitFn = pid_t (*)(pid_t, int*, int);
    static auto libc_waitpid = reinterpret_cast<WaitFn>(dlsym(RTLD_NEXT, "waitpid"));
    return libc_waitpid(pid, status, options);
  }
  g_rounds.waiting = true;
  if (!g_rounds.barrier_done) {
    aclshmemi_control_barrier_all();  // every PE's child of this round has raised by now
    g_rounds.barrier_done = true;
  }
  const int sig = symsim::shim::forked::verdict(g_rounds.round, rank);
  // A child that ended without raising (its PE's program stopped) exited with status 1.
  if (status) *status = sig ? sig : (1 << 8);
  return pid == 0 ? symsim::shim::forked::host_pe() + kPseudoPidBase : pid;
}

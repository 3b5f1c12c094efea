// Checks fork_as_pe.cpp without upstream's sources: a harness of the same shape as CANN
// SHMEM's unit-test main (fork one child per rank; the child runs the body and raises SIGUSR1
// when it passed, SIGUSR2 when not; the parent waits for each child) runs on every PE. Every
// PE's parent must see each rank's child run on that rank's PE and end with that child's
// signal, also when one rank fails.
//   argv: N_PES PE
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

int g_ranks = 0;
int g_pe = -1;

// `passes(rank)` runs in rank's child; `failing` is the rank whose child reports failure.
void per_rank(const std::function<bool(int)>& passes, int failing) {
  std::vector<pid_t> pids(g_ranks);
  for (int r = 0; r < g_ranks; ++r) {
    pids[r] = fork();
    if (pids[r] == 0) raise(passes(r) ? SIGUSR1 : SIGUSR2);
  }
  for (int r = 0; r < g_ranks; ++r) {
    int status = 0;
    waitpid(pids[r], &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status)) << "rank " << r << " status " << status;
    EXPECT_EQ(WTERMSIG(status), r == failing ? SIGUSR2 : SIGUSR1) << "rank " << r;
  }
}

}  // namespace

TEST(ForkAsPe, EachRanksChildRunsOnThatPe) {
  per_rank([](int rank) { return rank == g_pe; }, -1);
}
TEST(ForkAsPe, AFailingRankReachesEveryPe) {
  per_rank([](int rank) { return rank != 1; }, 1);
}
TEST(ForkAsPe, RoundsStaySeparate) {
  per_rank([](int) { return true; }, -1);
  per_rank([](int rank) { return rank != 0; }, 0);
}
TEST(ForkAsPe, OtherSignalsAreLibcs) {
  EXPECT_EQ(raise(0), 0);  // signal 0: libc's raise, delivered nowhere
}

int main(int argc, char** argv) {
  g_ranks = std::atoi(argv[1]);
  g_pe = std::atoi(argv[2]);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

"""Issue 15, `symsim launch`: host programs that never connect do not make it wait for
--timeout; --timeout stops the co-simulation and its host programs with exit 124; SIGTERM and
kill -9 of the launcher leave no private server, worker, host program or temporary folder
(docs/robustness.md, "Launch")."""
import os
import shutil
import signal
import subprocess
import tempfile
import unittest

from proc_scan import cmdline, kill_all, processes_with, wait_until
from serve_harness import SYMSIM


class LaunchRobustTest(unittest.TestCase):
    def setUp(self):
        # The private server's folder goes under $TMPDIR: ours, so the test sees what is left.
        self.tmp = tempfile.mkdtemp(prefix="symlaunch")
        self.env = dict(os.environ, TMPDIR=self.tmp)
        self.marker = f"{os.getpid()}.{id(self) % 1000}"  # in the host programs' command line

    def tearDown(self):
        kill_all(processes_with(self.tmp) + processes_with(f"sleep {self.marker}"))
        shutil.rmtree(self.tmp, ignore_errors=True)

    def launch(self, *args, timeout):
        return subprocess.run([SYMSIM, "launch", "--out", os.path.join(self.tmp, "out")] + list(args),
                              capture_output=True, text=True, timeout=timeout, env=self.env)

    def hosts(self):
        return [pid for pid in processes_with(f"sleep {self.marker}") if cmdline(pid).startswith("sleep ")]

    def leftovers(self):
        procs = processes_with(self.tmp) + processes_with(f"sleep {self.marker}")
        folders = [n for n in os.listdir(self.tmp) if n.startswith("symsim-launch-")]
        return procs + folders

    def test_hosts_that_exit_without_connecting(self):
        p = self.launch("-n", "2", "--timeout", "120", "/bin/true", timeout=60)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("not all of them connected", p.stderr)
        self.assertIn("SYMSIM_COSIM_SOCKET", p.stderr)
        self.assertEqual(self.leftovers(), [])

    def test_timeout_stops_host_programs(self):
        p = self.launch("-n", "2", "--timeout", "2", "/bin/sleep", self.marker, timeout=25)
        self.assertEqual(p.returncode, 124, p.stderr)
        self.assertIn("ran past --timeout 2 s", p.stderr)
        self.assertEqual(self.leftovers(), [])

    def test_bad_timeout_is_refused(self):
        for value in ("0", "-5", "1e300", "nan"):
            p = self.launch("--timeout", value, "/bin/true", timeout=30)
            self.assertEqual(p.returncode, 2, (value, p.stderr))
            self.assertIn("--timeout", p.stderr)

    def test_bad_out_is_refused_before_anything_runs(self):
        blocker = os.path.join(self.tmp, "file")
        open(blocker, "w").close()
        p = subprocess.run([SYMSIM, "launch", "--out", os.path.join(blocker, "out"), "/bin/true"],
                           capture_output=True, text=True, timeout=30, env=self.env)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(os.path.join(blocker, "out"), p.stderr)
        p = subprocess.run([SYMSIM, "launch", "--trace", "/nonexistent/t.json", "/bin/true"],
                           capture_output=True, text=True, timeout=30, env=self.env)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("/nonexistent/t.json", p.stderr)
        self.assertEqual(self.leftovers(), [])

    def killed(self, sig):
        p = subprocess.Popen([SYMSIM, "launch", "-n", "2", "--timeout", "300", "--out",
                              os.path.join(self.tmp, "out"), "sleep", self.marker],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self.env)
        # Everything is up: the server's worker and both host programs run.
        up = wait_until(lambda: len(self.hosts()) == 2
                        and any(" worker " in cmdline(pid)
                                for pid in processes_with(self.tmp)), 60)
        if not up:
            p.kill()
            self.fail(f"launch never started its host programs: {p.communicate(timeout=30)}")
        p.send_signal(sig)
        p.communicate(timeout=60)
        left = wait_until(lambda: self.leftovers() == [] or None, 30)
        self.assertTrue(left, f"left behind: {self.leftovers()}")
        return p.returncode

    def test_sigterm_cleans_up(self):
        self.assertEqual(self.killed(signal.SIGTERM), 143)

    def test_kill_9_cleans_up(self):
        self.assertEqual(self.killed(signal.SIGKILL), -signal.SIGKILL)


if __name__ == "__main__":
    unittest.main()

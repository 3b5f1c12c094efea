"""`symsim submit` against a running server: the same result.json as `symsim run` (apart from
wall_s), the same exit codes, traces fetched, and the script-facing actions."""
import json
import os
import subprocess
import tempfile
import unittest

from serve_harness import SYMSIM, Server, scenario_path, small_put

SCENARIO = scenario_path("scenarios/udma/udma_put_signal_2pe.json")


def without_wall(path):
    with open(path) as f:
        r = json.load(f)
    r.pop("wall_s")
    return r


class SubmitCliTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server(workers=2)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.server.cleanup()

    def submit(self, *args):
        return subprocess.run([SYMSIM, "submit", "--server", self.server.endpoint, "--quiet"] + list(args),
                              capture_output=True, text=True, timeout=120)

    def test_result_matches_symsim_run(self):
        d = tempfile.mkdtemp(prefix="symsub")
        p = self.submit(SCENARIO, "--out", os.path.join(d, "served"), "--trace", os.path.join(d, "trace.json"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("udma_put_signal_2pe: pass", p.stdout)
        q = subprocess.run([SYMSIM, "run", SCENARIO, "--out", os.path.join(d, "local")], capture_output=True, text=True,
                           timeout=120)
        self.assertEqual(q.returncode, 0, q.stderr)
        self.assertEqual(without_wall(os.path.join(d, "served", "result.json")),
                         without_wall(os.path.join(d, "local", "result.json")))
        with open(os.path.join(d, "trace.json")) as f:
            self.assertTrue(json.load(f)["traceEvents"])

    def test_exit_codes_as_run(self):
        d = tempfile.mkdtemp(prefix="symsub")
        failing = small_put(name="too_slow_for_its_limit")
        failing["expect"]["max_sim_time_us"] = 0.001
        path = os.path.join(d, "failing.json")
        with open(path, "w") as f:
            json.dump(failing, f)
        p = self.submit(path, "--out", os.path.join(d, "out"))
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("FAILED", p.stdout)
        p = self.submit(path, "--set", "kernel.args.no_such_arg=1")
        self.assertEqual(p.returncode, 2)
        self.assertIn("no_such_arg", p.stderr)
        p = self.submit(os.path.join(d, "missing.json"))
        self.assertEqual(p.returncode, 2)

    def test_detach_wait_and_list(self):
        d = tempfile.mkdtemp(prefix="symsub")
        p = self.submit(SCENARIO, "--detach", "--seed", "7")
        self.assertEqual(p.returncode, 0, p.stderr)
        run = p.stdout.strip()
        self.assertRegex(run, r"^r\d+$")
        p = self.submit("--wait", run, "--out", os.path.join(d, "waited"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(without_wall(os.path.join(d, "waited", "result.json"))["seed"], 7)
        p = self.submit("--list")
        self.assertEqual(p.returncode, 0)
        self.assertRegex(p.stdout, rf"(?m)^{run}\s+done\s+pass\s+udma_put_signal_2pe$")

    def test_no_server(self):
        # Exit 2 naming --server (it names nothing that answers), not 3 (internal error).
        p = subprocess.run([SYMSIM, "submit", SCENARIO, "--server", "unix:/tmp/symsim-no-such-server.sock"],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 2)
        self.assertIn("--server", p.stderr)
        self.assertIn("cannot connect", p.stderr)


if __name__ == "__main__":
    unittest.main()

"""Host co-simulation: the CANN-style demo host program runs as one process per PE under
`symsim launch`, its device calls served by the simulator, and its simulated timeline and
statistics match the in-process scenario run of the same work exactly."""
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest

from serve_harness import SYMSIM, Server, scenario_path
from symsim_client import Client

DEMO = os.environ.get("SYMSIM_COSIM_DEMO", "symsim-cosim-demo")


def load(path):
    with open(path) as f:
        return json.load(f)


class CosimTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="symcosim")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def launch(self, *args, timeout=120):
        return subprocess.run([SYMSIM, "launch"] + list(args), capture_output=True, text=True, timeout=timeout)

    def in_process(self, *sets):
        out = os.path.join(self.dir, "in_process")
        args = [SYMSIM, "run", scenario_path("scenarios/udma/udma_put_signal_2pe.json"), "--out", out]
        for s in sets:
            args += ["--set", s]
        p = subprocess.run(args, capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        return load(os.path.join(out, "result.json"))

    def test_demo_matches_in_process_run(self):
        out = os.path.join(self.dir, "cosim")
        p = self.launch("-n", "2", "--out", out, DEMO, "65536", "4")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("pe 0: signal 4 of 4, 0 wrong bytes: OK", p.stdout)
        self.assertIn("pe 1: signal 4 of 4, 0 wrong bytes: OK", p.stdout)
        cosim = load(os.path.join(out, "result.json"))
        ref = self.in_process()
        self.assertEqual(cosim["status"], "pass")
        self.assertEqual(cosim["sim_time_ns"], ref["sim_time_ns"])
        self.assertEqual(cosim["stats"], ref["stats"])
        self.assertEqual(cosim["hazards"], ref["hazards"])
        self.assertEqual([e["ok"] for e in cosim["expectations"]], [True, True])

    def test_other_sizes_and_more_pes_match_too(self):
        out = os.path.join(self.dir, "cosim4")
        p = self.launch("-n", "4", "--out", out, DEMO, "4096", "3")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        cosim = load(os.path.join(out, "result.json"))
        ref = self.in_process("pes=4", "kernel.args.bytes=4096", "kernel.args.rounds=3")
        self.assertEqual((cosim["sim_time_ns"], cosim["stats"]), (ref["sim_time_ns"], ref["stats"]))

    def test_through_a_running_server(self):
        server = Server(workers=1)
        self.addCleanup(server.cleanup)
        p = self.launch("-n", "2", "--server", server.endpoint, "--out", os.path.join(self.dir, "s"), DEMO, "1024", "1")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        with Client(server.endpoint) as c:
            [run] = c.list()
            self.assertEqual((run["name"], run["outcome"]), ("cosim_symsim-cosim-demo", "pass"))

    def test_host_program_that_fails_early(self):
        start = time.monotonic()
        p = self.launch("-n", "2", "--out", os.path.join(self.dir, "f"), "false", timeout=60)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("host program pe 0: exited with code 1", p.stdout)
        self.assertLess(time.monotonic() - start, 30)

    def test_host_program_that_fails_mid_way(self):
        # PE 1 asks for a symmetric heap no PE has, so its SHMEM init fails and it exits; PE 0
        # is left at the init barrier. The simulation says so (a deadlock naming what PE 0
        # waits on), PE 1's host check fails, and PE 0's process learns the simulator is gone.
        script = os.path.join(self.dir, "fail.sh")
        with open(script, "w") as f:
            f.write(f'#!/bin/sh\nif [ "$SYMSIM_PE" = 1 ]; then exec {DEMO} 1024 1000000000; fi\nexec {DEMO} 1024 1\n')
        os.chmod(script, 0o755)
        out = os.path.join(self.dir, "fail")
        p = self.launch("-n", "2", "--timeout", "60", "--out", out, script, timeout=90)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("host program pe 1: exited with code 2", p.stdout)
        self.assertIn("host program pe 0: exited with code 70", p.stdout)
        r = load(os.path.join(out, "result.json"))
        self.assertEqual(r["status"], "fail")
        [deadlock] = [h for h in r["hazards"] if h["id"] == "deadlock"]
        self.assertEqual(deadlock["pe"], 0)
        self.assertIn("aclshmemx_init_attr", deadlock["detail"])
        failed = [e["what"] for e in r["expectations"] if not e["ok"]]
        self.assertIn("pe 1: co-simulated host program finalized SHMEM and disconnected", failed)

if __name__ == "__main__":
    unittest.main()

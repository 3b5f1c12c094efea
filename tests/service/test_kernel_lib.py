"""Kernel libraries (--kernel-lib) through the service and sweeps: the server loads the library
to validate submissions and passes it to every worker."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from serve_harness import SYMSIM, SOURCE_DIR, Server
from symsim_client import Client

LIB = os.environ.get("SYMSIM_KERNEL_LIB", "")
SCENARIO = os.path.join(SOURCE_DIR, "kernels", "udma", "cann_style", "ring_put_signal.json")


@unittest.skipUnless(LIB and os.path.exists(LIB), "no kernel library built")
class KernelLibTest(unittest.TestCase):
    def test_serve_runs_library_kernels(self):
        server = Server("--kernel-lib", LIB, workers=2)
        self.addCleanup(server.cleanup)
        with Client(server.endpoint) as c:
            done, result = c.run(SCENARIO, sets=["kernel.args.slot_bytes=1024"], timeout=120)
            self.assertEqual(done["outcome"], "pass", done)
            self.assertEqual(result["scenario"], "cann_ring_put_signal")
        # Without the library the kernel is unknown: refused at submit, naming the pointer.
        plain = Server(workers=1)
        self.addCleanup(plain.cleanup)
        with Client(plain.endpoint) as c:
            with self.assertRaises(Exception) as e:
                c.submit(SCENARIO)
            self.assertIn("/kernel/name", str(e.exception))

    def test_sweep_with_a_library(self):
        d = tempfile.mkdtemp(prefix="symkl")
        self.addCleanup(shutil.rmtree, d, True)
        sweep = os.path.join(d, "sweep.json")
        with open(sweep, "w") as f:
            json.dump({"symsim_sweep": 1, "name": "ring", "scenarios": [SCENARIO],
                       "grid": {"kernel.args.slot_bytes": [512, 2048], "pes": [2, 4]}}, f)
        p = subprocess.run([SYMSIM, "sweep", sweep, "--quiet", "--jobs", "2", "--kernel-lib", LIB, "--out",
                            os.path.join(d, "out")], capture_output=True, text=True, timeout=170)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("4 of 4 points passed", p.stdout)


if __name__ == "__main__":
    unittest.main()

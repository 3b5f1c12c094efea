"""examples/run_scenario.py against a real `symsim serve`: a passing run and a refused one."""
import os
import subprocess
import sys
import unittest

from serve_harness import Server, scenario_path

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "examples", "run_scenario.py")


class ExampleTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server(workers=1)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.server.cleanup()

    def example(self, *args):
        env = dict(os.environ, SYMSIM_SERVER=self.server.endpoint)
        return subprocess.run([sys.executable, EXAMPLE, *args], capture_output=True, text=True, timeout=120, env=env)

    def test_runs_a_scenario(self):
        p = self.example(scenario_path("scenarios/udma/udma_put_2pe.json"), "--set", "kernel.args.bytes=4096")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("udma_put_2pe.json: pass", p.stdout)
        self.assertRegex(p.stdout, r"simulated \d+\.\d{3} us by \d+\.\d+\.\d+")

    def test_refused_scenario(self):
        p = self.example(scenario_path("scenarios/udma/udma_put_2pe.json"), "--set", "kernel.args.no_such=1")
        self.assertEqual(p.returncode, 2, p.stdout)
        self.assertIn("refused: invalid_scenario", p.stderr)


if __name__ == "__main__":
    unittest.main()

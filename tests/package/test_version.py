"""The version and git commit a build carries: `symsim --version`, result.json's "tool" (both
runners), the sweep tables and the service's hello all give the same pair, and results stay
identical from run to run of one binary."""
import csv
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from serve_harness import SYMSIM, SOURCE_DIR, Server, scenario_path
from symsim_client import Client

VERSION = os.environ["SYMSIM_VERSION"]  # the project() version CMake configured
COMMIT = re.compile(r"^([0-9a-f]{12}(-dirty)?|unknown)$")


def symsim(*args, cwd=None):
    return subprocess.run([SYMSIM] + list(args), capture_output=True, text=True, timeout=170, cwd=cwd)


def version_flag():
    p = symsim("--version")
    m = re.fullmatch(r"symsim (\S+) \(commit (\S+)\)\n", p.stdout)
    return p, m


class VersionTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="symver")
        p, m = version_flag()
        cls.tool = {"name": "symsim", "version": m.group(1), "commit": m.group(2)} if m else None

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def run_scenario(self, rel, out):
        p = symsim("run", scenario_path(rel), "--out", os.path.join(self.dir, out))
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(self.dir, out, "result.json")) as f:
            return json.load(f)

    def test_version_flag_prints_version_and_commit(self):
        p, m = version_flag()
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIsNotNone(m, p.stdout)
        self.assertEqual(m.group(1), VERSION)
        self.assertRegex(m.group(2), COMMIT)
        self.assertEqual(p.stderr, "")

    def test_result_json_carries_the_tool_and_stays_deterministic(self):
        first = self.run_scenario("scenarios/udma/udma_put_2pe.json", "a")
        second = self.run_scenario("scenarios/udma/udma_put_2pe.json", "b")
        self.assertEqual(first["tool"], self.tool)
        for r in (first, second):
            del r["wall_s"]  # the only field that depends on the machine
        self.assertEqual(json.dumps(first, sort_keys=True), json.dumps(second, sort_keys=True))

    def test_nvidia_result_json_carries_the_tool(self):
        r = self.run_scenario("scenarios/nvidia/litmus_mp_release_acquire.json", "nv")
        self.assertEqual(r["tool"], self.tool)

    def test_sweep_tables_carry_the_tool(self):
        spec = os.path.join(self.dir, "tiny.json")
        with open(spec, "w") as f:
            json.dump({"symsim_sweep": 1, "name": "tiny", "scenarios": [scenario_path("scenarios/udma/udma_put_2pe.json")],
                       "grid": {"kernel.args.bytes": [512, 1024]}}, f)
        shards = []
        for i in range(2):
            shards.append(os.path.join(self.dir, f"shard{i}"))
            p = symsim("sweep", spec, "--quiet", "--jobs", "1", "--shard", f"{i}/2", "--out", shards[-1])
            self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(shards[0], "results.json")) as f:
            doc = json.load(f)
        self.assertEqual(doc["tool"], self.tool)
        with open(os.path.join(shards[0], "results.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), 1)
        self.assertEqual(rows[0]["symsim_version"], self.tool["version"])
        self.assertEqual(rows[0]["symsim_commit"], self.tool["commit"])
        # Shards made by another build are not merged silently.
        doc["tool"]["commit"] = "0123456789ab"
        with open(os.path.join(shards[0], "results.json"), "w") as f:
            json.dump(doc, f)
        p = symsim("sweep", "--merge", shards[1], shards[0], "--out", os.path.join(self.dir, "merged"))
        self.assertEqual(p.returncode, 2, p.stdout)
        self.assertIn("/tool", p.stderr)
        self.assertIn("0123456789ab", p.stderr)

    def test_service_hello_carries_version_and_commit(self):
        server = Server(workers=1)
        try:
            with Client(server.endpoint) as c:
                self.assertEqual(c.hello["version"], self.tool["version"])
                self.assertEqual(c.hello["commit"], self.tool["commit"])
        finally:
            server.stop()
            server.cleanup()


if __name__ == "__main__":
    unittest.main()

"""`symsim sweep`: a grid over scenarios run by parallel workers into one CSV and one JSON;
shards that together are the whole sweep and merge into byte-identical tables."""
import csv
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from serve_harness import SYMSIM, SOURCE_DIR

SWEEP = os.path.join(SOURCE_DIR, "sweeps", "udma_put_sizes.json")


def sweep(*args):
    return subprocess.run([SYMSIM, "sweep", "--quiet"] + list(args), capture_output=True, text=True, timeout=170)


def read(path):
    with open(path, "rb") as f:
        return f.read()


class SweepTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="symsweep")
        cls.full = sweep(SWEEP, "--jobs", "2", "--out", os.path.join(cls.dir, "full"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_full_sweep_tables(self):
        self.assertEqual(self.full.returncode, 0, self.full.stderr + self.full.stdout)
        self.assertIn("24 of 24 points passed", self.full.stdout)
        with open(os.path.join(self.dir, "full", "results.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), 2 * 3 * 2 * 2)
        self.assertEqual(list(rows[0])[:6], ["index", "scenario", "kernel.args.bytes", "platform.udma.cq_depth", "seed", "status"])
        self.assertIn("pe0_latency_p50_ns", rows[0])
        for row in rows:
            self.assertEqual(row["status"], "pass")
            pes = 2 if "put" in row["scenario"] else 4
            self.assertEqual(int(row["bytes"]), pes * 2 * int(row["kernel.args.bytes"]))  # rounds=2 from "set"
            self.assertGreater(float(row["pe0_latency_p50_ns"]), 0)
        # Each point's own result.json is kept, with the point's overrides applied.
        with open(os.path.join(self.dir, "full", "points", "5", "result.json")) as f:
            r = json.load(f)
        self.assertEqual(r["config"]["kernel"]["args"]["bytes"], int(rows[5]["kernel.args.bytes"]))
        self.assertEqual(r["seed"], int(rows[5]["seed"]))
        # Larger messages take longer: the sweep measures something.
        put = [r for r in rows if "put" in r["scenario"] and r["seed"] == "1" and r["platform.udma.cq_depth"] == "64"]
        times = [float(r["sim_time_ns"]) for r in sorted(put, key=lambda r: int(r["kernel.args.bytes"]))]
        self.assertEqual(times, sorted(times))
        self.assertLess(times[0], times[-1])

    def test_shards_merge_into_the_same_tables(self):
        shards = []
        for i in range(3):
            out = os.path.join(self.dir, f"shard{i}")
            p = sweep(SWEEP, "--jobs", "2", "--shard", f"{i}/3", "--out", out)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(out, "results.json")) as f:
                doc = json.load(f)
            self.assertEqual(doc["shard"], {"index": i, "count": 3})
            self.assertEqual([pt["index"] for pt in doc["points"]], list(range(i, 24, 3)))
            shards.append(out)
        merged = os.path.join(self.dir, "merged")
        p = sweep("--merge", shards[2], shards[0], shards[1], "--out", merged)
        self.assertEqual(p.returncode, 0, p.stderr)
        for name in ("results.json", "results.csv"):
            self.assertEqual(read(os.path.join(merged, name)), read(os.path.join(self.dir, "full", name)), name)
        self.assertTrue(os.path.exists(os.path.join(merged, "points", "23", "result.json")))
        # A shard missing, or given twice: refused, saying which.
        p = sweep("--merge", shards[0], shards[1], "--out", os.path.join(self.dir, "partial"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("shards 2 of 3", p.stderr)
        p = sweep("--merge", shards[0], shards[0], shards[1], "--out", os.path.join(self.dir, "twice"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("given twice", p.stderr)

    def test_invalid_grid_runs_nothing(self):
        bad = os.path.join(self.dir, "bad.json")
        with open(SWEEP) as f:
            doc = json.load(f)
        doc["scenarios"] = [os.path.join(SOURCE_DIR, "scenarios", "udma", "udma_put_2pe.json")]
        doc["grid"]["kernel.args.no_such_arg"] = [1]
        with open(bad, "w") as f:
            json.dump(doc, f)
        out = os.path.join(self.dir, "bad_out")
        p = sweep(bad, "--out", out)
        self.assertEqual(p.returncode, 2)
        self.assertIn("no_such_arg", p.stderr)
        self.assertFalse(os.path.exists(out))
        p = sweep(SWEEP, "--shard", "3/3")
        self.assertEqual(p.returncode, 2)


if __name__ == "__main__":
    unittest.main()

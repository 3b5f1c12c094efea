"""Issue 15, sweeps: a killed sweep takes its workers with it; an interrupted one writes the
table of what finished (marked partial) and exits 130/143, and --resume runs only the rest;
wall-time limits; grids too big to run; --merge refusing malformed shard tables with exit 2
naming the file and the JSON pointer (docs/robustness.md, "Sweeps")."""
import json
import os
import shutil
import signal
import subprocess
import tempfile
import unittest

from proc_scan import kill_all, processes_with, wait_until
from serve_harness import SYMSIM, SOURCE_DIR

PUT = os.path.join(SOURCE_DIR, "scenarios", "udma", "udma_put_2pe.json")
LONG_ROUNDS = 2000000  # about a minute of wall time: still running when the test stops it


def sweep(*args, timeout=120):
    return subprocess.run([SYMSIM, "sweep", "--quiet"] + list(args), capture_output=True, text=True,
                          timeout=timeout)


def write_json(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(doc, f)


class Base(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="symsweep_robust")

    def tearDown(self):
        kill_all(processes_with(self.dir))
        shutil.rmtree(self.dir, ignore_errors=True)

    def sweep_file(self, rounds, name="robust", **extra):
        path = os.path.join(self.dir, f"{name}.json")
        doc = {"symsim_sweep": 1, "name": name, "scenarios": [PUT], "grid": {"kernel.args.rounds": rounds}}
        doc.update(extra)
        write_json(path, doc)
        return path

    def start(self, *args):
        return subprocess.Popen([SYMSIM, "sweep", "--quiet"] + list(args), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    def wait_for(self, path, limit_s=60):
        self.assertTrue(wait_until(lambda: os.path.exists(path), limit_s), f"{path} never appeared")


class InterruptTest(Base):
    def interrupted(self, sig, code, reason):
        sw = self.sweep_file([1, 2, LONG_ROUNDS])
        out = os.path.join(self.dir, "out")
        p = self.start(sw, "--jobs", "1", "--out", out)
        self.wait_for(os.path.join(out, "points", "2", "worker.log"))  # points 0 and 1 done
        p.send_signal(sig)
        stdout, stderr = p.communicate(timeout=60)
        self.assertEqual(p.returncode, code, stderr)
        self.assertIn(f"stopped by {reason}", stderr)
        self.assertIn("--resume", stderr)
        with open(os.path.join(out, "results.json")) as f:
            doc = json.load(f)
        self.assertEqual(doc["partial"], {"reason": reason, "points_missing": 1})
        self.assertEqual([r["index"] for r in doc["points"]], [0, 1])
        self.assertEqual([r["status"] for r in doc["points"]], ["pass", "pass"])
        with open(os.path.join(out, "results.csv")) as f:
            self.assertEqual(len(f.read().splitlines()), 3)
        self.assertEqual(processes_with(out), [])
        # A partial table is refused by --merge, saying how to finish it.
        m = sweep("--merge", out, "--out", os.path.join(self.dir, "merged"))
        self.assertEqual(m.returncode, 2)
        self.assertIn("/partial", m.stderr)
        return sw, out

    def test_sigint_writes_partial_table_and_resume_runs_only_the_rest(self):
        sw, out = self.interrupted(signal.SIGINT, 130, "SIGINT")
        logs = {i: os.stat(os.path.join(out, "points", str(i), "worker.log")).st_mtime_ns for i in (0, 1)}
        # The long point again, now stopped by --point-timeout: only it runs.
        r = sweep(sw, "--jobs", "1", "--out", out, "--resume", "--point-timeout", "1")
        self.assertEqual(r.returncode, 1, r.stderr)
        with open(os.path.join(out, "results.json")) as f:
            doc = json.load(f)
        self.assertNotIn("partial", doc)
        self.assertEqual([p["status"] for p in doc["points"]], ["pass", "pass", "timeout"])
        self.assertEqual(doc["points"][2]["exit_code"], 124)
        self.assertIn("--point-timeout", doc["points"][2]["detail"])
        for i in (0, 1):
            self.assertEqual(os.stat(os.path.join(out, "points", str(i), "worker.log")).st_mtime_ns, logs[i])

    def test_sigterm_writes_partial_table(self):
        self.interrupted(signal.SIGTERM, 143, "SIGTERM")

    def test_resume_refuses_another_sweep(self):
        sw = self.sweep_file([1])
        out = os.path.join(self.dir, "out")
        self.assertEqual(sweep(sw, "--out", out).returncode, 0)
        other = self.sweep_file([2], name="other")
        r = sweep(other, "--out", out, "--resume")
        self.assertEqual(r.returncode, 2)
        self.assertIn("sweep.json", r.stderr)
        r = sweep(other, "--out", os.path.join(self.dir, "empty"), "--resume")
        self.assertEqual(r.returncode, 2)
        self.assertIn("no sweep to resume", r.stderr)


class KillTest(Base):
    def test_kill_9_leaves_no_workers_and_resume_picks_up(self):
        sw = self.sweep_file([1, LONG_ROUNDS, LONG_ROUNDS + 1])
        out = os.path.join(self.dir, "out")
        p = self.start(sw, "--jobs", "2", "--out", out)
        self.wait_for(os.path.join(out, "points", "2", "worker.log"))  # point 0 is done
        self.assertTrue(wait_until(lambda: len(processes_with(os.path.join(out, "points"))) == 2, 30))
        p.kill()
        p.communicate(timeout=30)
        left = wait_until(lambda: processes_with(out) == [] or None, 30)
        self.assertTrue(left, f"workers left running: {processes_with(out)}")
        # Each finished point's row is on disk as it ends: --resume after a kill -9 keeps it.
        log0 = os.stat(os.path.join(out, "points", "0", "worker.log")).st_mtime_ns
        r = sweep(sw, "--jobs", "2", "--out", out, "--resume", "--point-timeout", "1")
        self.assertEqual(r.returncode, 1, r.stderr)
        with open(os.path.join(out, "results.json")) as f:
            doc = json.load(f)
        self.assertEqual([p["status"] for p in doc["points"]], ["pass", "timeout", "timeout"])
        self.assertEqual(os.stat(os.path.join(out, "points", "0", "worker.log")).st_mtime_ns, log0)


class LimitTest(Base):
    def test_sweep_timeout_writes_partial_table_exit_124(self):
        sw = self.sweep_file([1, LONG_ROUNDS])
        out = os.path.join(self.dir, "out")
        r = sweep(sw, "--jobs", "1", "--out", out, "--timeout", "3", timeout=60)
        self.assertEqual(r.returncode, 124, r.stderr)
        self.assertIn("stopped by timeout", r.stderr)
        with open(os.path.join(out, "results.json")) as f:
            doc = json.load(f)
        self.assertEqual(doc["partial"]["reason"], "timeout")
        self.assertEqual(processes_with(out), [])

    def test_bad_limits_are_refused(self):
        sw = self.sweep_file([1])
        for opt, value in (("--timeout", "-1"), ("--point-timeout", "1e300"), ("--timeout", "nan")):
            r = sweep(sw, opt, value, "--out", os.path.join(self.dir, "x"))
            self.assertEqual(r.returncode, 2, (opt, value, r.stderr))
            self.assertIn(opt, r.stderr)

    def test_grid_over_the_limit_is_refused_at_once(self):
        path = os.path.join(self.dir, "huge.json")
        write_json(path, {"symsim_sweep": 1, "name": "huge", "scenarios": [PUT],
                          "grid": {"kernel.args.rounds": list(range(1, 1002)),
                                   "kernel.args.bytes": list(range(512, 512 + 1001))}})
        r = sweep(path, "--out", os.path.join(self.dir, "huge"), timeout=30)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("/grid", r.stderr)
        self.assertIn("1000000 points", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "huge")))


class InputTest(Base):
    def test_duplicate_key_in_sweep_file(self):
        path = os.path.join(self.dir, "dup.json")
        with open(path, "w") as f:
            f.write('{"symsim_sweep": 1, "name": "dup", "scenarios": ["%s"], '
                    '"grid": {"kernel.args.rounds": [1], "kernel.args.rounds": [2]}}' % PUT)
        r = sweep(path, "--out", os.path.join(self.dir, "dup"))
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn(path, r.stderr)
        self.assertIn("/grid/kernel.args.rounds", r.stderr)
        self.assertIn("duplicate", r.stderr)

    def test_out_under_a_file(self):
        sw = self.sweep_file([1])
        blocker = os.path.join(self.dir, "file")
        open(blocker, "w").close()
        r = sweep(sw, "--out", os.path.join(blocker, "out"))
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn(os.path.join(blocker, "out"), r.stderr)

    def test_name_cannot_leave_the_default_folder(self):
        work = os.path.join(self.dir, "work")
        os.makedirs(work)
        path = os.path.join(self.dir, "dots.json")
        write_json(path, {"symsim_sweep": 1, "name": "..", "scenarios": [PUT], "grid": {"kernel.args.rounds": [1]}})
        r = subprocess.run([SYMSIM, "sweep", "--quiet", path], capture_output=True, text=True, timeout=60, cwd=work)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertFalse(os.path.exists(os.path.join(work, "results.json")))
        inside = [d for d in os.listdir(os.path.join(work, "symsim-sweep"))]
        self.assertEqual(len(inside), 1)
        self.assertTrue(os.path.exists(os.path.join(work, "symsim-sweep", inside[0], "results.json")))

    def test_merge_of_a_fifo_does_not_hang(self):
        d = os.path.join(self.dir, "fifo")
        os.makedirs(d)
        os.mkfifo(os.path.join(d, "results.json"))
        r = sweep("--merge", d, "--out", os.path.join(self.dir, "m"), timeout=30)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn(os.path.join(d, "results.json"), r.stderr)


ROW = {"index": 0, "scenario": "a.json", "params": {}, "status": "pass", "exit_code": 0, "sim_time_ns": 1,
       "wqes": 1, "bytes": 1, "doorbells": 1, "cqes": 1, "hazards": [], "columns": {}}
DOC = {"symsim_sweep": 1, "name": "t", "sweep_hash": "0123", "points_total": 1,
       "shard": {"index": 0, "count": 1}, "grid_keys": [], "columns": [], "points": [ROW]}


class MergeTest(Base):
    def shard_dir(self, doc, result="{}"):
        d = tempfile.mkdtemp(dir=self.dir)
        write_json(os.path.join(d, "results.json"), doc)
        if result is not None:
            os.makedirs(os.path.join(d, "points", "0"))
            with open(os.path.join(d, "points", "0", "result.json"), "w") as f:
                f.write(result)
        return d

    def merge(self, d):
        return sweep("--merge", d, "--out", os.path.join(self.dir, "merged"), timeout=30)

    def refused(self, doc, pointer, result="{}", file="results.json"):
        d = self.shard_dir(doc, result)
        r = self.merge(d)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn(os.path.join(d, file), r.stderr)
        if pointer:
            self.assertIn(f": {pointer}: ", r.stderr)
        return r

    def edited(self, **changes):
        doc = json.loads(json.dumps(DOC))
        for path, value in changes.items():
            obj = doc
            keys = path.split("__")
            for k in keys[:-1]:
                obj = obj[int(k)] if isinstance(obj, list) else obj[k]
            if value is KeyError:
                del obj[keys[-1]]
            else:
                obj[int(keys[-1]) if isinstance(obj, list) else keys[-1]] = value
        return doc

    def test_a_good_table_merges(self):
        r = self.merge(self.shard_dir(DOC))
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_shard_count_zero(self):
        self.refused(self.edited(shard__count=0), "/shard/count")

    def test_points_total_huge(self):
        self.refused(self.edited(points_total=10 ** 12), "/points_total")

    def test_shard_key_missing(self):
        self.refused(self.edited(shard=KeyError), "/shard")

    def test_string_typed_fields(self):
        self.refused(self.edited(shard__index="0"), "/shard/index")
        self.refused(self.edited(points_total="1"), "/points_total")
        self.refused(self.edited(points__0__index="0"), "/points/0/index")
        self.refused(self.edited(points__0__hazards="none"), "/points/0/hazards")
        self.refused(self.edited(points=KeyError), "/points")

    def test_shard_index_beyond_count(self):
        self.refused(self.edited(shard={"index": 5, "count": 3}), "/shard/index")

    def test_point_of_another_shard(self):
        self.refused(self.edited(points_total=3, shard={"index": 1, "count": 3}), "/points/0/index")

    def test_point_result_missing(self):
        r = self.refused(DOC, "", result=None, file=os.path.join("points", "0", "result.json"))
        self.assertIn("/points/0", r.stderr)

    def test_point_result_garbage(self):
        self.refused(DOC, "", result="{not json", file=os.path.join("points", "0", "result.json"))

    def test_results_json_not_json(self):
        d = tempfile.mkdtemp(dir=self.dir)
        with open(os.path.join(d, "results.json"), "w") as f:
            f.write("[1,")
        r = self.merge(d)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn(os.path.join(d, "results.json"), r.stderr)


if __name__ == "__main__":
    unittest.main()

"""The service as a shared, long-lived resource (docs/service.md, docs/security.md): one server
per folder, bad folders and limits refused with exit 2, runs recovered after a restart, no
spinning and no misreported submits when out of file descriptors, and per-run limits."""
import json
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

from serve_harness import SYMSIM, LineSocket, Server, slow_put, small_put, wait_until


def run_to_end(c, scenario, **extra):
    c.send_json(dict({"op": "submit", "id": "s", "scenario": scenario}, **extra))
    r, events = c.read_reply()
    assert r["ok"], r
    while not any(e.get("event") == "done" and e["run"] == r["run"] for e in events):
        events.append(c.read())
    return r["run"], [e for e in events if e.get("event") == "done" and e["run"] == r["run"]][0]


def serve_exit(*args, timeout=30):
    return subprocess.run([SYMSIM, "serve"] + list(args), capture_output=True, text=True, timeout=timeout)


class OptionsTest(unittest.TestCase):
    def test_bad_folders_and_limits_exit_2_naming_the_option(self):
        tmp = tempfile.mkdtemp(prefix="symopt")
        self.addCleanup(shutil.rmtree, tmp, True)
        a_file = os.path.join(tmp, "file")
        open(a_file, "w").close()
        for args, option in ((["--dir", "/proc/x"], "--dir"), (["--dir", os.path.join(a_file, "sub")], "--dir"),
                             (["--dir", tmp, "--root", os.path.join(tmp, "missing")], "--root"),
                             (["--dir", tmp, "--run-timeout", "1e10"], "--run-timeout"),
                             (["--dir", tmp, "--run-memory", "1M"], "--run-memory"),
                             (["--dir", tmp, "--socket", "/proc/x.sock"], "--socket")):
            p = serve_exit(*args)
            self.assertEqual(p.returncode, 2, (args, p.stderr))
            self.assertIn(option, p.stderr)

    def test_two_servers_cannot_share_a_folder(self):
        first = Server(workers=1)
        self.addCleanup(first.cleanup)
        p = serve_exit("--dir", first.state_dir, "--socket", os.path.join(first.dir, "second.sock"))
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("--dir", p.stderr)
        self.assertIn(f"another symsim serve (pid {first.proc.pid})", p.stderr)
        # Once the first has stopped, the folder is free again.
        self.assertEqual(first.stop()[0], 0)
        second = Server(workers=1, state_dir=first.state_dir)
        self.addCleanup(second.cleanup)
        self.assertEqual(second.stop()[0], 0)


class RestartTest(unittest.TestCase):
    def test_a_restarted_server_answers_for_earlier_runs(self):
        first = Server(workers=1)
        self.addCleanup(first.cleanup)
        c = LineSocket(first.endpoint)
        run, done = run_to_end(c, small_put(name="before_restart"))
        self.assertEqual(done["outcome"], "pass")
        c.send_json({"op": "submit", "id": "slow", "scenario": slow_put(name="interrupted")})
        slow = c.read_reply()[0]["run"]
        e = c.read()
        while e.get("event") != "state":
            e = c.read()
        c.close()
        first.proc.kill()  # no orderly shutdown: the slow run is cut off
        first.proc.wait()
        second = Server(workers=1, state_dir=first.state_dir)
        self.addCleanup(second.cleanup)
        c = LineSocket(second.endpoint)
        self.addCleanup(c.close)
        c.send_json({"op": "status", "id": 1, "run": run})
        st = c.read()
        self.assertTrue(st["ok"], st)
        self.assertEqual((st["run"]["state"], st["run"]["outcome"], st["run"]["name"]), ("done", "pass", "before_restart"))
        c.send_json({"op": "result", "id": 2, "run": run})
        self.assertEqual(c.read()["result"]["scenario"], "before_restart")
        c.send_json({"op": "status", "id": 3, "run": slow})
        st = c.read()["run"]
        self.assertEqual(st["outcome"], "crashed")
        self.assertIn("server stopped", st["detail"])
        c.send_json({"op": "watch", "id": 4, "run": run})
        self.assertTrue(c.read()["ok"])
        self.assertEqual(c.read()["event"], "done")
        # New runs are numbered after the old ones.
        new, done = run_to_end(c, small_put(name="after_restart"))
        self.assertGreater(int(new[1:]), int(slow[1:]))
        self.assertEqual(done["outcome"], "pass")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class DescriptorTest(unittest.TestCase):
    def test_out_of_descriptors_neither_spins_nor_misreports(self):
        limit = 64
        server = Server(workers=1, preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit)))
        self.addCleanup(server.cleanup)
        first = LineSocket(server.endpoint)
        self.addCleanup(first.close)
        first.send_json({"op": "hello", "id": 0})
        self.assertTrue(first.read()["ok"])
        crowd, busy = [], 0
        for _ in range(limit + 16):  # more connections than the server has descriptors
            s = LineSocket(server.endpoint)
            crowd.append(s)
            self.addCleanup(s.close)
        for s in crowd:
            s.sock.settimeout(5)
            try:  # a connection turned away was told so first, then closed: writing may fail
                s.send_json({"op": "hello", "id": 1})
            except OSError:
                pass
            try:
                r = s.read()
            except (EOFError, ConnectionError, OSError):
                continue
            if not r["ok"]:
                self.assertEqual(r["error"]["code"], "server_busy")
                busy += 1
        # Not spinning: under a quarter of a CPU over a second.
        before = cpu_seconds(server.proc.pid)
        time.sleep(1.0)
        self.assertLess(cpu_seconds(server.proc.pid) - before, 0.25)
        # The connections it holds are served; a submit is not called invalid.
        run, done = run_to_end(first, small_put(name="with_descriptors_short"))
        self.assertEqual(done["outcome"], "pass")
        # Those it could not take were told why.
        self.assertGreater(busy, 0)


class LimitsTest(unittest.TestCase):
    def test_a_request_cannot_lift_the_servers_time_limit(self):
        server = Server("--run-timeout", "0.5", workers=1)
        self.addCleanup(server.cleanup)
        c = LineSocket(server.endpoint)
        self.addCleanup(c.close)
        for asked in (0, 1000):
            run, done = run_to_end(c, slow_put(name="asks_for_more"), timeout_s=asked)
            self.assertEqual((done["outcome"], done["exit_code"]), ("timeout", 124))

    def test_per_run_memory_limit(self):
        server = Server("--run-memory", "768M", workers=1)  # a small run fits even under ASan
        self.addCleanup(server.cleanup)
        c = LineSocket(server.endpoint)
        self.addCleanup(c.close)
        run, done = run_to_end(c, small_put(name="fits"))
        self.assertEqual(done["outcome"], "pass", done)
        big = small_put(name="too_big", bytes_=64 << 20)
        big["pes"] = 8
        run, done = run_to_end(c, big)
        self.assertEqual((done["outcome"], done["exit_code"]), ("out_of_memory", 3), done)
        self.assertIn("768 MiB", done["detail"])
        self.assertIn("--run-memory", done["detail"])


if __name__ == "__main__":
    unittest.main()

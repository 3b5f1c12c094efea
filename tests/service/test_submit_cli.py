"""`symsim submit` against a running server: the same result.json as `symsim run` (apart from
wall_s), the same exit codes, traces fetched, and the script-facing actions."""
import json
import os
import socket
import subprocess
import tempfile
import threading
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


class FakeServer:
    """A Unix-socket server that answers like `symsim serve` but with a hostile scenario name
    (or, with silent=True, accepts and never answers)."""

    def __init__(self, name="", silent=False, result=None):
        self.dir = tempfile.mkdtemp(prefix="symfake")
        self.path = os.path.join(self.dir, "fake.sock")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.path)
        self.listener.listen(8)
        self.name, self.silent, self.conns = name, silent, []
        self.result = dict(result or {"status": "pass"}, scenario=name)
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.conns.append(conn)
            if not self.silent:
                threading.Thread(target=self.answer, args=(conn,), daemon=True).start()

    def answer(self, conn):
        buf = b""
        send = lambda m: conn.sendall((json.dumps(m) + "\n").encode())
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                return
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                req = json.loads(line)
                op, rid = req["op"], req.get("id")
                if op == "hello":
                    send({"id": rid, "ok": True, "server": "symsim", "protocol": 1})
                elif op == "submit":
                    send({"id": rid, "ok": True, "run": "r1", "name": self.name, "state": "queued"})
                elif op == "watch":
                    send({"id": rid, "ok": True, "run": {"run": "r1"}})
                    send({"event": "done", "run": "r1", "outcome": "pass", "exit_code": 0})
                elif op == "result":
                    send({"id": rid, "ok": True, "run": "r1", "outcome": "pass", "exit_code": 0,
                          "result": self.result})

    def close(self):
        self.listener.close()
        for c in self.conns:
            c.close()
        import shutil

        shutil.rmtree(self.dir, ignore_errors=True)


class SubmitAgainstHostileServersTest(unittest.TestCase):
    def test_the_servers_name_never_chooses_the_folder(self):
        work = os.path.join(tempfile.mkdtemp(prefix="symcwd"), "w")  # ../../escaped would land in a fresh folder
        os.makedirs(work)
        outside = tempfile.mkdtemp(prefix="symoutside")
        scenario = os.path.join(work, "s.json")
        with open(scenario, "w") as f:
            json.dump(small_put(), f)
        real = tempfile.mkdtemp(prefix="symreal")  # a real result, so the summary prints as usual
        subprocess.run([SYMSIM, "run", scenario, "--out", real], capture_output=True, timeout=60, check=True)
        with open(os.path.join(real, "result.json")) as f:
            result = json.load(f)
        for name in ("../../escaped", os.path.join(outside, "abs"), "..", "a/b\nc", ""):
            fake = FakeServer(name, result=result)
            self.addCleanup(fake.close)
            p = subprocess.run([SYMSIM, "submit", scenario, "--server", "unix:" + fake.path, "--quiet"], cwd=work,
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 0, (name, p.stderr))
            written = [os.path.relpath(os.path.join(d, f), work) for d, _, fs in os.walk(work) for f in fs
                       if f == "result.json"]
            self.assertEqual(len(written), 1, written)
            folder = os.path.dirname(written[0])
            self.assertEqual(os.path.dirname(folder), "symsim-out", (name, written))
            self.assertFalse(os.path.basename(folder).startswith("."), folder)
            os.remove(os.path.join(work, written[0]))
        self.assertEqual(os.listdir(outside), [])
        self.assertFalse(os.path.exists(os.path.join(os.path.dirname(work), "escaped")))

    def test_a_silent_server_times_out_with_exit_2(self):
        fake = FakeServer(silent=True)
        self.addCleanup(fake.close)
        p = subprocess.run([SYMSIM, "submit", SCENARIO, "--server", "unix:" + fake.path, "--connect-timeout", "1"],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("--server", p.stderr)
        self.assertIn("no answer within 1", p.stderr)

    def test_connection_refused_exits_2(self):
        d = tempfile.mkdtemp(prefix="symref")
        path = os.path.join(d, "dead.sock")
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(path)  # a socket file nobody listens on
        self.addCleanup(s.close)
        p = subprocess.run([SYMSIM, "submit", SCENARIO, "--server", "unix:" + path], capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("Connection refused", p.stderr)
        self.assertIn("is `symsim serve` running", p.stderr)


class SubmitOutputsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server(workers=1)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.server.cleanup()

    def test_unwritable_outputs_exit_2_naming_the_path(self):
        d = tempfile.mkdtemp(prefix="symsubout")
        for args, path in ((["--trace", "/nonexistent/t.json"], "/nonexistent/t.json"),
                           (["--out", "/proc/x"], "/proc/x")):
            out = [] if "--out" in args else ["--out", os.path.join(d, "o")]
            p = subprocess.run([SYMSIM, "submit", SCENARIO, "--server", self.server.endpoint, "--quiet"] + out + args,
                               capture_output=True, text=True, timeout=120)
            self.assertEqual(p.returncode, 2, (args, p.stdout, p.stderr))
            self.assertIn(path, p.stderr)
            self.assertNotIn("pass", p.stdout)  # refused before anything ran
        self.assertFalse(os.path.exists("/nonexistent/t.json"))

    def test_timeout_while_waiting_exits_124(self):
        d = tempfile.mkdtemp(prefix="symsubto")
        path = os.path.join(d, "slow.json")
        with open(path, "w") as f:
            json.dump(small_put(512, 1000000, "slow_for_submit"), f)
        p = subprocess.run([SYMSIM, "submit", path, "--server", self.server.endpoint, "--quiet", "--timeout", "0.5"],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 124, p.stderr)
        self.assertIn("symsim submit --wait r", p.stderr)
        run = p.stderr.split("--wait ")[1].split(")")[0]
        subprocess.run([SYMSIM, "submit", "--server", self.server.endpoint, "--cancel", run], capture_output=True,
                       timeout=60)


if __name__ == "__main__":
    unittest.main()

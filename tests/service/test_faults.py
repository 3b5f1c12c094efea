"""Faults around `symsim serve`: clients that vanish mid-run, workers that crash or hang,
cancellation, and shutdown that finishes or cancels runs and says which."""
import json
import os
import signal
import time
import unittest

from serve_harness import LineSocket, Server, slow_put, small_put, wait_until
from symsim_client import Client


def wait_event(conn, kind, run=None):
    while True:
        e = conn.read()
        if e.get("event") == kind and (run is None or e.get("run") == run):
            return e


class FaultTest(unittest.TestCase):
    def setUp(self):
        self.server = Server(workers=2)
        self.addCleanup(self.server.cleanup)

    def test_client_disconnect_mid_run_loses_nothing(self):
        a = LineSocket(self.server.endpoint)
        a.send_json({"op": "submit", "id": 1, "scenario": small_put(65536, 64, "survivor")})
        run = a.read()["run"]
        wait_event(a, "state", run)
        a.close()  # gone while its run is running
        with Client(self.server.endpoint) as b:
            done = b.wait(b.watch(run)["run"], timeout=60)
            self.assertEqual(done["outcome"], "pass")
            result = b.result(run)
            self.assertEqual(result["stats"]["totals"]["bytes"], 2 * 64 * 65536)
        # The result is also in the run's folder, where the worker left it.
        with open(os.path.join(self.server.state_dir, "runs", run, "result.json")) as f:
            self.assertEqual(json.load(f)["status"], "pass")

    def test_worker_crash_is_reported_and_the_server_goes_on(self):
        c = LineSocket(self.server.endpoint)
        self.addCleanup(c.close)
        c.send_json({"op": "submit", "id": 1, "scenario": slow_put(name="doomed")})
        run = c.read()["run"]
        pid = wait_event(c, "state", run)["pid"]
        os.kill(pid, signal.SIGKILL)  # a worker dying of a signal, as a segfault would
        done = wait_event(c, "done", run)
        self.assertEqual(done["outcome"], "crashed")
        self.assertIn("signal 9", done["detail"])
        self.assertEqual(done["exit_code"], 3)
        c.send_json({"op": "result", "run": run, "id": 2})
        r = c.read()
        while "event" in r:
            r = c.read()
        self.assertEqual(r["error"]["code"], "no_result")
        # The same connection and the server carry on.
        c.send_json({"op": "submit", "id": 3, "scenario": small_put(name="after_crash")})
        run2 = c.read()["run"]
        self.assertEqual(wait_event(c, "done", run2)["outcome"], "pass")

    def test_worker_that_exits_without_a_result(self):
        # A scenario the worker rejects at load time only (a platform file that vanished is
        # the realistic case); here the run's scenario file is removed before the worker starts.
        c = LineSocket(self.server.endpoint)
        self.addCleanup(c.close)
        c.send_json({"op": "submit", "id": 1, "scenario": slow_put(name="blocker1")})
        c.send_json({"op": "submit", "id": 2, "scenario": slow_put(name="blocker2")})
        c.send_json({"op": "submit", "id": 3, "scenario": small_put(name="loses_its_file")})
        runs = {}
        while len(runs) < 3:
            m = c.read()
            if "run" in m and "event" not in m:
                runs[m["id"]] = m["run"]
        os.remove(os.path.join(self.server.state_dir, "runs", runs[3], "scenario.json"))
        for i in (1, 2):
            c.send_json({"op": "cancel", "run": runs[i], "id": 10 + i})
        done = wait_event(c, "done", runs[3])
        self.assertEqual(done["outcome"], "invalid")
        self.assertIn("cannot open", done["detail"])

    def test_run_timeout(self):
        server = Server("--run-timeout", "0.5", workers=1)
        self.addCleanup(server.cleanup)
        with Client(server.endpoint) as c:
            done, result = c.run(slow_put(name="too_slow"), timeout=60)
            self.assertEqual(done["outcome"], "timeout")
            self.assertIsNone(result)


class ShutdownTest(unittest.TestCase):
    def start(self):
        server = Server(workers=1)
        self.addCleanup(server.cleanup)
        c = LineSocket(server.endpoint)
        self.addCleanup(c.close)
        # r1 runs (about two seconds), r2 and r3 wait for the only worker.
        c.send_json({"op": "submit", "id": 1, "scenario": small_put(512, 60000, "finishing")})
        c.send_json({"op": "submit", "id": 2, "scenario": small_put(name="waiting_a")})
        c.send_json({"op": "submit", "id": 3, "scenario": small_put(name="waiting_b")})
        ids, started = {}, False
        while len(ids) < 3 or not started:
            m = c.read()
            if "event" not in m:
                ids[m["id"]] = m["run"]
            elif m["event"] == "state" and m["run"] == ids.get(1):
                started = True
        return server, c, ids

    def test_shutdown_finish_runs_the_running_and_cancels_the_queue(self):
        server, c, ids = self.start()
        c.send_json({"op": "shutdown", "mode": "finish", "id": 9})
        e = wait_event(c, "shutdown")
        self.assertEqual(e["mode"], "finish")
        self.assertEqual(e["finished"], [ids[1]])
        self.assertEqual(sorted(e["cancelled"]), sorted([ids[2], ids[3]]))
        code, err = server.wait_exit()
        self.assertEqual(code, 0)
        self.assertIn("finished during shutdown: [r1]", err)
        self.assertFalse(os.path.exists(server.socket))
        with open(os.path.join(server.state_dir, "shutdown.json")) as f:
            self.assertEqual(json.load(f)["cancelled"], e["cancelled"])
        with open(os.path.join(server.state_dir, "runs", ids[1], "result.json")) as f:
            self.assertEqual(json.load(f)["status"], "pass")

    def test_sigterm_twice_cancels_everything(self):
        server, c, ids = self.start()
        server.proc.send_signal(signal.SIGTERM)  # finish running, cancel queued
        time.sleep(0.2)
        server.proc.send_signal(signal.SIGTERM)  # and now cancel the running one too
        e = wait_event(c, "shutdown")
        self.assertEqual(e["mode"], "cancel")
        self.assertEqual(e["finished"], [])
        self.assertEqual(sorted(e["cancelled"]), sorted(ids.values()))
        code, _ = server.wait_exit()
        self.assertEqual(code, 0)

    def test_drain_runs_everything_and_refuses_new_work(self):
        server, c, ids = self.start()
        c.send_json({"op": "shutdown", "mode": "drain", "id": 9})
        m = c.read()
        while "event" in m:
            m = c.read()
        self.assertTrue(m["ok"])
        c.send_json({"op": "submit", "id": 10, "scenario": small_put(name="too_late")})
        m = c.read()
        while "event" in m:
            m = c.read()
        self.assertEqual(m["error"]["code"], "shutting_down")
        e = wait_event(c, "shutdown")
        self.assertEqual(sorted(e["finished"]), sorted(ids.values()))
        self.assertEqual(e["cancelled"], [])
        self.assertEqual(server.wait_exit()[0], 0)


if __name__ == "__main__":
    unittest.main()

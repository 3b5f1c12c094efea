"""Protocol conformance of `symsim serve` (docs/service.md) over real Unix and TCP sockets:
replies and errors for every op, framing limits, ordering, back-pressure and tokens."""
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest

from serve_harness import SYMSIM, LineSocket, Server, scenario_path, slow_put, small_put


class ProtocolTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server("--max-frame-bytes", "4096", workers=2)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.server.cleanup()

    def connect(self):
        c = LineSocket(self.server.endpoint)
        self.addCleanup(c.close)
        return c

    def test_hello(self):
        c = self.connect()
        c.send_json({"op": "hello", "id": "h1"})
        r = c.read()
        self.assertEqual(r["id"], "h1")
        self.assertTrue(r["ok"])
        self.assertEqual(r["protocol"], 1)
        self.assertEqual(r["server"], "symsim")
        self.assertEqual(r["workers"], 2)
        self.assertEqual(r["max_frame_bytes"], 4096)

    def test_errors_leave_the_connection_usable(self):
        c = self.connect()
        c.send(b"{not json\n")
        self.assertEqual(c.read()["error"]["code"], "bad_json")
        c.send(b"[1, 2]\n")
        self.assertEqual(c.read()["error"]["code"], "bad_request")
        c.send_json({"id": 7})
        r = c.read()
        self.assertEqual((r["id"], r["error"]["code"]), (7, "bad_request"))
        c.send_json({"op": "frobnicate", "id": 8})
        r = c.read()
        self.assertEqual((r["id"], r["op"], r["error"]["code"]), (8, "frobnicate", "unknown_op"))
        c.send_json({"op": "status", "id": 9})  # "run" missing
        self.assertEqual(c.read()["error"]["code"], "bad_request")
        c.send_json({"op": "status", "run": "r999999", "id": 10})
        self.assertEqual(c.read()["error"]["code"], "unknown_run")
        c.send_json({"op": "submit", "id": 11, "scenario": small_put(), "seed": -3})
        self.assertEqual(c.read()["error"]["code"], "bad_request")
        c.send_json({"op": "submit", "id": 13, "scenario": small_put(), "trace": {"pes": "zero"}})
        r = c.read()
        self.assertEqual(r["error"]["code"], "bad_request")
        self.assertIn("trace", r["error"]["message"])
        c.send_json({"op": "list", "id": 12})
        r = c.read()
        self.assertTrue(r["ok"])
        self.assertEqual(r["id"], 12)

    def test_oversized_frame_is_refused_and_skipped(self):
        c = self.connect()
        c.send_json({"op": "submit", "id": "before", "scenario": small_put(name="before_big_frame")})
        r, _ = c.read_reply()
        self.assertTrue(r["ok"])
        run = r["run"]
        # 100 KB in pieces, then a normal request right behind it on the same connection.
        big = b'{"op":"list","pad":"' + b"x" * 100000 + b'"}\n'
        for i in range(0, len(big), 8192):
            c.send(big[i:i + 8192])
        c.send_json({"op": "hello", "id": "after"})
        r, events = c.read_reply()
        self.assertEqual(r["error"]["code"], "frame_too_large")
        r, more = c.read_reply()
        self.assertEqual((r["id"], r["ok"]), ("after", True))
        events += more
        # The run submitted before the bad frame was not harmed.
        while not any(e["event"] == "done" for e in events):
            events.append(c.read())
        done = [e for e in events if e["event"] == "done"][0]
        self.assertEqual((done["run"], done["outcome"]), (run, "pass"))

    def test_invalid_scenario_names_the_pointer(self):
        c = self.connect()
        bad = small_put()
        bad["kernel"]["name"] = "no_such_kernel"
        c.send_json({"op": "submit", "id": 1, "scenario": bad, "name": "bad.json"})
        r = c.read()
        self.assertEqual(r["error"]["code"], "invalid_scenario")
        self.assertIn("bad.json", r["error"]["message"])
        self.assertIn("/kernel/name", r["error"]["message"])
        c.send_json({"op": "submit", "id": 2, "scenario": small_put(), "set": ["kernel.args.nope=1"]})
        r = c.read()
        self.assertEqual(r["error"]["code"], "invalid_scenario")

    def test_run_lifecycle_and_event_order(self):
        c = self.connect()
        c.send_json({"op": "submit", "id": "s", "scenario": small_put(4096, 2, "lifecycle"), "trace": True})
        r = c.read()  # the reply comes before any event of its run
        self.assertNotIn("event", r)
        self.assertEqual((r["id"], r["ok"], r["state"], r["name"]), ("s", True, "queued", "lifecycle"))
        run = r["run"]
        kinds = []
        while True:
            e = c.read()
            self.assertEqual(e["run"], run)
            kinds.append(e["event"])
            if e["event"] == "done":
                break
        self.assertEqual(kinds[0], "state")
        self.assertTrue(set(kinds) <= {"state", "progress", "hazard", "done"})
        self.assertEqual((e["outcome"], e["exit_code"]), ("pass", 0))
        c.send_json({"op": "status", "run": run, "id": 1})
        st = c.read()["run"]
        self.assertEqual((st["state"], st["outcome"]), ("done", "pass"))
        c.send_json({"op": "result", "run": run, "id": 2})
        res = c.read()["result"]
        self.assertEqual(res["status"], "pass")
        self.assertEqual(res["stats"]["totals"]["bytes"], 2 * 2 * 4096)
        # The trace in small chunks reassembles into the trace file.
        chunks, offset = [], 0
        while True:
            c.send_json({"op": "trace", "run": run, "offset": offset, "max_bytes": 1000, "id": 3})
            t = c.read()
            self.assertTrue(t["ok"])
            self.assertLessEqual(len(t["data"].encode()), 1000)
            chunks.append(t["data"])
            offset += len(t["data"].encode())
            if t["eof"]:
                break
        self.assertEqual(offset, t["total_bytes"])
        self.assertIn("traceEvents", json.loads("".join(chunks)))
        c.send_json({"op": "list", "id": 4})
        listed = {x["run"]: x for x in c.read()["runs"]}
        self.assertEqual(listed[run]["outcome"], "pass")

    def test_pipelined_requests_answered_in_order(self):
        c = self.connect()
        c.send("".join(json.dumps({"op": "hello", "id": i}) + "\n" for i in range(20)))
        self.assertEqual([c.read()["id"] for _ in range(20)], list(range(20)))

    def test_result_before_done_and_cancel(self):
        c = self.connect()
        c.send_json({"op": "submit", "id": 1, "scenario": slow_put(name="slow_cancel")})
        run = c.read()["run"]
        c.send_json({"op": "result", "run": run, "id": 2})
        r, _ = c.read_reply()
        self.assertEqual(r["error"]["code"], "not_finished")
        c.send_json({"op": "trace", "run": run, "id": 3})
        r, _ = c.read_reply()
        self.assertEqual(r["error"]["code"], "not_finished")
        c.send_json({"op": "cancel", "run": run, "id": 4})
        r, events = c.read_reply()
        self.assertTrue(r["ok"])
        while not any(e["event"] == "done" for e in events):
            events.append(c.read())
        done = [e for e in events if e["event"] == "done"][0]
        self.assertEqual(done["outcome"], "cancelled")
        c.send_json({"op": "cancel", "run": run, "id": 5})
        self.assertEqual(c.read()["error"]["code"], "already_finished")
        c.send_json({"op": "result", "run": run, "id": 6})
        self.assertEqual(c.read()["error"]["code"], "no_result")

    def test_watch_from_another_connection_replays_the_end(self):
        a = self.connect()
        a.send_json({"op": "submit", "id": 1, "scenario": small_put(name="watched"), "watch": False})
        run = a.read()["run"]
        b = self.connect()
        b.send_json({"op": "watch", "run": run, "id": 2})
        r = b.read()
        self.assertTrue(r["ok"])
        e = b.read()
        while e["event"] != "done":
            e = b.read()
        self.assertEqual((e["run"], e["outcome"]), (run, "pass"))


class BackPressureTest(unittest.TestCase):
    """One worker and a queue of one: a further submit waits (or fails fast with block: false)."""

    def test_queue_full_and_blocking_submit(self):
        server = Server("--queue", "1", workers=1)
        self.addCleanup(server.cleanup)
        c = LineSocket(server.endpoint)
        self.addCleanup(c.close)
        c.send_json({"op": "submit", "id": 1, "scenario": slow_put(name="running")})
        first, _ = c.read_reply()
        # Wait until it runs, so the queue is empty again.
        e = c.read()
        while e.get("event") != "state":
            e = c.read()
        c.send_json({"op": "submit", "id": 2, "scenario": small_put(name="queued")})
        self.assertTrue(c.read_reply()[0]["ok"])
        c.send_json({"op": "submit", "id": 3, "scenario": small_put(name="refused"), "block": False})
        r, _ = c.read_reply()
        self.assertEqual(r["error"]["code"], "queue_full")
        # A blocking submit is held: no reply until the queue has room again.
        c.send_json({"op": "submit", "id": 4, "scenario": small_put(name="held")})
        end = time.monotonic() + 1.0  # a second of progress events, and no reply
        while time.monotonic() < end:
            self.assertIn("event", c.read())
        other = LineSocket(server.endpoint)  # other clients are still served meanwhile
        other.send_json({"op": "cancel", "run": first["run"], "id": 5})
        self.assertTrue(other.read_reply()[0]["ok"])
        other.close()
        r, _ = c.read_reply()
        self.assertEqual((r["id"], r["ok"]), (4, True))
        code, _ = server.stop()
        self.assertEqual(code, 0)


class TcpTokenTest(unittest.TestCase):
    def test_token_required_on_tcp(self):
        server = Server("--token", "s3cret", tcp=True, workers=1)
        self.addCleanup(server.cleanup)
        self.assertTrue(server.endpoint.startswith("tcp:127.0.0.1:"))
        c = LineSocket(server.endpoint)
        self.addCleanup(c.close)
        c.send_json({"op": "list", "id": 1})
        self.assertEqual(c.read()["error"]["code"], "unauthorized")
        c.send_json({"op": "hello", "id": 2, "token": "wrong"})
        self.assertEqual(c.read()["error"]["code"], "unauthorized")
        c.send_json({"op": "hello", "id": 3, "token": "s3cret"})
        self.assertTrue(c.read()["ok"])
        c.send_json({"op": "submit", "id": 4, "scenario": small_put(name="over_tcp")})
        r, _ = c.read_reply()
        self.assertTrue(r["ok"])
        e = c.read()
        while e.get("event") != "done":
            e = c.read()
        self.assertEqual(e["outcome"], "pass")
        self.assertEqual(server.stop()[0], 0)

    def test_public_address_needs_explicit_consent_and_token(self):
        state = tempfile.mkdtemp(prefix="sympub")
        self.addCleanup(shutil.rmtree, state, True)
        for extra, why in ((["--listen", "tcp:0.0.0.0:0"], "--public"), (["--listen", "tcp:0.0.0.0:0", "--public"], "--token")):
            p = subprocess.run([SYMSIM, "serve", "--dir", state] + extra, capture_output=True, text=True, timeout=30,
                               env=dict(os.environ, SYMSIM_TOKEN=""))
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn(why, p.stderr)

if __name__ == "__main__":
    unittest.main()

"""The Python client against a real `symsim serve`: run, wait for many, events, results,
traces, cancel, errors, and shutdown. Stdlib only."""
import json
import os
import unittest

from serve_harness import Server, scenario_path, slow_put, small_put
from symsim_client import Client, ConnectionClosed, ServerError, parse_endpoint


class EndpointTest(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(parse_endpoint("unix:/a/b.sock"), ("unix", "/a/b.sock"))
        self.assertEqual(parse_endpoint("x/s.sock"), ("unix", "x/s.sock"))
        self.assertEqual(parse_endpoint("tcp:127.0.0.1:80"), ("tcp", ("127.0.0.1", 80)))
        self.assertEqual(parse_endpoint("[::1]:9"), ("tcp", ("::1", 9)))
        with self.assertRaises(ValueError):
            parse_endpoint("tcp:nohost")


class ClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server(workers=2)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.server.cleanup()

    def client(self):
        c = Client(self.server.endpoint)
        self.addCleanup(c.close)
        return c

    def test_run_a_scenario_file(self):
        c = self.client()
        self.assertEqual(c.hello["protocol"], 1)
        seen = []
        done, result = c.run(scenario_path("scenarios/udma/udma_put_signal_2pe.json"), on_event=seen.append, seed=3)
        self.assertEqual(done["outcome"], "pass")
        self.assertEqual(result["seed"], 3)
        self.assertEqual(result["scenario"], "udma_put_signal_2pe")
        self.assertEqual(seen[-1]["event"], "done")
        self.assertEqual(seen[0]["event"], "state")

    def test_many_runs_and_their_results(self):
        c = self.client()
        runs = {c.submit(small_put(512 * (i + 1), 1, f"many_{i}")): i for i in range(6)}
        dones = c.wait(list(runs), timeout=120)
        self.assertEqual(set(dones), set(runs))
        for rid, i in runs.items():
            self.assertEqual(c.result(rid)["stats"]["totals"]["bytes"], 2 * 512 * (i + 1))
            self.assertEqual(c.status(rid)["outcome"], "pass")
        listed = {r["run"] for r in c.list(state="done")}
        self.assertTrue(set(runs) <= listed)

    def test_trace(self):
        c = self.client()
        rid = c.submit(small_put(name="traced"), trace=True)
        c.wait(rid, timeout=60)
        trace = json.loads(c.trace(rid, chunk_bytes=700))
        self.assertTrue(any(e.get("ph") == "X" for e in trace["traceEvents"]))
        untraced = c.submit(small_put(name="untraced"))
        c.wait(untraced, timeout=60)
        with self.assertRaises(ServerError) as e:
            c.trace(untraced)
        self.assertEqual(e.exception.code, "no_trace")

    def test_errors_are_exceptions(self):
        c = self.client()
        bad = small_put()
        bad["pes"] = 0
        with self.assertRaises(ServerError) as e:
            c.submit(bad, name="zero_pes.json")
        self.assertEqual(e.exception.code, "invalid_scenario")
        self.assertIn("/pes", e.exception.message)
        with self.assertRaises(ServerError) as e:
            c.status("r0")
        self.assertEqual(e.exception.code, "unknown_run")

    def test_cancel(self):
        c = self.client()
        rid = c.submit(slow_put(name="to_cancel"))
        c.cancel(rid)
        done, = c.wait([rid], timeout=60).values()
        self.assertEqual(done["outcome"], "cancelled")

    def test_wait_on_a_run_finished_elsewhere(self):
        a = self.client()
        rid = a.submit(small_put(name="elsewhere"), watch=False)
        b = self.client()
        b.watch(rid)
        self.assertEqual(b.wait(rid, timeout=60)["outcome"], "pass")


class ShutdownClientTest(unittest.TestCase):
    def test_shutdown(self):
        server = Server(workers=1)
        self.addCleanup(server.cleanup)
        with Client(server.endpoint) as c:
            rid = c.submit(small_put(name="before_shutdown"))
            c.wait(rid, timeout=60)
            e = c.shutdown("finish")
            self.assertEqual((e["mode"], e["finished"], e["cancelled"]), ("finish", [], []))
            with self.assertRaises((ConnectionClosed, OSError)):
                c.list()
        self.assertEqual(server.wait_exit()[0], 0)


if __name__ == "__main__":
    unittest.main()

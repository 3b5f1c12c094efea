"""The service's security model (docs/security.md), each case as a hostile local user would try
it: private socket and folder, TCP tokens, repeated bad tokens, scenario_path confined to
--root and bounded, error messages that never quote files, bounded requests, and a hostile
request that does not hold up other clients."""
import json
import os
import socket
import stat
import tempfile
import time
import unittest

from serve_harness import LineSocket, Server, small_put


def submit_path(c, path, **extra):
    c.send_json(dict({"op": "submit", "id": "p", "scenario_path": path}, **extra))
    r, _ = c.read_reply()
    return r


class PrivateStateTest(unittest.TestCase):
    def test_socket_and_folders_are_private_under_any_umask(self):
        server = Server(workers=1, preexec_fn=lambda: os.umask(0))
        self.addCleanup(server.cleanup)
        self.assertEqual(stat.S_IMODE(os.stat(server.socket).st_mode), 0o600)
        self.assertEqual(stat.S_IMODE(os.stat(server.state_dir).st_mode), 0o700)
        c = LineSocket(server.endpoint)
        self.addCleanup(c.close)
        c.send_json({"op": "submit", "id": 1, "scenario": small_put(name="private")})
        r, _ = c.read_reply()
        self.assertTrue(r["ok"], r)
        run_dir = os.path.join(server.state_dir, "runs", r["run"])
        self.assertEqual(stat.S_IMODE(os.stat(run_dir).st_mode), 0o700)
        self.assertEqual(stat.S_IMODE(os.stat(os.path.join(run_dir, "scenario.json")).st_mode), 0o600)


class TokenTest(unittest.TestCase):
    def test_tcp_needs_a_token_even_when_none_is_given(self):
        server = Server(tcp=True, workers=1, env={"SYMSIM_TOKEN": ""})
        self.addCleanup(server.cleanup)
        token_file = os.path.join(server.state_dir, "token")
        self.assertEqual(stat.S_IMODE(os.stat(token_file).st_mode), 0o600)
        self.assertGreaterEqual(len(server.token), 32)
        self.assertIn(token_file, server.proc.stderr.readline())  # where to find it
        c = LineSocket(server.endpoint)
        self.addCleanup(c.close)
        c.send_json({"op": "list", "id": 1})
        self.assertEqual(c.read()["error"]["code"], "unauthorized")
        c.send_json({"op": "hello", "id": 2, "token": server.token})
        self.assertTrue(c.read()["ok"])
        c.send_json({"op": "list", "id": 3})
        self.assertTrue(c.read()["ok"])

    def test_repeated_bad_tokens_close_the_connection(self):
        server = Server("--token", "s3cret", workers=1)
        self.addCleanup(server.cleanup)
        c = LineSocket(server.endpoint)
        self.addCleanup(c.close)
        for i in range(3):
            c.send_json({"op": "hello", "id": i, "token": f"guess{i}"})
            self.assertEqual(c.read()["error"]["code"], "unauthorized")
        with self.assertRaises((EOFError, ConnectionError)):
            c.send_json({"op": "hello", "id": 9, "token": "s3cret"})
            c.read()
        # A new connection with the right token is still welcome.
        d = LineSocket(server.endpoint)
        self.addCleanup(d.close)
        d.send_json({"op": "hello", "id": 1, "token": "s3cret"})
        self.assertTrue(d.read()["ok"])


class ScenarioPathTest(unittest.TestCase):
    """scenario_path reads only regular files under --root, bounded, and never quotes them."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="symroot")
        cls.root = os.path.join(cls.tmp, "root")
        os.makedirs(os.path.join(cls.root, "sub"))
        with open(os.path.join(cls.root, "sub", "good.json"), "w") as f:
            json.dump(small_put(name="from_root"), f)
        cls.secret = os.path.join(cls.tmp, "secret.json")  # outside the root, 0600
        with open(cls.secret, "w") as f:
            json.dump({"symsim": 1, "PRIVATE_KEY_d41d8cd9": "hunter2"}, f)
        os.chmod(cls.secret, 0o600)
        with open(os.path.join(cls.root, "leaky.json"), "w") as f:
            json.dump({"symsim": 1, "PRIVATE_KEY_d41d8cd9": "hunter2"}, f)
        os.symlink(cls.secret, os.path.join(cls.root, "link_out.json"))
        os.symlink("sub/good.json", os.path.join(cls.root, "link_in.json"))
        os.symlink("/dev/zero", os.path.join(cls.root, "zero.json"))
        os.mkfifo(os.path.join(cls.root, "fifo.json"))
        with open(os.path.join(cls.root, "huge.json"), "wb") as f:
            f.truncate(1 << 30)  # 1 GiB, sparse
        cls.server = Server("--root", cls.root, workers=1)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.server.cleanup()
        import shutil

        shutil.rmtree(cls.tmp, ignore_errors=True)

    def connect(self):
        c = LineSocket(self.server.endpoint)
        c.sock.settimeout(20)  # a read that blocks the server fails the test instead of hanging it
        self.addCleanup(c.close)
        return c

    def test_files_under_the_root_run(self):
        c = self.connect()
        for path in ("sub/good.json", os.path.join(self.root, "sub", "good.json"), "link_in.json"):
            r = submit_path(c, path)
            self.assertTrue(r["ok"], (path, r))
            self.assertEqual(r["name"], "from_root")

    def test_nothing_outside_the_root(self):
        c = self.connect()
        for path, why in ((self.secret, "outside"), ("../secret.json", "outside"), ("link_out.json", "outside"),
                          ("/etc/passwd", "outside"), ("sub/../../secret.json", "outside"),
                          ("missing.json", "cannot open")):
            r = submit_path(c, path)
            self.assertEqual(r["error"]["code"], "invalid_scenario", (path, r))
            self.assertIn(why, r["error"]["message"])
            self.assertIn(path, r["error"]["message"])
            self.assertNotIn("PRIVATE_KEY", r["error"]["message"])

    def test_errors_never_quote_the_file(self):
        c = self.connect()
        r = submit_path(c, "leaky.json")
        self.assertEqual(r["error"]["code"], "invalid_scenario")
        self.assertNotIn("PRIVATE_KEY", r["error"]["message"])
        self.assertNotIn("hunter2", r["error"]["message"])
        self.assertIn("symsim validate", r["error"]["message"])

    def test_devices_fifos_folders_and_huge_files_are_refused_at_once(self):
        c = self.connect()
        for path, why in (("fifo.json", "not a regular file"), ("zero.json", "outside"),
                          ("/dev/zero", "outside"), ("sub", "folder"), ("huge.json", "more than the limit")):
            start = time.monotonic()
            r = submit_path(c, path)
            self.assertEqual(r["error"]["code"], "invalid_scenario", (path, r))
            self.assertIn(why, r["error"]["message"])
            self.assertLess(time.monotonic() - start, 10, path)
        c.send_json({"op": "hello", "id": "still"})  # and the server is fine
        self.assertTrue(c.read_reply()[0]["ok"])


class BoundedRequestTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server(workers=1)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.server.cleanup()

    def connect(self):
        c = LineSocket(self.server.endpoint)
        c.sock.settimeout(20)
        self.addCleanup(c.close)
        return c

    def test_trace_pes_ranges_are_bounded_by_the_scenario(self):
        c = self.connect()
        for pes, why in (("0-2147483647", "does not exist"), ("99999999999", "PE list"), ("1-0", "backwards"),
                         ("0,0,1", "more PEs"), ("-1", "PE list"), ("2", "does not exist")):
            c.send_json({"op": "submit", "id": pes, "scenario": small_put(name="tp"), "trace": {"pes": pes}})
            r, _ = c.read_reply()
            self.assertEqual((r["id"], r["error"]["code"]), (pes, "bad_request"), r)
            self.assertIn(why, r["error"]["message"])
        c.send_json({"op": "submit", "id": "ok", "scenario": small_put(name="tp"), "trace": {"pes": "0-1"}})
        self.assertTrue(c.read_reply()[0]["ok"])

    def test_trace_window_is_checked(self):
        c = self.connect()
        for window in ("-1:5", "10:5", "1e300:1e301", "a:b", "5"):
            c.send_json({"op": "submit", "id": window, "scenario": small_put(name="tw"),
                         "trace": {"window_us": window}})
            r, _ = c.read_reply()
            self.assertEqual(r["error"]["code"], "bad_request", r)
            self.assertIn("window_us", r["error"]["message"])

    def test_out_of_range_numbers_are_the_clients_error(self):
        # A fuzz find: a "set" value of 1e400 threw a JSON exception, answered "internal".
        c = self.connect()
        c.send_json({"op": "submit", "id": 1, "scenario": small_put(name="big_number"),
                     "set": ["kernel.args.bytes=21e308048"]})
        r, _ = c.read_reply()
        self.assertEqual(r["error"]["code"], "invalid_scenario", r)

    def test_deep_nesting_is_refused_and_the_server_lives(self):
        c = self.connect()
        depth = 400000  # 800 KB: under the frame limit; echoing it would recurse 400000 deep
        c.send('{"op":"hello","id":' + "[" * depth + "]" * depth + "}\n")
        r = c.read()
        self.assertEqual(r["error"]["code"], "bad_json")
        self.assertIn("nested", r["error"]["message"])
        c.send_json({"op": "hello", "id": "after"})
        self.assertTrue(c.read()["ok"])

    def test_timeout_s_is_bounded(self):
        c = self.connect()
        for t in (9.3e9, 1e300, -1, "10"):
            c.send_json({"op": "submit", "id": 1, "scenario": small_put(name="to"), "timeout_s": t})
            r, _ = c.read_reply()
            self.assertEqual(r["error"]["code"], "bad_request", (t, r))
            self.assertIn("timeout_s", r["error"]["message"])
        # The largest limit allowed runs (it neither overflows nor fires at once).
        c.send_json({"op": "submit", "id": 2, "scenario": small_put(name="long_limit"), "timeout_s": 1e9})
        r, events = c.read_reply()
        self.assertTrue(r["ok"], r)
        while not any(e.get("event") == "done" and e["run"] == r["run"] for e in events):
            events.append(c.read())
        done = [e for e in events if e.get("event") == "done" and e["run"] == r["run"]][0]
        self.assertEqual(done["outcome"], "pass")


class HostileRequestTest(unittest.TestCase):
    def test_other_clients_are_served_while_a_huge_scenario_is_validated(self):
        # Validation runs off the event thread: while it reads and parses a 160 MB scenario
        # (allowed by --max-frame-bytes here), another connection's requests are answered.
        tmp = tempfile.mkdtemp(prefix="symbig")
        server = Server("--root", tmp, "--max-frame-bytes", str(200 << 20), workers=1)
        self.addCleanup(server.cleanup)
        big = small_put(name="big")
        big["description"] = "x" * (160 << 20)
        with open(os.path.join(tmp, "big.json"), "w") as f:
            json.dump(big, f)
        other = LineSocket(server.endpoint)
        self.addCleanup(other.close)
        other.send_json({"op": "hello", "id": 0})
        other.read()
        hostile = LineSocket(server.endpoint)
        self.addCleanup(hostile.close)
        hostile.sock.settimeout(120)
        hostile.send_json({"op": "submit", "id": "big", "scenario_path": "big.json", "set": ["kernel.args.nope=1"]})
        time.sleep(0.05)  # let the server take the hostile request first
        for i in range(5):
            other.send_json({"op": "list", "id": i})
            self.assertTrue(other.read()["ok"])
        # The hostile submit is still being validated: its reply has not come yet.
        hostile.sock.setblocking(False)
        with self.assertRaises(BlockingIOError):
            hostile.sock.recv(1)
        hostile.sock.settimeout(120)
        r, _ = hostile.read_reply()
        self.assertEqual(r["error"]["code"], "invalid_scenario")
        self.assertEqual(server.stop()[0], 0)
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()

"""The service's messages match docs/schema/service.schema.json: a real `symsim serve`, one
session (hello, submit with events, status, list, result, trace, errors), every message read
validated with python3-jsonschema. Run by ctest as schema.service_messages."""
import json
import os
import sys
import unittest

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed (./dev installs it): skipped")
    sys.exit(77)

from serve_harness import SOURCE_DIR, LineSocket, Server, small_put

SCHEMA_DIR = os.path.join(SOURCE_DIR, "docs", "schema")


def validator():
    store = {}
    for name in ("scenario", "result", "sweep", "service"):
        with open(os.path.join(SCHEMA_DIR, name + ".schema.json")) as f:
            store["file://" + os.path.join(SCHEMA_DIR, name + ".schema.json")] = json.load(f)
    service_uri = "file://" + os.path.join(SCHEMA_DIR, "service.schema.json")
    resolver = jsonschema.RefResolver(base_uri=service_uri, referrer=store[service_uri], store=store)
    return jsonschema.Draft7Validator(store[service_uri], resolver=resolver)


class ServiceSchemaTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.validator = validator()
        cls.server = Server(workers=1)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.server.cleanup()

    def check(self, message):
        errors = ["/" + "/".join(map(str, e.absolute_path)) + ": " + e.message
                  for e in self.validator.iter_errors(message)]
        self.assertEqual(errors, [], json.dumps(message)[:2000])
        return message

    def test_a_session_matches_the_schema(self):
        c = LineSocket(self.server.endpoint)
        self.addCleanup(c.close)
        requests = [{"op": "hello", "id": 1}]
        c.send_json(requests[-1])
        self.assertTrue(self.check(c.read())["ok"])

        scenario = small_put()
        requests.append({"op": "submit", "id": 2, "scenario": scenario, "trace": True, "watch": True})
        c.send_json(requests[-1])
        reply, events = c.read_reply()
        self.check(reply)
        run = reply["run"]
        kinds = set()
        while "done" not in kinds:
            m = self.check(c.read())
            self.assertIn("event", m)
            kinds.add(m["event"])
        self.assertIn("state", kinds)
        for r in ({"op": "status", "run": run, "id": 3}, {"op": "list", "id": 4}, {"op": "result", "run": run, "id": 5},
                  {"op": "trace", "run": run, "max_bytes": 100, "id": 6}, {"op": "status", "run": "r999999", "id": 7},
                  {"op": "frobnicate", "id": 8}, {"op": "cancel", "run": run, "id": 9}):
            requests.append(r)
            c.send_json(r)
            reply, events = c.read_reply()
            self.check(reply)
            for e in events:
                self.check(e)
        # What a client sends matches the schema too (the unknown op aside: that one must not).
        for r in requests:
            if r["op"] != "frobnicate":
                self.check(r)
        self.assertTrue(list(self.validator.iter_errors({"op": "frobnicate", "id": 8})))


if __name__ == "__main__":
    unittest.main()

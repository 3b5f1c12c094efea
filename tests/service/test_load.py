"""A bounded load test on loopback: 8 concurrent clients submit 200 small scenarios through a
queue small enough to push back. Every result must be correct, none lost, none duplicated."""
import threading
import time
import unittest

from serve_harness import Server, small_put
from symsim_client import Client

CLIENTS = 8
PER_CLIENT = 25
IDLE_RUNS = 20


def expected_bytes(bytes_, rounds):
    return 2 * bytes_ * rounds  # two PEs, each puts `rounds` times to its neighbour


def server_peak_rss_kib(pid):
    """The server's own high-water mark of resident memory (workers are separate processes)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


class LoadTest(unittest.TestCase):
    def run_load(self, tcp):
        server = Server("--queue", "8", workers=2, tcp=tcp)
        self.addCleanup(server.cleanup)
        outcomes, errors, submit_s = {}, [], []
        lock = threading.Lock()

        def client(k):
            try:
                with Client(server.endpoint, token=server.token, timeout=120) as c:
                    mine = {}
                    for i in range(PER_CLIENT):  # submits wait while the queue is full
                        b, r = 512 * (1 + (k + i) % 8), 1 + (k * PER_CLIENT + i) % 3
                        t0 = time.monotonic()
                        rid = c.submit(small_put(b, r, f"load_c{k}_{i}"))
                        with lock:
                            submit_s.append(time.monotonic() - t0)
                        mine[rid] = (k, i, b, r)
                    dones = c.wait(list(mine), timeout=120)
                    for rid, (kk, i, b, r) in mine.items():
                        res = c.result(rid)
                        with lock:
                            outcomes.setdefault(rid, []).append((kk, i, b, r, dones[rid]["outcome"], res))
            except Exception as e:  # reported below, with the others
                with lock:
                    errors.append(f"client {k}: {e!r}")

        # Submit latency with an idle queue: one client, one run at a time.
        idle_s = []
        with Client(server.endpoint, token=server.token, timeout=60) as c:
            for i in range(IDLE_RUNS):
                t0 = time.monotonic()
                rid = c.submit(small_put(512, 1, f"idle_{i}"))
                idle_s.append(time.monotonic() - t0)
                self.assertEqual(c.wait([rid], timeout=60)[rid]["outcome"], "pass")
        idle_s.sort()

        start = time.monotonic()
        threads = [threading.Thread(target=client, args=(k,)) for k in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(150)
        elapsed = time.monotonic() - start
        self.assertEqual(errors, [])
        # None lost, none duplicated: 200 distinct runs, each reported to exactly one client.
        self.assertEqual(len(outcomes), CLIENTS * PER_CLIENT)
        self.assertTrue(all(len(v) == 1 for v in outcomes.values()))
        self.assertEqual({(v[0][0], v[0][1]) for v in outcomes.values()},
                         {(k, i) for k in range(CLIENTS) for i in range(PER_CLIENT)})
        for rid, [(k, i, b, r, outcome, res)] in outcomes.items():
            self.assertEqual(outcome, "pass", rid)
            self.assertEqual(res["scenario"], f"load_c{k}_{i}")
            self.assertEqual(res["stats"]["totals"]["bytes"], expected_bytes(b, r), rid)
            self.assertEqual(res["stats"]["totals"]["wqes"], 2 * r, rid)
        peak_rss_kib = server_peak_rss_kib(server.proc.pid)
        with Client(server.endpoint, token=server.token) as c:
            listed = c.list()
            self.assertEqual(len(listed), CLIENTS * PER_CLIENT + IDLE_RUNS)
            self.assertTrue(all(x["state"] == "done" and x["outcome"] == "pass" for x in listed))
            c.shutdown("finish")
        self.assertEqual(server.wait_exit()[0], 0)
        submit_s.sort()
        print(f"\n{CLIENTS * PER_CLIENT} runs from {CLIENTS} clients in {elapsed:.1f} s "
              f"({CLIENTS * PER_CLIENT / elapsed:.0f} runs/s, {'tcp' if tcp else 'unix'}); submit latency idle "
              f"median {1e3 * idle_s[len(idle_s) // 2]:.2f} ms, under load "
              f"median {1e3 * submit_s[len(submit_s) // 2]:.1f} ms, p99 {1e3 * submit_s[len(submit_s) * 99 // 100]:.1f} ms "
              f"(waits while the queue is full); server peak RSS {peak_rss_kib / 1024:.1f} MiB")

    def test_200_runs_unix_socket(self):
        self.run_load(tcp=False)

    def test_200_runs_loopback_tcp(self):
        self.run_load(tcp=True)


if __name__ == "__main__":
    unittest.main()

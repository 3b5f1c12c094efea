"""Starts a real `symsim serve` for a test and stops it afterwards (stdlib only).

The symsim binary comes from $SYMSIM_BIN (ctest sets it) and scenarios from $SYMSIM_SOURCE_DIR.
"""
import os
import shutil
import signal
import subprocess
import tempfile
import time

SYMSIM = os.environ.get("SYMSIM_BIN", "symsim")
SOURCE_DIR = os.environ.get("SYMSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def scenario_path(rel):
    return os.path.join(SOURCE_DIR, rel)


def small_put(bytes_=512, rounds=1, name="load_put"):
    """A small, fast two-PE put scenario (tens of milliseconds per run)."""
    return {
        "symsim": 1,
        "name": name,
        "seed": 1,
        "platform": "ascend910c",
        "pes": 2,
        "kernel": {"name": "udma_put", "blocks": 1, "args": {"bytes": bytes_, "rounds": rounds}},
        "expect": {"hazards": []},
    }


class Server:
    """A `symsim serve` child process on a Unix socket (or loopback TCP) in a temporary folder."""

    def __init__(self, *extra, tcp=False, workers=2, env=None, preexec_fn=None, state_dir=None):
        self.dir = tempfile.mkdtemp(prefix="symsrv")
        self.state_dir = state_dir or os.path.join(self.dir, "state")
        args = [SYMSIM, "serve", "--dir", self.state_dir, "--workers", str(workers)]
        if tcp:
            args += ["--listen", "tcp:127.0.0.1:0"]
        else:
            self.socket = os.path.join(self.dir, "s.sock")
            args += ["--socket", self.socket]
        args += list(extra)
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env=dict(os.environ, **(env or {})), preexec_fn=preexec_fn)
        line = self.proc.stdout.readline()  # "symsim serve: listening on ..."
        if "listening on" not in line:
            self.proc.kill()
            raise RuntimeError(f"symsim serve did not start: {line!r} {self.proc.stderr.read()}")
        self.endpoint = line.strip().split("listening on ", 1)[1]
        # TCP always needs a token: the one given, else the one the server generated.
        self.token = None
        if "--token" in extra:
            self.token = extra[list(extra).index("--token") + 1]
        elif tcp:
            with open(os.path.join(self.state_dir, "token")) as f:
                self.token = f.read().strip()

    def stop(self, timeout=60):
        """SIGTERM twice (cancel whatever still runs), then wait; returns (exit code, stderr)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(0.2)
            except subprocess.TimeoutExpired:
                self.proc.send_signal(signal.SIGTERM)
        try:
            _, err = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        return self.proc.returncode, err

    def wait_exit(self, timeout=60):
        try:
            _, err = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise
        return self.proc.returncode, err

    def cleanup(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate()
        shutil.rmtree(self.dir, ignore_errors=True)


def wait_until(predicate, timeout=30.0, step=0.02):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return False


def slow_put(rounds=1000000, name="slow_put"):
    """A put scenario that runs for seconds (1e6 rounds of 512 B: ~30 s) unless stopped."""
    return small_put(512, rounds, name)


def raw_connect(endpoint):
    """A plain socket to a server endpoint ('unix:PATH' or 'tcp:HOST:PORT')."""
    import socket

    if endpoint.startswith("unix:"):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(endpoint[5:])
    else:
        host, _, port = endpoint[4:].rpartition(":")
        s = socket.create_connection((host, int(port)))
    s.settimeout(30)
    return s


class LineSocket:
    """Raw JSON-lines access for protocol tests: send bytes, read one message at a time."""

    def __init__(self, endpoint):
        self.sock = raw_connect(endpoint)
        self.buf = b""

    def send(self, data):
        self.sock.sendall(data if isinstance(data, bytes) else data.encode())

    def send_json(self, obj):
        import json

        self.send(json.dumps(obj) + "\n")

    def read(self):
        import json

        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("connection closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def read_reply(self):
        """The next reply, skipping events (returned as the second value)."""
        events = []
        while True:
            m = self.read()
            if "event" in m:
                events.append(m)
            else:
                return m, events

    def close(self):
        self.sock.close()

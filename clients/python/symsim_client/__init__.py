"""A dependency-free client of `symsim serve` (service protocol 1, docs/service.md).

    from symsim_client import Client
    with Client("unix:symsim-serve/symsim.sock") as c:
        done, result = c.run("scenarios/udma/udma_put_2pe.json", sets=["kernel.args.bytes=4096"])
        print(done["outcome"], result["sim_time_ns"])

Requests are JSON lines answered in order; events (state, progress, hazard, done, shutdown)
arrive in between and are queued until `events()` or `wait()` reads them.
"""
from __future__ import annotations

import collections
import json
import os
import socket
import time
from typing import Any, Callable, Deque, Dict, Iterable, Iterator, List, Optional, Set, Tuple, Union, overload

Message = Dict[str, Any]  # one JSON line from the server: a reply or an event
Endpoint = Tuple[str, Union[str, Tuple[str, int]]]

PROTOCOL = 1
DEFAULT_SERVER = "unix:symsim-serve/symsim.sock"


class ServerError(Exception):
    """The server answered a request with ok: false."""

    def __init__(self, reply: Message) -> None:
        err = reply.get("error", {})
        self.code = err.get("code", "?")
        self.message = err.get("message", "")
        self.reply = reply
        super().__init__(f"{self.code}: {self.message}")


class ConnectionClosed(Exception):
    """The server closed the connection."""


def parse_endpoint(text: str) -> Endpoint:
    """'unix:PATH' (or a path with '/') -> ('unix', PATH); 'tcp:HOST:PORT' or 'HOST:PORT' -> ('tcp', (HOST, PORT))."""
    if text.startswith("unix:"):
        return "unix", text[5:]
    if not text.startswith("tcp:") and "/" in text:
        return "unix", text
    rest = text[4:] if text.startswith("tcp:") else text
    host, _, port = rest.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"expected unix:PATH or tcp:HOST:PORT, got {text!r}")
    return "tcp", (host.strip("[]"), int(port))


class Client:
    """One connection to a symsim server. Not thread-safe: use one per thread."""

    def __init__(self, server: Optional[str] = None, token: Optional[str] = None, timeout: float = 60.0) -> None:
        server = server or os.environ.get("SYMSIM_SERVER") or DEFAULT_SERVER
        token = token if token is not None else os.environ.get("SYMSIM_TOKEN")
        kind, where = parse_endpoint(server)
        if kind == "unix":
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        else:
            self._sock = socket.socket(socket.AF_INET6 if ":" in where[0] else socket.AF_INET, socket.SOCK_STREAM)
        self._sock.settimeout(timeout)
        self._sock.connect(where)
        self._buf = bytearray()
        self._events: Deque[Message] = collections.deque()
        self._next_id = 1
        hello: Dict[str, Any] = {"client": "symsim_client.py"}
        if token:
            hello["token"] = token
        self.hello = self.request("hello", **hello)
        if self.hello.get("protocol") != PROTOCOL:
            raise ServerError({"error": {"code": "protocol", "message": f"server speaks protocol {self.hello.get('protocol')}"}})

    # -- plumbing -----------------------------------------------------------------------------
    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _read_message(self, timeout: Optional[float] = None) -> Message:
        """The next message from the server; raises socket.timeout or ConnectionClosed."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            nl = self._buf.find(b"\n")
            if nl >= 0:
                line = bytes(self._buf[:nl])
                del self._buf[: nl + 1]
                message: Message = json.loads(line)
                return message
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise socket.timeout("no message from the server")
                self._sock.settimeout(left)
            chunk = self._sock.recv(1 << 16)
            if not chunk:
                raise ConnectionClosed("the server closed the connection")
            self._buf += chunk

    def send_raw(self, data: bytes) -> None:
        """Sends bytes as they are (protocol tests)."""
        self._sock.sendall(data)

    def request(self, op: str, **fields: Any) -> Message:
        """Sends {"op": op, ...fields} and returns the reply; raises ServerError when ok is false."""
        rid = self._next_id
        self._next_id += 1
        msg = dict(fields, op=op, id=rid)
        self._sock.sendall(json.dumps(msg).encode() + b"\n")
        while True:
            m = self._read_message()
            if "event" in m:
                self._events.append(m)
            elif m.get("id") == rid:
                if not m.get("ok"):
                    raise ServerError(m)
                return m

    def events(self, timeout: Optional[float] = None) -> Iterator[Message]:
        """Yields events as they arrive (queued ones first); stops after `timeout` s of silence."""
        while True:
            if self._events:
                yield self._events.popleft()
                continue
            try:
                m = self._read_message(timeout)
            except socket.timeout:
                return
            if "event" in m:
                yield m

    # -- operations ---------------------------------------------------------------------------
    def submit(self, scenario: Union[Message, str, os.PathLike[str]], sets: Iterable[str] = (), seed: Optional[int] = None,
               trace: bool = False, name: Optional[str] = None, watch: bool = True, block: bool = True,
               timeout_s: Optional[float] = None) -> str:
        """Queues a scenario (a dict, or a path read here and sent inline); returns the run id."""
        fields: Dict[str, Any] = {"set": list(sets), "trace": trace, "watch": watch, "block": block}
        if isinstance(scenario, dict):
            fields["scenario"] = scenario
            if name:
                fields["name"] = name
        else:
            with open(scenario, encoding="utf-8") as f:
                fields["scenario"] = json.load(f)
            fields["name"] = name or str(scenario)
        if seed is not None:
            fields["seed"] = seed
        if timeout_s is not None:
            fields["timeout_s"] = timeout_s
        run: str = self.request("submit", **fields)["run"]
        return run

    def status(self, run: str) -> Message:
        status: Message = self.request("status", run=run)["run"]
        return status

    def list(self, state: Optional[str] = None) -> List[Message]:
        runs: List[Message] = self.request("list", **({"state": state} if state else {}))["runs"]
        return runs

    def cancel(self, run: str) -> Message:
        return self.request("cancel", run=run)

    def watch(self, run: str) -> Message:
        watched: Message = self.request("watch", run=run)["run"]
        return watched

    def result(self, run: str) -> Message:
        """The run's result.json as a dict (ServerError not_finished / no_result otherwise)."""
        result: Message = self.request("result", run=run)["result"]
        return result

    def trace(self, run: str, chunk_bytes: int = 1 << 20) -> str:
        """The run's trace (Perfetto JSON text), fetched in chunks."""
        parts: List[str] = []
        offset = 0
        while True:
            r = self.request("trace", run=run, offset=offset, max_bytes=chunk_bytes)
            parts.append(r["data"])
            offset += len(r["data"].encode())
            if r["eof"]:
                return "".join(parts)

    @overload
    def wait(self, runs: str, timeout: Optional[float] = ...,
             on_event: Optional[Callable[[Message], object]] = ...) -> Message: ...

    @overload
    def wait(self, runs: Iterable[str], timeout: Optional[float] = ...,
             on_event: Optional[Callable[[Message], object]] = ...) -> Dict[str, Message]: ...

    def wait(self, runs: Union[str, Iterable[str]], timeout: Optional[float] = None,
             on_event: Optional[Callable[[Message], object]] = None) -> Union[Message, Dict[str, Message]]:
        """Waits for the `done` event of each run (one id or a list); returns {run: done event}.
        Runs must be watched by this connection (submit watches by default)."""
        pending: Set[str] = {runs} if isinstance(runs, str) else set(runs)
        done: Dict[str, Message] = {}
        # Already finished runs are caught up by watching (the server re-sends their end).
        deadline = None if timeout is None else time.monotonic() + timeout
        while pending:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            got = False
            for e in self.events(timeout=left if left is not None else 3600.0):
                got = True
                if on_event:
                    on_event(e)
                if e.get("event") == "done" and e.get("run") in pending:
                    pending.discard(e["run"])
                    done[e["run"]] = e
                if e.get("event") == "shutdown" and pending:
                    raise ConnectionClosed(f"the server shut down with {sorted(pending)} unfinished")
                if not pending:
                    break
            if pending and (not got or (deadline is not None and time.monotonic() >= deadline)):
                raise TimeoutError(f"runs {sorted(pending)} did not finish in time")
        return done[runs] if isinstance(runs, str) else done

    def run(self, scenario: Union[Message, str, os.PathLike[str]], timeout: Optional[float] = None,
            on_event: Optional[Callable[[Message], object]] = None,
            **submit_fields: Any) -> Tuple[Message, Optional[Message]]:
        """Submits, waits and fetches: returns (done event, result dict or None)."""
        rid = self.submit(scenario, **submit_fields)
        done = self.wait(rid, timeout=timeout, on_event=on_event)
        try:
            return done, self.result(rid)
        except ServerError as e:
            if e.code == "no_result":
                return done, None
            raise

    def shutdown(self, mode: str = "finish", timeout: float = 120.0) -> Message:
        """Asks the server to stop (drain, finish or cancel); returns its `shutdown` event."""
        self.request("shutdown", mode=mode)
        for e in self.events(timeout=timeout):
            if e.get("event") == "shutdown":
                return e
        raise TimeoutError("no shutdown event")

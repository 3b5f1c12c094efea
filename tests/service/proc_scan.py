"""Finds processes by their command line (Linux /proc), for tests that check nothing is left
running after a kill; and stops what a failed test left behind."""
import os
import signal
import time


def cmdline(pid):
    """The command line of `pid` as one string ("" once it is gone)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def processes_with(text):
    """PIDs (not ours) whose command line contains `text`."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{name}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if text in cmdline and state != "Z":
            found.append(int(name))
    return found


def wait_until(predicate, limit_s):
    """Polls `predicate` until it holds or `limit_s` passes; returns its last value."""
    deadline = time.monotonic() + limit_s
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def kill_all(pids):
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass

"""What the HTML report reads from a symsim trace (docs/trace.md): WQE slices per QP, core and
engine spans per PE, and link busy spans, each on its named track. `symsim report` has already
checked the file's structure (sim/trace/trace_model.cpp), so this only sorts it."""
import json
import re

# Phases nested inside a WQE slice on its SQ lane (docs/trace.md, "Tracks").
WQE_PHASES = {"post", "doorbell", "fetch", "wire", "ack", "cqe"}
FABRIC_PID = 100000
SQ_TRACK = re.compile(r"^qp (\d+)\.(\d+) sq( #\d+)?$")
CQ_TRACK = re.compile(r"^qp \d+\.\d+ cq( #\d+)?$")


class Trace:
    def __init__(self, path):
        with open(path) as f:
            doc = json.load(f)
        self.other = doc.get("otherData", {})
        process, thread = {}, {}
        events = doc["traceEvents"]
        for e in events:
            if e.get("ph") != "M":
                continue
            if e.get("name") == "process_name":
                process[e["pid"]] = e["args"]["name"]
            elif e.get("name") == "thread_name":
                thread[(e["pid"], e["tid"])] = e["args"]["name"]
        self.process_name = lambda pid: process.get(pid, f"pid {pid}")
        self.thread_name = lambda pid, tid: thread.get((pid, tid), f"tid {tid}")
        # (pe, "qp S.Q") -> [(start_us, dur_us, opcode)]
        self.wqes = {}
        # (pe, track name without its lane) -> [(start_us, dur_us)]: core and engine spans
        self.spans = {}
        # link name -> [(start_us, dur_us)]
        self.links = {}
        self.begin_us, self.end_us = float("inf"), 0.0
        for e in events:
            if e.get("ph") != "X":
                continue
            ts, dur = float(e["ts"]), float(e.get("dur", 0))
            self.begin_us, self.end_us = min(self.begin_us, ts), max(self.end_us, ts + dur)
            pid, name = e["pid"], self.thread_name(e["pid"], e.get("tid", 0))
            if pid == FABRIC_PID:
                self.links.setdefault(name, []).append((ts, dur))
                continue
            m = SQ_TRACK.match(name)
            if m:
                if e["name"] not in WQE_PHASES:
                    key = (pid, f"qp {m.group(1)}.{m.group(2)}")
                    self.wqes.setdefault(key, []).append((ts, dur, e["name"]))
                continue
            if dur > 0 and not CQ_TRACK.match(name) and e.get("cat") != "wqe":
                base = re.sub(r" #\d+$", "", name)
                self.spans.setdefault((pid, base), []).append((ts, dur))
        if self.begin_us > self.end_us:  # no slice at all
            self.begin_us = 0.0
        # A margin so that the first and last spans do not sit on the frame.
        margin = 0.02 * max(self.end_us - self.begin_us, 1e-3)
        self.begin_us, self.end_us = max(0.0, self.begin_us - margin), self.end_us + margin

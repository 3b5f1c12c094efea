"""The calib_probe row sets of the device questions (hw/diff/s3*_rows.py): an entry a calibration row, a file a set.

An entry runs scenarios/nvidia/calib_probe.json with its `sets` and is compared with the row; `hw_diff.py hw|sim --set
FILE` reads the file.
"""
import json

PROBE = "scenarios/nvidia/calib_probe.json"


def entry(row, sets, ident=None):
    """calib_probe with `sets` as a micro entry of calibration row `row` (its id by default the row's, dots as '_')."""
    if ident is None:
        ident = "micro_" + row.replace(".", "_").replace("shim_", "")
    return {"id": ident, "kind": "micro", "row": row, "scenario": PROBE, "sets": sets}


def write(path, doc, entries):
    """The set as hw_diff.py reads it: {"doc", "entries"}, one-space indent, a final newline."""
    with open(path, "w") as f:
        json.dump({"doc": doc, "entries": entries}, f, indent=1)
        f.write("\n")

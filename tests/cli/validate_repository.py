#!/usr/bin/env python3
"""Validates every scenario and sweep file of the repository against docs/schema with
python3-jsonschema (a validator independent of the one compiled into symsim), and checks that
the schemas themselves are valid draft-07. Usage: validate_repository.py SOURCE_DIR"""
import glob
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed (./dev installs it): skipped")
    sys.exit(77)

root = sys.argv[1]
schemas = {}
for name in ("scenario", "result", "sweep", "service"):
    with open(os.path.join(root, "docs", "schema", name + ".schema.json")) as f:
        schemas[name] = json.load(f)
    jsonschema.Draft7Validator.check_schema(schemas[name])

groups = {
    "scenario": [f for f in glob.glob(os.path.join(root, "scenarios", "**", "*.json"), recursive=True)
                 if os.sep + "platforms" + os.sep not in f],
    "sweep": glob.glob(os.path.join(root, "sweeps", "**", "*.json"), recursive=True),
}
bad_files = checked = 0
for kind, files in groups.items():
    validator = jsonschema.Draft7Validator(schemas[kind])
    for path in sorted(files):
        with open(path) as f:
            doc = json.load(f)
        checked += 1
        errors = list(validator.iter_errors(doc))
        bad_files += bool(errors)
        for e in errors:
            pointer = "/" + "/".join(str(p) for p in e.absolute_path)
            print(f"{os.path.relpath(path, root)}: {pointer}: {e.message}")
if not groups["scenario"]:
    print("no scenario found")
    sys.exit(1)
print(f"{checked - bad_files} passed, {bad_files} failed")
sys.exit(1 if bad_files else 0)

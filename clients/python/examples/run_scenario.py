"""Runs one scenario on a symsim server and prints its outcome, simulated time and hazards.

    symsim serve &                       # listens on unix:symsim-serve/symsim.sock
    python3 run_scenario.py scenarios/udma/udma_put_2pe.json --set kernel.args.bytes=4096

The server is --server, else $SYMSIM_SERVER, else the default socket. Exit status: 0 when the
run passed, 1 when it failed, 2 when the server refused it.
"""
from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from symsim_client import Client, ServerError


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("scenario", help="scenario JSON file")
    ap.add_argument("--set", action="append", default=[], help="PATH=VALUE override, repeatable")
    ap.add_argument("--server", help="unix:PATH or tcp:HOST:PORT")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for the run")
    args = ap.parse_args(argv)
    with Client(args.server) as c:
        try:
            done, result = c.run(args.scenario, sets=args.set, timeout=args.timeout)
        except ServerError as e:
            print(f"refused: {e}", file=sys.stderr)
            return 2
    print(f"{args.scenario}: {done['outcome']}")
    if result is not None:
        print(f"simulated {result['sim_time_ns'] / 1000.0:.3f} us by {result.get('tool', {}).get('version', '?')}")
        for h in result["hazards"]:
            print(f"hazard {h['id']} on PE {h.get('pe')}")
    return 0 if done["outcome"] == "pass" else 1


if __name__ == "__main__":
    sys.exit(main())

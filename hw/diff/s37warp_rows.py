#!/usr/bin/env python3
"""Writes hw/diff/s37warp_rows.json, session 37's device question (issue 19, forty-third pass (s37-warp)).

  python3 hw/diff/s37warp_rows.py      (re)writes the rows file next to this script

Row `fresh.bulk_store_words.l2.7168.8r.c1w1.w16m` (0.880): session 31's call D2 (H100, the 8-row rows as the H200's to
the ns) reads the words rows' two 4 B stores after each bulk store at +2 ns over the bulk rows at one 7168 B row, +40 at
two, +3.6 a row after; at 1 KiB +38 at one row. Two mechanisms fit those readings and predict differently here:
(M) the next row's proxy fence (its MEMBAR.ALL.CTA) waits for the words to land, hidden by the bulk wait in the steady
state; (T) the words' first touch of their line or page is slow, waited once by the next fence or the final barrier.
calib_probe mode 23 with store_order_probe's loop (+ 16: no __syncwarp a row; lane 0 waits, fences, stores, commits,
stores the words), one warp, L2 window of 16 MiB (as the row), 1 / 2 / 4 / 8 rows of 7168 B and 1 row of 1 KiB:
- bulk (op 1 + 16) and words (op 5 + 16): the jump at two rows in this kernel (the control, as D2's rows);
- words with the first row's words stored once before the timed loop (+ 128, the same line): T removes the jump, M keeps it;
- words with two words 1 KiB further stored first (+ 128 + 8, another line of the same 4 KiB): a page's touch removes
  it, a line's keeps it;
and fresh_rows_probe's own 2-row rows (op 1, op 5) to tie this call to D2.
"""
import os

import probe_rows

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS = {17: "bulk", 21: "words", 149: "words_touch", 157: "words_touch_other"}


def entry(name, inflight, nbytes, rows):
    return probe_rows.entry(f"fresh.{name}.l2.{nbytes}.{rows}r.c1w1.w16m_ns",
                            ["kernel.args.mode=23", f"kernel.args.bytes={nbytes}", f"kernel.args.inflight={inflight}",
                             "kernel.args.warps=1", f"kernel.args.count={rows}", "kernel.args.window_kib=16384",
                             "kernel.args.hot=1", "kernel.blocks=1"],
                            f"micro_s37warp_{name}_{nbytes}_{rows}r_c1w1_w16m_ns")


def entries():
    out = []
    for nbytes, counts in ((7168, (1, 2, 4, 8)), (1024, (1,))):
        for rows in counts:
            for inflight, name in VARIANTS.items():
                out.append(entry(f"store_order_{name}_nosync", inflight, nbytes, rows))
    out.append(entry("bulk_store", 1, 7168, 2))
    out.append(entry("bulk_store_words", 5, 7168, 2))
    return out


if __name__ == "__main__":
    probe_rows.write(os.path.join(HERE, "s37warp_rows.json"),
                     "  python3 hw/diff/s37warp_rows.py      (re)writes the rows file next to this script", entries())

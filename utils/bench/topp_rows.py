#!/usr/bin/env python3
"""Bundles of top-p over a vocabulary of 128256 at several row counts, for
bench.py: the default schedule and `ctas_per_row` = 4 at 512 threads (the
1-row winner of docs/perf 2026-12-03 call 5), to decide a default rule by
row count.

    topp_rows.py OUT [ROWS ...]     (ROWS default: 2 4 8 16 24 32 48)

OUT/top_p.<R>x128256/{default,c4} are hkg-compile --chip=sm_90 bundles;
bench.py --shapes second runs them.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep  # noqa: E402

VARIANTS = {"default": None, "c4": {"ctas_per_row": 4, "threads": 512}}


def main():
    out = sys.argv[1]
    rows = [int(r) for r in sys.argv[2:]] or [2, 4, 8, 16, 24, 32, 48]
    for r in rows:
        tag = f"{r}x128256"
        src = sweep.source("top_p", tag)
        for label, sched in VARIANTS.items():
            d = os.path.join(out, f"top_p.{tag}", label)
            os.makedirs(os.path.dirname(d), exist_ok=True)
            text = src if sched is None else sweep.with_schedule(src, sched)
            ok, err = sweep.compile_one(text, d)
            print(tag, label, "ok" if ok else f"FAILED {err}")
            if not ok:
                sys.exit(1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Prints each case of a bench.py result (bench.json) as one line of brief
timings of its ok variants, one of full timings, and the variants that were
not ok; for device-call logs (utils/device/bench.sh)."""
import json
import sys


def main(path):
    try:
        rows = json.load(open(path))["rows"]
    except (OSError, ValueError, KeyError) as e:  # bench.log says why
        print("no bench.json:", e)
        return
    for r in rows:
        variants = r.get("variants", [])
        print(r["case"], "brief:", " ".join(f"{v['label']}={v['quick_us']:.2f}" for v in variants if v.get("ok")))
        print(r["case"], "full:", " ".join(f"{v['label']}={v['us']:.2f}" for v in variants if "us" in v))
        print(r["case"], "not ok:", [v["label"] for v in variants if not v.get("ok")] or "none")


if __name__ == "__main__":
    main(sys.argv[1])

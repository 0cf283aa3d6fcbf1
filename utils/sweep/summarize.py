"""Turns hkg-run's sweep.json (from utils/device/sweep.sh kernels on the GPU) and the sweep's
manifests into one markdown table: op, shape, dtype, schedule, status,
errors, time.
    python3 utils/sweep/summarize.py SWEEP_JSON SWEEP_DIR > sweep.md
"""
import json
import os
import sys

res = json.load(open(sys.argv[1]))
rows, counts = [], {}
for fam, run in sorted(res.items()):
    man = json.load(open(os.path.join(sys.argv[2], fam, "manifest.json")))
    args = {k["name"]: k["args"] for k in man["kernels"]}
    for k in run["kernels"]:
        a = args.get(k["name"], [{}])[0]
        shape = "x".join(map(str, a.get("shape", [])))
        sched = ", ".join(f"{n}={v}" for n, v in sorted(k.get("schedule", {}).items()))
        c, t = k.get("check", {}), k.get("timing", {})
        counts[k["status"]] = counts.get(k["status"], 0) + 1
        err = f"{c['norm_rel_error']:.1e}" if "norm_rel_error" in c else "—"
        us = f"{t['median_us']:.1f}" if "median_us" in t else "—"
        msg = k.get("message", "").splitlines()[0][:70] if k.get("message") else ""
        rows.append(f"| {k['op']} | {shape} | {a.get('dtype', '')} | {sched} | {k['status']} {msg} | {err} | {us} |")
print(f"Kernels: {sum(counts.values())}; " + ", ".join(f"{s}: {n}" for s, n in sorted(counts.items())))
print()
print("| op | first input shape | dtype | schedule | status | norm rel err | median us |")
print("|---|---|---|---|---|---|---|")
print("\n".join(rows))

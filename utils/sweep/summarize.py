"""Turns hkg-run's sweep.json (from utils/device/sweep.sh kernels on the GPU) and the sweep's
manifests into markdown: one line per kernel (op, shape, dtype, schedule, status,
errors, time), then, where the sweep has an index.json with features
(utils/sweep/make_sweep.py), one line per feature: cases, kernels, pass / fail,
the worst norm-wise error relative to its output dtype's tolerance (that error and that bound).
    python3 utils/sweep/summarize.py SWEEP_JSON SWEEP_DIR [SWEEP_JSON ...] > sweep.md
Several sweep.json files (one device call's parts) are merged.
"""
import json
import os
import sys

# docs/Runtime.md, "Tolerances": the norm-wise bound per output dtype (integers exact).
NORM_TOL = {"f64": 1e-12, "f32": 1e-5, "f16": 1e-3, "bf16": 1e-2, "i64": 0.0, "i32": 0.0, "i8": 0.0, "i1": 0.0}

sweep_dir = sys.argv[2]
res = {}
for p in [sys.argv[1]] + sys.argv[3:]:
    res.update(json.load(open(p)))
index = []
if os.path.exists(os.path.join(sweep_dir, "index.json")):
    index = json.load(open(os.path.join(sweep_dir, "index.json")))
rows, counts, feats = [], {}, {}
for fam, run in sorted(res.items()):
    man = json.load(open(os.path.join(sweep_dir, fam, "manifest.json")))
    specs = {k["name"]: k for k in man["kernels"]}
    # The manifest lists the kernels in the order of the module's functions, as index.json does.
    order = [k["name"] for k in man["kernels"]]
    fam_index = [e for e in index if e["family"] == fam]
    by_name = dict(zip(order, fam_index)) if len(fam_index) == len(order) else {}
    for k in run["kernels"]:
        spec = specs.get(k["name"], {})
        args = spec.get("args", [{}])
        a = args[0]
        outs = [x.get("dtype", "") for x in args if x.get("role") == "output"]
        # A run of a kernel with dynamic sizes has its concrete shapes.
        shape = "x".join(str(d) if isinstance(d, int) else "?"
                         for d in (k["shapes"][0] if "shapes" in k else a.get("shape", [])))
        sched = ", ".join(f"{n}={v}" for n, v in sorted(k.get("schedule", {}).items()))
        c, t = k.get("check", {}), k.get("timing", {})
        counts[k["status"]] = counts.get(k["status"], 0) + 1
        err = f"{c['norm_rel_error']:.1e}" if "norm_rel_error" in c else "—"
        us = f"{t['median_us']:.1f}" if "median_us" in t else "—"
        msg = k.get("message", "").splitlines()[0][:70] if k.get("message") else ""
        entry = by_name.get(k["name"], {})
        kname = entry.get("kernel", "")
        rows.append(f"| {k['op']} | {kname} | {shape} | {'/'.join(outs)} | {sched} | {k['status']} {msg} | {err} | {us} |")
        feature = entry.get("feature", fam)
        f = feats.setdefault(feature, dict(family=fam, cases=set(), kernels=0, passed=0, failed=[], worst=None))
        f["cases"].add(kname.rsplit("_", 1)[0] if kname else k["name"])
        f["kernels"] += 1
        if k["status"] == "pass":
            f["passed"] += 1
        else:
            f["failed"].append(kname or k["name"])
        if "norm_rel_error" in c:
            # The worst is the largest error over its own dtype's bound (an integer's bound is 0: exact).
            e, tol = c["norm_rel_error"], NORM_TOL.get(outs[0], float("nan")) if outs else float("nan")
            ratio = e / tol if tol > 0 else (0.0 if e == 0 else float("inf"))
            if f["worst"] is None or ratio > f["worst"][2]:
                f["worst"] = (e, tol, ratio)
print(f"Kernels: {sum(counts.values())}; " + ", ".join(f"{s}: {n}" for s, n in sorted(counts.items())))
print()
print("| feature | family | cases | kernels | pass | fail | worst norm rel err | its tolerance |")
print("|---|---|---|---|---|---|---|---|")
for name, f in feats.items():
    worst = "—" if f["worst"] is None else f"{f['worst'][0]:.1e}"
    tol = "—" if f["worst"] is None else ("exact" if f["worst"][1] == 0 else f"{f['worst'][1]:.0e}")
    print(f"| {name} | {f['family']} | {len(f['cases'])} | {f['kernels']} | {f['passed']} | "
          f"{len(f['failed'])}{' (' + ', '.join(f['failed'][:4]) + ')' if f['failed'] else ''} | {worst} | {tol} |")
print()
print("| op | kernel | first input shape | out dtype | schedule | status | norm rel err | median us |")
print("|---|---|---|---|---|---|---|---|")
print("\n".join(rows))

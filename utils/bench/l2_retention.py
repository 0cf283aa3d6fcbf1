"""Does an L2 cache policy on the loads win by what it keeps in L2 across
bench.py's L2 flush? (H200, one process.)

    python3 utils/bench/l2_retention.py --bundles DIR [--ops rmsnorm,...] [--copies 6]

Loads marked evict-last (`hkg.load_eviction = "last"`, and Inductor's first
read of a row) keep a higher priority in L2 than the lines do.bench's flush
writes, so part of the previous run's input may survive the flush and hit
in L2. For each op at PERF.md's shape, hkg's bundles of --variants (by
default `default`, evict-last on Hopper, and `default-plain`, plain loads;
utils/bench/sweep.py) and Inductor are timed twice with bench.py's bench():
on one input set (bench.py's method), and rotating over --copies input sets
of fresh random values (every timed run reads inputs that copies - 1 other
runs' reads came after). A policy that helps only in the first mode is a
property of the benchmark, not of the kernel. A weak test: with inputs far
larger than L2, what survives a flush would mostly be displaced by the
run's own loads before it is read. (Run once, 2026-12-02, with the variants
`default` = plain and `default-l2el` = evict-last of that day's sweep.)
Writes l2_retention.md / .json under --out.
"""
import argparse
import itertools
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
import bench as B  # noqa: E402
import hkg_cuda  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bundles", required=True)
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--ops", default="rmsnorm,layernorm,bias_gelu,swiglu,gelu,softmax")
    ap.add_argument("--copies", type=int, default=6)
    ap.add_argument("--variants", default="default,default-plain")
    args = ap.parse_args()
    unknown = [op for op in args.ops.split(",") if op not in B.MEMORY_BOUND]
    if unknown:
        ap.error(f"--ops: {', '.join(unknown)} not one of {', '.join(B.MEMORY_BOUND)}")
    rows = []
    for op in args.ops.split(","):
        spec = B.make_case(op)
        sets = [spec["inputs"]() for _ in range(args.copies)]
        ref = spec["ref"](*sets[0])
        impls = {}
        for v in args.variants.split(","):
            d = os.path.join(args.bundles, op, v)
            if not os.path.exists(os.path.join(d, "manifest.json")):
                print(f"{op}: no bundle {d}, skipped", file=sys.stderr)
            else:
                k = hkg_cuda.load_bundle(d)[1][0]
                out = k.alloc_outputs(sets[0])[0]
                impls["hkg " + v] = (lambda k, out: lambda *xs: k(*xs, out))(k, out)
        torch._dynamo.reset()
        impls["inductor"] = torch.compile(spec["eager"], mode="max-autotune-no-cudagraphs", dynamic=False)
        for name, fn in impls.items():
            fn(*sets[0])  # Inductor: compiles and autotunes here
            torch.cuda.synchronize()
            row = dict(op=op, impl=name)
            one = B.bench(lambda: fn(*sets[0])) * 1e6
            cyc = itertools.cycle(sets)
            rot = B.bench(lambda: fn(*next(cyc))) * 1e6
            row.update(one_set_us=one, rotating_us=rot)
            rows.append(row)
            print(f"{op:10s} {name:22s} one set {one:7.1f} us   rotating {rot:7.1f} us", flush=True)
        # Correctness of what was timed: every implementation against the
        # float64 reference (bench.py's tolerance).
        for name, fn in impls.items():
            if name == "inductor":
                err = B.rel_err(fn(*sets[0]), ref)
            else:
                d = os.path.join(args.bundles, op, name.split(" ", 1)[1])
                k = hkg_cuda.load_bundle(d)[1][0]
                out = k.alloc_outputs(sets[0])[0]
                out.fill_(float("nan"))
                k(*sets[0], out)
                err = B.rel_err(out, ref)
            for r in rows:
                if r["op"] == op and r["impl"] == name:
                    r["rel_err"] = err
                    r["ok"] = err <= B.TOL[sets[0][0].dtype]
        del sets, ref, cyc
        torch.cuda.empty_cache()
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "l2_retention.json"), "w") as f:
        json.dump(rows, f, indent=1)
    lines = ["| op | impl | one input set (bench.py) us | rotating over %d sets us | rel err |" % args.copies,
             "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['op']} | {r['impl']} | {r['one_set_us']:.1f} | {r['rotating_us']:.1f} | {r.get('rel_err', float('nan')):.1e} |")
    with open(os.path.join(args.out, "l2_retention.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()

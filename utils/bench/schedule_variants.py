"""Compile schedule variants of one-op inputs for an A/B on the device (runs
here).

    python3 utils/bench/schedule_variants.py --out .carry/variants \\
        --cases gemm,gemm8192,qkv_proj [--src examples] \\
        --variant persistent:persistent=1 \\
        --variant p_g1:persistent=1,group_m=1 ...

For each case (SRC/<case>.mlir, or a path to an .mlir file): the default
schedule (OUT/<case>/default, hkg-compile as a user runs it) and, per
--variant NAME:KNOB=V[,KNOB=V...], that default schedule with those knobs
changed (OUT/<case>/NAME); an entry `@ATTR=V` or `@ATTR` (a unit
attribute) adds a discardable attribute to the op instead, e.g.
`--variant ef:@hkg.load_eviction="first"` or
`--variant pk:row_cache=registers,@hkg.row_bf16_cache`
(docs/Lowering.md). The default's knobs are read back from its
manifest, so a variant differs from the default only in the knobs it names
(a partial `#hkg.schedule` would fall back to the schedule space's
defaults instead). A variant the verifier refuses is reported and skipped.
The layout is utils/bench/sweep.py's: time it with utils/device/bench.sh
(FULL=NAME,... times the variants in full beside the default).
"""
import argparse
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep import compile_one, with_attr, with_schedule  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def parse_variant(text):
    """NAME:KNOB=V[,KNOB=V...] (entries `@ATTR[=V]` are attributes): the
    name, the knob changes and the attribute entries (`name = value` or a
    unit attribute's name, as sweep.with_attr takes them)."""
    name, _, knobs = text.partition(":")
    if not name or not knobs:
        raise SystemExit(f"--variant {text!r}: expected NAME:KNOB=V[,KNOB=V...]")
    changes, attrs = {}, []
    for kv in knobs.split(","):
        k, _, v = kv.partition("=")
        k, v = k.strip(), v.strip()
        if k.startswith("@") and len(k) > 1:
            attrs.append(f"{k[1:]} = {v}" if v else k[1:])
            continue
        if not k or not v:
            raise SystemExit(f"--variant {text!r}: {kv!r} is not KNOB=V or @ATTR[=V]")
        changes[k] = v
    return name, changes, attrs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--cases", required=True, help="comma list of SRC/<case>.mlir names or .mlir paths")
    ap.add_argument("--src", default=os.path.join(ROOT, "examples"))
    ap.add_argument("--variant", action="append", default=[], help="NAME:KNOB=V[,KNOB=V...]")
    args = ap.parse_args()
    variants = [parse_variant(v) for v in args.variant]
    failed = False
    for case in args.cases.split(","):
        path = case if case.endswith(".mlir") else os.path.join(args.src, case + ".mlir")
        name = os.path.basename(path)[:-len(".mlir")]
        src = open(path).read()
        casedir = os.path.join(args.out, name)
        shutil.rmtree(casedir, ignore_errors=True)
        os.makedirs(casedir)
        ok, err = compile_one(src, os.path.join(casedir, "default"))
        if not ok:
            print(f"{name}: the default does not compile: {err}", file=sys.stderr)
            failed = True
            continue
        manifest = json.load(open(os.path.join(casedir, "default", "manifest.json")))
        kernels = manifest["kernels"]
        if len(kernels) != 1:
            print(f"{name}: {len(kernels)} kernels; variants need a one-op input", file=sys.stderr)
            failed = True
            continue
        default = kernels[0]["schedule"]
        notes = []
        for vname, changes, attrs in variants:
            unknown = sorted(set(changes) - set(default))
            if unknown:
                notes.append(f"{vname} skipped (not knobs of this op: {', '.join(unknown)})")
                continue
            vsrc = with_schedule(src, dict(default, **changes))
            for a in attrs:
                vsrc = with_attr(vsrc, a)
            ok, err = compile_one(vsrc, os.path.join(casedir, vname))
            notes.append(vname if ok else f"{vname} refused ({err})")
        print(f"{name}: default + {', '.join(notes) or 'no variants'}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

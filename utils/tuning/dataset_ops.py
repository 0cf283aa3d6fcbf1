#!/usr/bin/env python3
"""Write the ops of the sampled tuning dataset (runs here, not on the GPU).

    python3 utils/tuning/dataset_ops.py --out .carry/dataset/ops [--chip sm_90]
        [--kinds matmul,attention,...] [--list]

One `<group>.mlir` per shape group (one hkg op each, no schedule, target
`--chip`): make_candidates.py's 60 groups (elementwise bodies, softmax,
layernorm, rmsnorm, rope, reduce sum/max) and matmuls and attention over
several shapes each (prefill and decode, square, tall, skinny, transposed B,
a fused bias epilogue, bf16 / f16 / f32). On the GPU machine
`utils/device/tune.sh` measures them with `hkg-tune tune --random-sample`
through the same hkg-run workers as tuning (launch plans, workspaces and
float64 checks included): the default schedule first, then uniformly random
legal ones. The records are the dataset of docs/Tuning.md's offline
evaluation (utils/tuning/README.md, "The sampled dataset").
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_candidates import groups as row_groups, op_text, tensor  # noqa: E402

# (M, N, K, dtype, B as [N, K], bias epilogue): the PERF.md GEMMs at half
# size or less (the float64 reference runs on the host) and the shapes a
# decoder's projections take, prefill and decode.
MATMULS = [
    (2048, 2048, 2048, "bf16", False, False),
    (4096, 4096, 4096, "bf16", False, False),
    (2048, 6144, 4096, "bf16", True, True),
    (2048, 4096, 4096, "bf16", True, False),
    (1024, 14336, 4096, "bf16", True, False),
    (1024, 4096, 14336, "bf16", True, False),
    (512, 512, 8192, "bf16", False, False),
    (8192, 1024, 1024, "f16", False, False),
    (16, 4096, 4096, "bf16", True, False),
    (64, 11008, 4096, "bf16", True, False),
    (128, 4096, 4096, "f16", True, False),
    (1000, 1000, 1000, "bf16", False, False),
    (2048, 2048, 2048, "f32", False, False),
    (1024, 4096, 1024, "f32", True, False),
]

# (batch, query heads, kv heads, query length, kv length, head dim, causal,
# dtype): prefill (causal and not, head dims 64 / 128), GQA, decode steps.
ATTENTIONS = [
    (1, 16, 16, 2048, 2048, 128, True, "bf16"),
    (2, 8, 8, 1024, 1024, 64, False, "bf16"),
    (1, 32, 8, 1024, 1024, 128, True, "bf16"),
    (1, 8, 8, 4096, 4096, 128, True, "f16"),
    (8, 32, 8, 1, 4096, 128, False, "bf16"),
    (1, 32, 32, 1, 8192, 128, False, "bf16"),
]


def matmul_groups():
    g = []
    for m, n, k, dt, tb, bias in MATMULS:
        name = f"matmul_{dt}_{m}x{n}x{k}" + ("t" if tb else "") + ("_bias" if bias else "")
        g.append(dict(kind="matmul", name=name, shape=[m, n, k], dtype=dt, transpose_b=tb, bias=bias))
    return g


def attention_groups():
    g = []
    for b, hq, hkv, sq, skv, d, causal, dt in ATTENTIONS:
        name = f"attention_{dt}_b{b}h{hq}kv{hkv}q{sq}k{skv}d{d}" + ("_causal" if causal else "")
        g.append(dict(kind="attention", name=name, shape=[b, hq, hkv, sq, skv, d], dtype=dt, causal=causal))
    return g


def matmul_text(g):
    m, n, k = g["shape"]
    dt = g["dtype"]
    ta, tb, tc = tensor([m, k], dt), tensor([n, k] if g["transpose_b"] else [k, n], dt), tensor([m, n], dt)
    attr = " {transpose_b}" if g["transpose_b"] else ""
    if not g["bias"]:
        return (f"  func.func @f(%a: {ta}, %b: {tb}) -> {tc} {{\n"
                f"    %0 = hkg.matmul %a, %b{attr} : {ta}, {tb} -> {tc}\n    return %0 : {tc}\n  }}\n")
    tv = tensor([n], dt)
    ext = [] if dt == "f32" else [f"%bf = arith.extf %bias : {dt} to f32"]
    add = "%s = arith.addf %acc, " + ("%bias" if dt == "f32" else "%bf") + " : f32"
    out = ["hkg.yield %s : f32"] if dt == "f32" else [f"%r = arith.truncf %s : f32 to {dt}", f"hkg.yield %r : {dt}"]
    body = "\n      ".join(ext + [add] + out)
    return (f"  func.func @f(%a: {ta}, %b: {tb}, %v: {tv}) -> {tc} {{\n"
            f"    %0 = hkg.matmul %a, %b epilogue(%v : {tv}){attr} : {ta}, {tb} -> {tc} {{\n"
            f"    ^bb0(%acc: f32, %bias: {dt}):\n      {body}\n    }}\n    return %0 : {tc}\n  }}\n")


def attention_text(g):
    b, hq, hkv, sq, skv, d = g["shape"]
    dt = g["dtype"]
    tq, tk = tensor([b, hq, sq, d], dt), tensor([b, hkv, skv, d], dt)
    causal = " causal" if g["causal"] else ""
    return (f"  func.func @f(%q: {tq}, %k: {tk}, %v: {tk}) -> {tq} {{\n"
            f"    %0 = hkg.attention %q, %k, %v{causal} : {tq}, {tk}, {tk} -> {tq}\n"
            f"    return %0 : {tq}\n  }}\n")


def all_groups():
    return row_groups() + matmul_groups() + attention_groups()


def group_text(g, chip):
    body = {"matmul": matmul_text, "attention": attention_text}.get(g["kind"], op_text)(g)
    return f'module attributes {{hkg.target = #hkg.target<chip = "{chip}">}} {{\n{body}}}\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=".carry/dataset/ops")
    ap.add_argument("--chip", default="sm_90")
    ap.add_argument("--kinds", default="", help="comma list of group kinds (default: all)")
    ap.add_argument("--list", action="store_true", help="print the group names, write nothing")
    args = ap.parse_args()
    kinds = set(filter(None, args.kinds.split(",")))
    gs = [g for g in all_groups() if not kinds or g["kind"] in kinds]
    if args.list:
        print("\n".join(g["name"] for g in gs))
        return 0
    os.makedirs(args.out, exist_ok=True)
    for g in gs:
        with open(os.path.join(args.out, g["name"] + ".mlir"), "w") as f:
            f.write(group_text(g, args.chip))
    print(f"{len(gs)} groups -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Compile a schedule sweep of the examples for the bench (runs here).

    python3 utils/bench/sweep.py --out .carry/bundles [--per-op 16] [--seed 0]
        [--ops softmax,gelu,...]

For each example op: the default schedule (OUT/<op>/default) and up to
--per-op random schedules drawn from the knob grid below (OUT/<op>/s<i>),
each compiled by hkg-compile --chip=sm_90. Schedules the op rejects for the
target (hkg-verify-schedule) are skipped and counted, so the grid may be a
superset of the legal space. bench.py reports the default and the best of
the sweep side by side with PyTorch.
"""
import argparse
import itertools
import os
import random
import re
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HKG_COMPILE = os.path.join(ROOT, os.environ.get("HKG_BUILD_DIR", "build"), "bin", "hkg-compile")

ROW = dict(vector_width=[2, 4, 8], threads=[64, 128, 256, 512, 1024],
           rows_per_block=[1, 2], unroll=[1, 2, 4, 8],
           row_cache=["registers", "none", "lds"])
GRIDS = {
    "softmax": dict(ROW, online=[0, 1]),
    "layernorm": ROW,
    "rmsnorm": ROW,
    "gelu": dict(vector_width=[2, 4, 8], threads=[128, 256, 512, 1024], unroll=[1, 2, 4, 8]),
    "rope": dict(vector_width=[2, 4, 8], threads=[64, 128, 256, 512], tokens_per_block=[1, 2, 4, 8]),
    "top_p": dict(vector_width=[2, 4], threads=[256, 512, 1024], bins=[1024, 2048], unroll=[2, 4, 8]),
}
MM = dict(tile_m=[64, 128, 256], tile_n=[64, 128, 256], tile_k=[32, 64], waves_m=[1, 2, 4], waves_n=[1, 2, 4],
          stages=[2, 3, 4], lds_swizzle=[0, 1])
GRIDS["gemm"] = MM
GRIDS["qkv_proj"] = MM
GRIDS["gemm_decode"] = dict(tile_m=[16], tile_n=[16, 32, 64, 128], tile_k=[64, 128, 256], waves_m=[1], waves_n=[1, 2, 4],
                            stages=[2, 3, 4])
GRIDS["bias_gelu"] = GRIDS["gelu"]
GRIDS["swiglu"] = GRIDS["gelu"]


def with_schedule(src, sched):
    """Adds {schedule = ...} to the (single) hkg op of an example."""
    m = re.search(r"= hkg\.[a-z_]+", src)
    depth, i = 0, m.end()
    while not (depth == 0 and src[i] == ":" and src[i - 1].isspace()):
        depth += {"(": 1, ")": -1}.get(src[i], 0)
        i += 1
    body = ", ".join(f"{k} = {v}" for k, v in sorted(sched.items()))
    head = src[:i].rstrip()
    if head.endswith("}"):  # the op already has an attribute dictionary
        return head[:-1] + f", schedule = #hkg.schedule<{body}>}} " + src[i:]
    return head + f" {{schedule = #hkg.schedule<{body}>}} " + src[i:]


def compile_one(src, outdir):
    tmp = outdir + ".mlir"
    with open(tmp, "w") as f:
        f.write(src)
    r = subprocess.run([HKG_COMPILE, tmp, "--chip=sm_90", "-o", outdir], capture_output=True, text=True)
    os.remove(tmp)
    return r.returncode == 0, r.stderr.strip().splitlines()[:1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-op", type=int, default=16)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ops", default=",".join(GRIDS))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    for op in args.ops.split(","):
        src = open(os.path.join(ROOT, "examples", op + ".mlir")).read()
        opdir = os.path.join(args.out, op)
        shutil.rmtree(opdir, ignore_errors=True)
        os.makedirs(opdir)
        ok, err = compile_one(src, os.path.join(opdir, "default"))
        if not ok:
            print(f"{op}: default failed: {err}", file=sys.stderr)
            continue
        grid = GRIDS[op]
        combos = list(itertools.product(*grid.values()))
        rng.shuffle(combos)
        built = rejected = 0
        for combo in combos:
            if built >= args.per_op:
                break
            sched = dict(zip(grid.keys(), combo))
            ok, _ = compile_one(with_schedule(src, sched), os.path.join(opdir, f"s{built}"))
            if ok:
                built += 1
            else:
                rejected += 1
                shutil.rmtree(os.path.join(opdir, f"s{built}"), ignore_errors=True)
        print(f"{op}: default + {built} schedules ({rejected} rejected by the verifier)")


if __name__ == "__main__":
    main()

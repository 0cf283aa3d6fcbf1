"""Builds the correctness sweep of hkg's lowered ops (runs here, no GPU).

    python3 utils/sweep/make_sweep.py --out .carry/sweep [--random 5] [--seed 0]

For every op x shape x dtype: the default schedule and --random legal
schedules (drawn from the knob grid below and kept only if
hkg-verify-schedule accepts them for sm_90), all in one module per op family,
compiled by hkg-compile --chip=sm_90 into one bundle per family. Also writes a
planted out-of-bounds kernel into the elementwise bundle: hkg-run must report
it as a failed candidate and finish the sweep (utils/device/sweep.sh kernels).
"""
import argparse
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.join(ROOT, os.environ.get("HKG_BUILD_DIR", "build"), "bin")
DTYPES = ["f32", "f16", "bf16"]
ROW_SHAPES = [(3, 4097), (1, 128256), (64, 1024)]  # odd tail, one very long row, many rows

ROW = dict(vector_width=[1, 2, 4, 8], threads=[32, 64, 128, 256, 512, 1024],
           rows_per_block=[1, 2, 4], unroll=[1, 2, 4, 8], row_cache=["registers", "none", "lds"])
EW = dict(vector_width=[1, 2, 4, 8], threads=[64, 128, 256, 512, 1024], unroll=[1, 2, 4, 8])
ROPE = dict(vector_width=[1, 2, 4, 8], threads=[32, 64, 128, 256], tokens_per_block=[1, 2, 4, 8])
TOPP = dict(vector_width=[1, 2, 4, 8], threads=[64, 128, 256, 512, 1024], bins=[256, 512, 1024, 2048], unroll=[1, 2, 4, 8])


def t(shape, dt):
    return "tensor<%sx%s>" % ("x".join(map(str, shape)), dt)


GELU_BODY = """^bb0(%a: {dt}):
      %v = arith.extf %a : {dt} to f32
      %c0 = arith.constant 0.5 : f32
      %c1 = arith.constant 1.0 : f32
      %k = arith.constant 0.7978845608 : f32
      %c3 = arith.constant 0.044715 : f32
      %x2 = arith.mulf %v, %v : f32
      %x3 = arith.mulf %x2, %v : f32
      %t0 = arith.mulf %c3, %x3 : f32
      %t1 = arith.addf %v, %t0 : f32
      %t2 = arith.mulf %k, %t1 : f32
      %th = math.tanh %t2 : f32
      %t3 = arith.addf %c1, %th : f32
      %t4 = arith.mulf %v, %t3 : f32
      %r = arith.mulf %c0, %t4 : f32
      %o = arith.truncf %r : f32 to {dt}
      hkg.yield %o : {dt}"""


def families():
    """(family, grid, [(name, args, op_text_with_{sched}, result_type)])"""
    fam = {}
    ew = []
    for (r, c), dt in itertools.product(ROW_SHAPES, DTYPES):
        x, b = t((r, c), dt), t((c,), dt)
        if dt == "f32":
            body = GELU_BODY.replace("arith.extf %a : {dt} to f32", "arith.addf %a, %a : f32") \
                .replace("%o = arith.truncf %r : f32 to {dt}", "%o = arith.mulf %r, %c1 : f32")
            # f32: gelu(2a) keeps the same shape of computation without casts.
        else:
            body = GELU_BODY
        ew.append((f"gelu_{dt}_{r}x{c}", [x], f"hkg.elementwise %arg0 {{sched}}: {x} -> {x} {{{{\n    {body.format(dt=dt)}\n    }}}}", x))
        ew.append((f"biasadd_{dt}_{r}x{c}", [x, b],
                   f"hkg.elementwise %arg0, %arg1 {{sched}}: {x}, {b} -> {x} {{{{\n    ^bb0(%p: {dt}, %q: {dt}):\n      %s = arith.addf %p, %q : {dt}\n      hkg.yield %s : {dt}\n    }}}}", x))
    fam["elementwise"] = (EW, ew)
    rows = {k: [] for k in ("softmax", "layernorm", "rmsnorm", "reduce")}
    for (r, c), dt in itertools.product(ROW_SHAPES, DTYPES):
        x, w = t((r, c), dt), t((c,), dt)
        rows["softmax"].append((f"softmax_{dt}_{r}x{c}", [x], f"hkg.softmax %arg0 axis(1) {{sched}}: {x} -> {x}", x))
        rows["layernorm"].append((f"layernorm_{dt}_{r}x{c}", [x, w, w],
                                  f"hkg.layernorm %arg0 weight(%arg1 : {w}) bias(%arg2 : {w}) eps(1.0e-05) {{sched}}: {x} -> {x}", x))
        rows["rmsnorm"].append((f"rmsnorm_{dt}_{r}x{c}", [x, w], f"hkg.rmsnorm %arg0, %arg1 eps(1.0e-06) {{sched}}: {x}, {w} -> {x}", x))
        rows["reduce"].append((f"reduce_sum_{dt}_{r}x{c}", [x], f"hkg.reduce sum %arg0 axes = [1] {{sched}}: {x} -> {t((r,), dt)}", t((r,), dt)))
    for k, v in rows.items():
        fam[k] = ({kk: vv for kk, vv in ROW.items() if kk != "row_cache"} if k == "reduce" else ROW, v)
    rope = []
    for (shape, layout), dt in itertools.product([((1, 7, 3, 64), "neox"), ((2, 33, 4, 128), "gptj"), ((1, 1, 2, 256), "neox")], DTYPES):
        x = t(shape, dt)
        tab = t((shape[1] + 3, shape[3] // 2), "f32")
        rope.append((f"rope_{layout}_{dt}_{'x'.join(map(str, shape))}", [x, tab, tab],
                     f"hkg.rope %arg0, %arg1, %arg2 {layout} offset(3) {{sched}}: {x}, {tab}, {tab} -> {x}", x))
    fam["rope"] = (ROPE, rope)
    topp = []
    for (r, c), dt in itertools.product(ROW_SHAPES, DTYPES):
        x = t((r, c), dt)
        topp.append((f"top_p_{dt}_{r}x{c}", [x], f"hkg.top_p_sample %arg0 p(0.9) temperature(0.8) seed(7) {{sched}}: {x} -> tensor<{r}xi32>",
                     f"tensor<{r}xi32>"))
    fam["top_p"] = (TOPP, topp)
    return fam


def verify(module_text):
    r = subprocess.run([os.path.join(BIN, "hkg-opt"), "--hkg-verify-schedule=chip=sm_90"], input=module_text,
                       capture_output=True, text=True)
    return r.returncode == 0


def func(name, args, op, res, sched):
    s = "" if sched is None else "{schedule = #hkg.schedule<%s>} " % ", ".join(f"{k} = {v}" for k, v in sorted(sched.items()))
    params = ", ".join(f"%arg{i}: {a}" for i, a in enumerate(args))
    return f"  func.func @{name}({params}) -> {res} {{\n    %0 = {op.format(sched=s)}\n    return %0 : {res}\n  }}\n"


PLANTED = """module attributes {gpu.container_module} {
  gpu.module @planted_oob {
    gpu.func @planted_oob(%in: memref<3x4097xf32>, %out: memref<3x4097xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %far = arith.constant 16777216 : index
      %i = arith.addi %tid, %far : index
      %c0 = arith.constant 0 : index
      %v = memref.load %in[%c0, %c0] : memref<3x4097xf32>
      memref.store %v, %out[%i, %c0] : memref<3x4097xf32>
      gpu.return
    }
  }
}
"""


def plant_oob(bundle):
    """Adds a kernel that writes ~256 GiB past its output (row 2^24 of a 3-row tensor): hkg-run must report it
    as failed (an illegal address in its worker) and carry on with the rest."""
    r = subprocess.run([os.path.join(BIN, "hkg-opt"), "--pass-pipeline=builtin.module(nvvm-attach-target{chip=sm_90 features=+ptx80}, "
                        "gpu.module(convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true}), reconcile-unrealized-casts, "
                        "gpu-module-to-binary{format=isa})"], input=PLANTED, capture_output=True, text=True, check=True)
    raw = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', r.stdout) or re.search(r'bin = "((?:[^"\\]|\\.)*)"', r.stdout)
    ptx = re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), raw.group(1)).replace("\\\\", "\\")
    with open(os.path.join(bundle, "planted_oob.ptx"), "w") as fh:
        fh.write(ptx)
    man_path = os.path.join(bundle, "manifest.json")
    man = json.load(open(man_path))
    victim = next(k for k in man["kernels"] if k["args"][0]["shape"] == [3, 4097] and k["args"][0]["dtype"] == "f32")
    planted = dict(victim, name="planted_oob", binary="planted_oob.ptx", entry="planted_oob",
                   grid=[1, 1, 1], block=[64, 1, 1], schedule={"planted": "out-of-bounds write"})
    man["kernels"].insert(1, planted)
    json.dump(man, open(man_path, "w"), indent=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--random", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--families", default="", help="comma-separated subset (default: all)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    if not args.families:
        shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out, exist_ok=True)
    index = []
    only = set(args.families.split(",")) if args.families else None
    for family, (grid, ops) in families().items():
        if only and family not in only:
            continue
        funcs = []
        for name, fargs, op, res in ops:
            funcs.append(func(name + "_default", fargs, op, res, None))
            index.append(dict(family=family, kernel=name + "_default", schedule="default"))
            combos = list(itertools.product(*grid.values()))
            rng.shuffle(combos)
            n = 0
            for combo in combos[:80]:  # bounded: a family whose grid is mostly illegal is reported short
                if n == args.random:
                    break
                sched = dict(zip(grid.keys(), combo))
                f = func(f"{name}_s{n}", fargs, op, res, sched)
                if verify("module {\n" + f + "}\n"):
                    funcs.append(f)
                    index.append(dict(family=family, kernel=f"{name}_s{n}", schedule=sched))
                    n += 1
        src = os.path.join(args.out, family + ".mlir")
        with open(src, "w") as fh:
            fh.write("module {\n" + "".join(funcs) + "}\n")
        r = subprocess.run([os.path.join(BIN, "hkg-compile"), src, "--chip=sm_90", "-o", os.path.join(args.out, family)],
                           capture_output=True, text=True)
        print(family, len(funcs), "kernels:", "compiled" if r.returncode == 0 else "FAILED " + r.stderr[:500], flush=True)
    if only is None or "elementwise" in only:
        plant_oob(os.path.join(args.out, "elementwise"))
        index.insert(1, dict(family="elementwise", kernel="planted_oob", schedule="planted out-of-bounds write"))
    path = os.path.join(args.out, "index.json")
    old = json.load(open(path)) if only and os.path.exists(path) else []
    old = [e for e in old if not only or e["family"] not in only]
    with open(path, "w") as fh:
        json.dump(old + index, fh, indent=0)


if __name__ == "__main__":
    main()

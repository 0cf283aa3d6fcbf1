#!/usr/bin/env python3
"""Compile the H200 tuning-dataset candidates (runs here, not on the GPU).

    python3 utils/tuning/make_candidates.py [--out .carry/tuning] [--per-group 50]
        [--seed 1] [--jobs 2] [--batch 12] [--groups softmax_bf16_8192x8192,...]

For every shape group below (op kind x body x shape x dtype): write the op as
.mlir, ask hkg for its signature (`hkg-tune signature`) and for distinct legal
schedules (`hkg-tune sample`: the default first, then random legal ones; the
whole legal space in random order when it is small), then compile the
candidates with `hkg-compile --chip=sm_90 --format=cubin --emit-isa` (the
PTX is kept as a fallback should the driver refuse a cubin), several per
hkg-compile call (one func per candidate in one module; a batch that fails is
retried one candidate at a time, and a candidate that still fails is kept in
the index as a compile error). Writes OUT/index.json (what measure.py runs)
and OUT/bundles.tar.xz (the bundles), and prints the compile rate.
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.join(ROOT, os.environ.get("HKG_BUILD_DIR", "build"), "bin")
CHIP = "sm_90"

# ---------------------------------------------------------------------------
# Shape groups. Each group is one op signature: recipe = what measure.py needs
# to make inputs and the float64 reference.
# ---------------------------------------------------------------------------

ROW_SHAPES = [  # (rows, cols, dtype): PERF.md shapes and others
    (8192, 8192, "bf16"), (1, 4096, "bf16"), (4, 11008, "bf16"),
    (32768, 1024, "bf16"), (4097, 4096, "f16"), (2048, 5120, "f32"),
    (16, 32000, "bf16"), (512, 768, "bf16"), (64, 128256, "f32"),
]


def groups():
    g = []
    for body, shapes in (
        ("gelu", [(8192, 8192, "bf16"), (1, 4096, "bf16"), (4, 11008, "bf16"), (32768, 1024, "bf16"),
                  (4097, 4096, "f16"), (2048, 5120, "f32"), (77, 1001, "f32")]),
        ("bias_gelu", [(8192, 8192, "bf16"), (4, 11008, "bf16"), (4097, 3072, "f16"), (1024, 4096, "f32"),
                       (16384, 1024, "bf16")]),
        ("swiglu", [(8192, 8192, "bf16"), (4, 11008, "bf16"), (32768, 1024, "f16"), (1, 14336, "bf16"),
                    (2048, 5120, "f32")]),
    ):
        for r, c, dt in shapes:
            g.append(dict(kind="elementwise", body=body, shape=[r, c], dtype=dt))
    for kind in ("softmax", "layernorm", "rmsnorm"):
        for r, c, dt in ROW_SHAPES:
            g.append(dict(kind=kind, shape=[r, c], dtype=dt))
    for b, s, h, d, dt in ((8, 4096, 32, 128, "bf16"), (1, 1, 32, 128, "bf16"), (4, 1, 32, 128, "bf16"),
                           (1, 2048, 32, 128, "bf16"), (2, 1024, 8, 64, "f16"), (1, 4096, 8, 128, "f32"),
                           (16, 512, 16, 64, "bf16"), (1, 8192, 40, 128, "bf16")):
        g.append(dict(kind="rope", shape=[b, s, h, d], dtype=dt))
    for kind, r, c, dt in (("sum", 8192, 8192, "f32"), ("sum", 1, 4096, "f32"), ("sum", 4, 11008, "bf16"),
                           ("sum", 32768, 1024, "f32"), ("sum", 4097, 4096, "f16"), ("max", 64, 128256, "f32"),
                           ("max", 2048, 5120, "bf16"), ("sum", 16, 32000, "f32")):
        g.append(dict(kind="reduce", combiner=kind, shape=[r, c], dtype=dt))
    for x in g:
        tag = x["kind"] if x["kind"] not in ("elementwise", "reduce") else \
            (x["body"] if x["kind"] == "elementwise" else "reduce_" + x["combiner"])
        x["name"] = f"{tag}_{x['dtype']}_{'x'.join(map(str, x['shape']))}"
    return g


def tensor(shape, dt):
    return f"tensor<{'x'.join(map(str, shape))}x{dt}>"


def gelu_lines(v, dt, out):
    """GELU (tanh) of f32 SSA value %v, result in %out of dtype dt."""
    lines = [
        "%c0 = arith.constant 0.5 : f32", "%c1 = arith.constant 1.0 : f32",
        "%k = arith.constant 0.7978845608 : f32", "%c3 = arith.constant 0.044715 : f32",
        f"%x2 = arith.mulf {v}, {v} : f32", f"%x3 = arith.mulf %x2, {v} : f32",
        "%t0 = arith.mulf %c3, %x3 : f32", f"%t1 = arith.addf {v}, %t0 : f32",
        "%t2 = arith.mulf %k, %t1 : f32", "%th = math.tanh %t2 : f32",
        "%t3 = arith.addf %c1, %th : f32", f"%t4 = arith.mulf {v}, %t3 : f32",
    ]
    if dt == "f32":
        lines.append(f"{out} = arith.mulf %c0, %t4 : f32")
    else:
        lines += ["%r = arith.mulf %c0, %t4 : f32", f"{out} = arith.truncf %r : f32 to {dt}"]
    return lines


def ext(name, src, dt):
    return [] if dt == "f32" else [f"{name} = arith.extf {src} : {dt} to f32"]


def op_text(g, sched=None, fname="f"):
    """A func holding the group's op (with `sched`, a dict, as its schedule)."""
    dt, shape = g["dtype"], g["shape"]
    attr = ""
    if sched is not None:
        attr = " {schedule = #hkg.schedule<" + ", ".join(
            f"{k} = {v}" for k, v in sorted(sched.items())) + ">}"
    k = g["kind"]
    if k == "elementwise":
        t = tensor(shape, dt)
        body = g["body"]
        if body == "gelu":
            args, types = ["%x"], [t]
            bb = f"^bb0(%a: {dt}):"
            v = "%a" if dt == "f32" else "%v"
            lines = ext("%v", "%a", dt) + gelu_lines(v, dt, "%o")
        elif body == "bias_gelu":
            tb = tensor(shape[-1:], dt)
            args, types = ["%x", "%b"], [t, tb]
            bb = f"^bb0(%a: {dt}, %bb: {dt}):"
            if dt == "f32":
                lines = ["%v = arith.addf %a, %bb : f32"]
            else:
                lines = ext("%av", "%a", dt) + ext("%bv", "%bb", dt) + ["%v = arith.addf %av, %bv : f32"]
            lines += gelu_lines("%v", dt, "%o")
        else:  # swiglu
            args, types = ["%g", "%u"], [t, t]
            bb = f"^bb0(%gi: {dt}, %ui: {dt}):"
            gf, uf = ("%gi", "%ui") if dt == "f32" else ("%gf", "%uf")
            lines = ext("%gf", "%gi", dt) + ext("%uf", "%ui", dt) + [
                f"%n = arith.negf {gf} : f32", "%e = math.exp %n : f32",
                "%one = arith.constant 1.0 : f32", "%d = arith.addf %one, %e : f32",
                f"%s = arith.divf {gf}, %d : f32"]
            if dt == "f32":
                lines.append(f"%o = arith.mulf %s, {uf} : f32")
            else:
                lines += [f"%p = arith.mulf %s, {uf} : f32", f"%o = arith.truncf %p : f32 to {dt}"]
        params = ", ".join(f"{a}: {ty}" for a, ty in zip(args, types))
        body_text = "\n      ".join(lines + [f"hkg.yield %o : {dt}"])
        return (f"  func.func @{fname}({params}) -> {t} {{\n"
                f"    %0 = hkg.elementwise {', '.join(args)}{attr} : {', '.join(types)} -> {t} {{\n"
                f"    {bb}\n      {body_text}\n    }}\n    return %0 : {t}\n  }}\n")
    if k == "softmax":
        t = tensor(shape, dt)
        return (f"  func.func @{fname}(%x: {t}) -> {t} {{\n"
                f"    %0 = hkg.softmax %x axis(1){attr} : {t} -> {t}\n    return %0 : {t}\n  }}\n")
    if k == "layernorm":
        t, tw = tensor(shape, dt), tensor(shape[-1:], dt)
        return (f"  func.func @{fname}(%x: {t}, %w: {tw}, %b: {tw}) -> {t} {{\n"
                f"    %0 = hkg.layernorm %x weight(%w : {tw}) bias(%b : {tw}) eps(1.0e-05){attr} : {t} -> {t}\n"
                f"    return %0 : {t}\n  }}\n")
    if k == "rmsnorm":
        t, tw = tensor(shape, dt), tensor(shape[-1:], dt)
        return (f"  func.func @{fname}(%x: {t}, %w: {tw}) -> {t} {{\n"
                f"    %0 = hkg.rmsnorm %x weight(%w : {tw}) eps(1.0e-06){attr} : {t} -> {t}\n"
                f"    return %0 : {t}\n  }}\n")
    if k == "rope":
        b, s, h, d = shape
        t, tt = tensor(shape, dt), tensor([s, d // 2], "f32")
        return (f"  func.func @{fname}(%x: {t}, %c: {tt}, %s: {tt}) -> {t} {{\n"
                f"    %0 = hkg.rope %x, %c, %s neox offset(0){attr} : {t}, {tt}, {tt} -> {t}\n"
                f"    return %0 : {t}\n  }}\n")
    if k == "reduce":
        t, tr = tensor(shape, dt), tensor(shape[:1], dt)
        return (f"  func.func @{fname}(%x: {t}) -> {tr} {{\n"
                f"    %0 = hkg.reduce {g['combiner']} %x axes = [1]{attr} : {t} -> {tr}\n"
                f"    return %0 : {tr}\n  }}\n")
    raise ValueError(k)


def module(funcs):
    return "module {\n" + "".join(funcs) + "}\n"


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def compile_batch(job):
    """Compiles candidates [(cid, group, sched)] into one bundle; returns
    (bundle_rel, [(cid, kernel_name or None, error or None, manifest_kernel)])."""
    out_root, rel, items = job
    src = module(op_text(g, s, f"c{i}") for i, (_, g, s) in enumerate(items))
    path = os.path.join(out_root, rel)
    shutil.rmtree(path, ignore_errors=True)
    mlir = path + ".mlir"
    os.makedirs(os.path.dirname(mlir), exist_ok=True)
    with open(mlir, "w") as f:
        f.write(src)
    r = run([os.path.join(BIN, "hkg-compile"), mlir, f"--chip={CHIP}", "--format=cubin", "--emit-isa", "-o", path])
    os.remove(mlir)
    if r.returncode != 0:
        shutil.rmtree(path, ignore_errors=True)
        if len(items) == 1:
            return [(items[0][0], None, None, (r.stderr.strip().splitlines() or ["?"])[0][:300], None)]
        res = []
        for j, it in enumerate(items):
            res += compile_batch((out_root, f"{rel}_{j}", [it]))
        return res
    manifest = json.load(open(os.path.join(path, "manifest.json")))
    ks = manifest["kernels"]
    if len(ks) != len(items):
        raise RuntimeError(f"{rel}: {len(items)} candidates but {len(ks)} kernels")
    # Kernels are numbered in op order (hkg_<op>_<n>): one per func, in order.
    return [(cid, rel, k["name"], None, k) for (cid, _, _), k in zip(items, ks)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, ".carry", "tuning"))
    ap.add_argument("--per-group", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--groups", default="", help="comma-separated group names (default: all)")
    ap.add_argument("--keep-dirs", action="store_true", help="keep the bundle directories next to the tarball")
    args = ap.parse_args()

    out = os.path.abspath(args.out)
    work = os.path.join(out, "bundles")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    sel = set(filter(None, args.groups.split(",")))
    gs = [g for g in groups() if not sel or g["name"] in sel]

    t0 = time.time()
    jobs, cands = [], {}
    for gi, g in enumerate(gs):
        mlir = os.path.join(work, g["name"] + ".mlir")
        with open(mlir, "w") as f:
            f.write(module([op_text(g)]))
        sig = run([os.path.join(BIN, "hkg-tune"), "signature", mlir], check=True).stdout.strip()
        if "\n" in sig:
            raise RuntimeError(f"{g['name']}: expected one signature")
        r = run([os.path.join(BIN, "hkg-tune"), "sample", mlir, f"--chip={CHIP}", f"-n={args.per_group}",
                 f"--seed={args.seed + gi}"], check=True)
        os.remove(mlir)
        scheds = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
        g["signature"] = sig
        g["op"] = "hkg." + ("elementwise" if g["kind"] == "elementwise" else g["kind"])
        g["sample_note"] = r.stderr.strip()
        g["candidates"] = []
        print(f"{g['name']}: {len(scheds)} schedules ({r.stderr.strip()})", flush=True)
        items = []
        for si, s in enumerate(scheds):
            cid = f"{g['name']}/{si}"
            cands[cid] = dict(id=cid, schedule=s, default=(si == 0))
            g["candidates"].append(cid)
            items.append((cid, g, s))
        for b in range(0, len(items), args.batch):
            jobs.append((work, f"{g['name']}/b{b // args.batch}", items[b:b + args.batch]))
    t_sample = time.time() - t0

    t1 = time.time()
    done = 0
    failed = 0
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for res in ex.map(compile_batch, jobs):
            for cid, rel, kname, err, k in res:
                c = cands[cid]
                if err:
                    c["compile_error"] = err
                    failed += 1
                else:
                    c["bundle"] = rel
                    c["kernel"] = kname
                    c["schedule"] = k["schedule"]  # fully resolved
                    c["stats"] = k.get("stats", {})
                done += 1
            if done % 200 < args.batch:
                el = time.time() - t1
                print(f"  compiled {done}/{len(cands)} in {el:.0f}s ({done / el:.1f}/s)", flush=True)
    t_compile = time.time() - t1

    # Drop what measure.py does not need from the manifests (the source text
    # stays: it is the reference's definition).
    index = dict(hkg_version="0.1", target=CHIP, seed=args.seed,
                 date=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                 groups=[{k: v for k, v in g.items()} for g in gs],
                 candidates=[cands[c] for g in gs for c in g["candidates"]])
    with open(os.path.join(out, "index.json"), "w") as f:
        json.dump(index, f, indent=0)
    t2 = time.time()
    tar = os.path.join(out, "bundles.tar.xz")
    with tarfile.open(tar, "w:xz", preset=6) as tf:
        tf.add(work, arcname="bundles")
    if not args.keep_dirs:
        shutil.rmtree(work)
    n = len(cands)
    print(f"{n} candidates in {len(gs)} groups, {failed} compile errors; sampling {t_sample:.1f}s, "
          f"compiling {t_compile:.1f}s with {args.jobs} processes = {n / max(t_compile, 1e-9):.2f} candidates/s; "
          f"tar.xz {time.time() - t2:.1f}s, {os.path.getsize(tar) / 2**20:.1f} MiB -> {out}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Map of the extreme shapes each hkg op is asked to serve (issue 24: every
valid shape has a legal default schedule).

For every op family it writes .mlir inputs over extreme shapes and dtypes
(one row; rows of 1M elements; M, N or K = 1; odd primes such as 7, 13, 127,
4099; batch 1 with a huge hidden dim; reduce kinds: argmax, logsumexp,
cross-entropy and log_softmax on rows and down columns; attention decode with 1..16 queries and
head dims 32..1024, GQA; norms over one inner axis and over trailing axes;
dynamic rows, tokens and M with schedules chosen for size hints 1..1M),
plus `--samples` seeded random combinations of the
same extreme values, and runs on each chip:

  1. hkg-opt --hkg-default-schedule=chip=CHIP   (a legal default schedule?)
  2. hkg-compile --chip=CHIP                    (the full lowering to a code
                                                 object / PTX)

then prints a table of failures per op x chip and each failure's first
diagnostic. Every generated shape passes the op's verifier: a failure is a
shape that the compiler refuses or fails to serve.

    python3 utils/extreme_shapes.py                          # all ops, 3 chips
    python3 utils/extreme_shapes.py --ops matmul,attention --stage schedule
    python3 utils/extreme_shapes.py --chips gfx942 --list    # the cases only
    python3 utils/extreme_shapes.py --keep /tmp/x --json /tmp/x.json

Exit status: 0 when every case passes, 1 otherwise (2 on usage errors).
Python 3 standard library only.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import OrderedDict, defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPS = ["matmul", "reduce", "reduce_kinds", "softmax", "layernorm", "rmsnorm",
       "elementwise", "rope", "topk", "top_p_sample", "attention", "dynamic"]
DEFAULT_CHIPS = ["gfx942", "gfx1100", "sm_90"]

# The extreme values the random draws pick from.
ODD = [7, 13, 127, 4099]
SMALL = [1, 2, 3, 7, 13, 16]
HUGE_ROW = 1 << 20  # a 1M-element row


def tensor(shape, dt):
    return "tensor<%s>" % "x".join([str(d) for d in shape] + [dt])


class Case:
    def __init__(self, op, name, mlir):
        self.op, self.name, self.mlir = op, name, mlir


def func(name, args, results, body):
    """A func.func with `args` [(name, type)] returning `results` [(value,
    type)]."""
    sig = ", ".join("%%%s: %s" % a for a in args)
    rt = ", ".join(t for _, t in results)
    rv = ", ".join(v for v, _ in results)
    return ("func.func @%s(%s) -> (%s) {\n%s\n  return %s : %s\n}\n" %
            (name, sig, rt, body, rv, rt))


# ---------------------------------------------------------------------------
# Generators, one per op family: each takes a parameter tuple and returns
# (name, mlir), or None when the combination is not a valid op.
# ---------------------------------------------------------------------------


def gen_matmul(m, n, k, dt, trans_b=False, batch=None):
    a = [m, k]
    b = [n, k] if trans_b else [k, n]
    c = [m, n]
    if batch:
        a, b, c = [batch] + a, [batch] + b, [batch] + c
    attr = " {transpose_b}" if trans_b else ""
    name = "matmul_%s%dx%dx%d_%s%s" % ("b%d_" % batch if batch else "", m, n,
                                       k, dt, "_bt" if trans_b else "")
    A, B, C = tensor(a, dt), tensor(b, dt), tensor(c, dt)
    body = "  %%0 = hkg.matmul %%a, %%b%s : %s, %s -> %s" % (attr, A, B, C)
    return name, func(name, [("a", A), ("b", B)], [("%0", C)], body)


def gen_row(op, rows, length, dt):
    x = tensor([rows, length], dt)
    name = "%s_%dx%d_%s" % (op, rows, length, dt)
    w = tensor([length], dt)
    if op == "reduce":
        r = tensor([rows], dt)
        body = "  %%0 = hkg.reduce sum %%x axes = [1] : %s -> %s" % (x, r)
        return name, func(name, [("x", x)], [("%0", r)], body)
    if op == "softmax":
        body = "  %%0 = hkg.softmax %%x axis(1) : %s -> %s" % (x, x)
        return name, func(name, [("x", x)], [("%0", x)], body)
    if op == "layernorm":
        body = ("  %%0 = hkg.layernorm %%x weight(%%w : %s) bias(%%b : %s) "
                "eps(1.0e-05) : %s -> %s" % (w, w, x, x))
        return name, func(name, [("x", x), ("w", w), ("b", w)], [("%0", x)],
                          body)
    if op == "rmsnorm":
        body = ("  %%0 = hkg.rmsnorm %%x weight(%%w : %s) eps(1.0e-06) : %s -> %s"
                % (w, x, x))
        return name, func(name, [("x", x), ("w", w)], [("%0", x)], body)
    if op == "elementwise":
        # x + bias (a broadcast row), in f32.
        ext = (lambda v: "    %%%sf = arith.extf %%%s : %s to f32\n" %
               (v, v, dt)) if dt != "f32" else None
        lines = ""
        av, bv = "%a", "%c"
        if ext:
            lines += ext("a") + ext("c")
            av, bv = "%af", "%cf"
        lines += "    %%s = arith.addf %s, %s : f32\n" % (av, bv)
        res = "%s"
        if dt != "f32":
            lines += "    %%r = arith.truncf %%s : f32 to %s\n" % dt
            res = "%r"
        # The bias follows the last dim, said by a map (a square x would
        # leave a [n] bias ambiguous).
        body = ("  %%0 = hkg.elementwise %%x, %%w {indexing_maps = ["
                "affine_map<(d0, d1) -> (d0, d1)>, "
                "affine_map<(d0, d1) -> (d1)>]} : %s, %s -> %s {\n"
                "  ^bb0(%%a: %s, %%c: %s):\n%s    hkg.yield %s : %s\n  }" %
                (x, w, x, dt, dt, lines, res, dt))
        return name, func(name, [("x", x), ("w", w)], [("%0", x)], body)
    raise ValueError(op)


def gen_reduce_kind(kind, shape, axis, dt):
    """hkg.reduce argmax / logsumexp, a cross-entropy (logsumexp, sum with an
    i64 target per reduced line, prologue and epilogue) or log_softmax over
    `axis` of `shape` (rows when it is the last dim, else down columns)."""
    x = tensor(shape, dt)
    kept = [d for i, d in enumerate(shape) if i != axis]
    name = "%s_%s_ax%d_%s" % (kind, "x".join(map(str, shape)), axis, dt)
    if kind == "log_softmax":
        body = "  %%0 = hkg.softmax log %%x axis(%d) : %s -> %s" % (axis, x, x)
        return name, func(name, [("x", x)], [("%0", x)], body)
    if kind == "argmax":
        r = tensor(kept, "i64")
        body = "  %%0 = hkg.reduce argmax %%x axes = [%d] : %s -> %s" % (
            axis, x, r)
        return name, func(name, [("x", x)], [("%0", r)], body)
    if kind == "logsumexp":
        r = tensor(kept, "f32")
        body = "  %%0 = hkg.reduce logsumexp %%x axes = [%d] : %s -> %s" % (
            axis, x, r)
        return name, func(name, [("x", x)], [("%0", r)], body)
    # Cross-entropy: the target follows every kept dim.
    r, t = tensor(kept, "f32"), tensor(kept, "i64")
    dims = ", ".join("d%d" % i for i in range(len(shape)))
    kept_dims = ", ".join("d%d" % i for i in range(len(shape)) if i != axis)
    ext = ("      %%xf = arith.extf %%v : %s to f32\n" % dt) if dt != "f32" else ""
    xf = "%xf" if dt != "f32" else "%v"
    body = ("  %%0 = hkg.reduce logsumexp, sum %%x ins(%%t : %s) axes = [%d] "
            "{indexing_maps = [affine_map<(%s) -> (%s)>]} : %s -> %s\n"
            "    prologue {\n    ^bb0(%%v: %s, %%tg: i64):\n%s"
            "      %%j = hkg.index %d\n"
            "      %%ji = arith.index_cast %%j : index to i64\n"
            "      %%hit = arith.cmpi eq, %%ji, %%tg : i64\n"
            "      %%zero = arith.constant 0.0 : f32\n"
            "      %%pick = arith.select %%hit, %s, %%zero : f32\n"
            "      hkg.yield %s, %%pick : f32, f32\n"
            "    } epilogue {\n    ^bb0(%%l: f32, %%p: f32):\n"
            "      %%loss = arith.subf %%l, %%p : f32\n"
            "      hkg.yield %%loss : f32\n    }" %
            (t, axis, dims, kept_dims, x, r, dt, ext, axis, xf, xf))
    return name, func(name, [("x", x), ("t", t)], [("%0", r)], body)


def gen_rope(b, s, h, d, dt, layout="neox"):
    if d % 2:
        return None
    x = tensor([b, s, h, d], dt)
    tab = tensor([s, d // 2], "f32")
    name = "rope_%s_%dx%dx%dx%d_%s" % (layout, b, s, h, d, dt)
    body = ("  %%0 = hkg.rope %%x, %%c, %%s %s offset(0) : %s, %s, %s -> %s" %
            (layout, x, tab, tab, x))
    return name, func(name, [("x", x), ("c", tab), ("s", tab)], [("%0", x)],
                      body)


# hkg.topk's own limit on k (its ODS).
TOPK_MAX_K = 1024


def gen_topk(rows, length, k, dt):
    if k > length or k > TOPK_MAX_K:
        return None
    x = tensor([rows, length], dt)
    v, i = tensor([rows, k], dt), tensor([rows, k], "i32")
    name = "topk_%dx%d_k%d_%s" % (rows, length, k, dt)
    body = ("  %%v, %%i = hkg.topk %%x k(%d) axis(1) : %s -> %s, %s" %
            (k, x, v, i))
    return name, func(name, [("x", x)], [("%v", v), ("%i", i)], body)


def gen_top_p(rows, vocab, dt):
    x = tensor([rows, vocab], dt)
    r = tensor([rows], "i32")
    name = "top_p_sample_%dx%d_%s" % (rows, vocab, dt)
    body = ("  %%0 = hkg.top_p_sample %%x p(0.9) temperature(1.0) seed(7) : "
            "%s -> %s" % (x, r))
    return name, func(name, [("x", x)], [("%0", r)], body)


def gen_attention(b, hq, hkv, sq, skv, d, dt, causal=False):
    if hq % hkv or (causal and sq > skv):
        return None
    q, k = tensor([b, hq, sq, d], dt), tensor([b, hkv, skv, d], dt)
    name = "attention_b%d_h%dk%d_q%d_kv%d_d%d_%s%s" % (
        b, hq, hkv, sq, skv, d, dt, "_causal" if causal else "")
    body = ("  %%0 = hkg.attention %%q, %%k, %%v%s : %s, %s, %s -> %s" %
            (" causal" if causal else "", q, k, k, q))
    return name, func(name, [("q", q), ("k", k), ("v", k)], [("%0", q)], body)


# ---------------------------------------------------------------------------
# The cases: fixed extremes, then seeded random combinations.
# ---------------------------------------------------------------------------


def gen_norm_axes(op, shape, axes, dt):
    """A layernorm / rmsnorm over `axes` of `shape` (trailing axes, or one
    inner axis: down the columns), with a weight of the normalized dims."""
    x = tensor(shape, dt)
    w = tensor(shape[axes[0]:axes[-1] + 1], dt)
    name = "%s_%s_ax%s_%s" % (op, "x".join(map(str, shape)),
                              "".join(map(str, axes)), dt)
    eps = "1.0e-05" if op == "layernorm" else "1.0e-06"
    body = ("  %%0 = hkg.%s %%x axes = [%s] weight(%%w : %s) eps(%s) : %s -> %s"
            % (op, ", ".join(map(str, axes)), w, eps, x, x))
    return name, func(name, [("x", x), ("w", w)], [("%0", x)], body)


# Norms over an inner axis (one column of 1, 7 or 1M elements; 1 or a prime
# number of columns) and over trailing axes (a 1M-element row of two dims).
NORM_AXES = [([1, 1, 1], [1]), ([1, 7, 13], [1]), ([1, HUGE_ROW, 3], [1]),
             ([4099, 13, 7], [1]), ([3, 4099, 2], [1]), ([1, 2, 4099], [0]),
             ([13, 1024, 1024], [1, 2]), ([1, 7, 13, 127], [1, 2, 3]),
             ([2, 13, 1], [1]), ([1, 1024, 1024], [1, 2])]


DYN = 99991  # the stand-in of a dynamic dim in the generators' names and types


def gen_dynamic(gen, hint):
    """The (name, mlir) of `gen` (made with the extent DYN for the dims to be
    dynamic) with those dims '?' and the op's schedule chosen for `hint`
    (hkg.size_hint)."""
    if gen is None:
        return None
    name = gen[0].replace(str(DYN), "dyn") + "_hint%d" % hint
    attr = "hkg.size_hint = %d : i64" % hint
    text = gen[1].replace("@" + gen[0], "@" + name).replace(str(DYN), "?")
    lines = text.splitlines()
    i = next(j for j, l in enumerate(lines) if "hkg." in l and "=" in l)
    if "{indexing_maps" in lines[i]:
        lines[i] = lines[i].replace("{indexing_maps", "{%s, indexing_maps" % attr, 1)
    elif "{transpose_b}" in lines[i]:
        lines[i] = lines[i].replace("{transpose_b}", " {transpose_b, %s}" % attr, 1)
    else:
        head, sep, sig = lines[i].rpartition(" : ")  # the op's type signature
        lines[i] = "%s {%s}%s%s" % (head, attr, sep, sig)
    return name, "\n".join(lines) + "\n"


def fixed_cases():
    out = defaultdict(list)
    # Dynamic rows / tokens / M, with the schedule chosen for hints from 1
    # to 1M: legal for the hint, and one kernel for every size.
    for hint in [1, 7, 4096, HUGE_ROW]:
        for op in ["reduce", "softmax", "layernorm", "rmsnorm", "elementwise"]:
            for n in [1, 7, 4099, HUGE_ROW]:
                out["dynamic"].append(gen_dynamic(gen_row(op, DYN, n, "bf16"), hint))
        for n, k, tb in [(1, 1, False), (4096, 4096, False), (13, 127, False),
                         (11008, 4096, True), (4099, 7, True)]:
            for dt in ["bf16", "f32"]:
                out["dynamic"].append(
                    gen_dynamic(gen_matmul(DYN, n, k, dt, trans_b=tb), hint))
    mm = [(1, 1, 1), (1, 4096, 4096), (4096, 1, 4096), (4096, 4096, 1),
          (1, 1, 4096), (7, 13, 127), (127, 127, 127), (4099, 7, 13),
          (1, 4099, 7), (13, 1, 4099), (16, 4096, 1), (2, 11008, 4096),
          (4099, 4099, 16), (17, 33, 65)]
    for m, n, k in mm:
        for dt in ["bf16", "f32"]:
            out["matmul"].append(gen_matmul(m, n, k, dt))
    for m, n, k in [(1, 4096, 4096), (1, 1, 1), (13, 127, 7), (1, 4099, 4096)]:
        out["matmul"].append(gen_matmul(m, n, k, "f16", trans_b=True))
    out["matmul"].append(gen_matmul(1, 4096, 1, "bf16", batch=1))
    out["matmul"].append(gen_matmul(7, 7, 7, "bf16", batch=13))

    rows = [(1, 1), (1, 7), (1, HUGE_ROW), (7, 13), (4099, 1), (1, 4099),
            (127, 127), (13, 65536), (1, 12288), (2, HUGE_ROW + 3)]
    for op in ["reduce", "softmax", "layernorm", "rmsnorm", "elementwise"]:
        for r, n in rows:
            for dt in ["bf16", "f32"]:
                out[op].append(gen_row(op, r, n, dt))
    # argmax / logsumexp / cross-entropy / log_softmax: rows (the last dim)
    # and down columns (a middle or leading axis), one element to 1M.
    kind_shapes = [((1, 1), 1), ((1, HUGE_ROW), 1), ((4099, 7), 1),
                   ((13, 127), 1), ((2, HUGE_ROW + 3), 1), ((7, 13, 3), 1),
                   ((1, HUGE_ROW, 8), 1), ((4099, 2, 5), 1), ((13, 1), 0),
                   ((HUGE_ROW, 4), 0), ((2, 1, 7), 1)]
    for kind in ["argmax", "logsumexp", "xent", "log_softmax"]:
        for shape, axis in kind_shapes:
            for dt in ["bf16", "f32"]:
                out["reduce_kinds"].append(
                    gen_reduce_kind(kind, shape, axis, dt))
    for op in ["layernorm", "rmsnorm"]:
        for shape, axes in NORM_AXES:
            for dt in ["bf16", "f32"]:
                out[op].append(gen_norm_axes(op, shape, axes, dt))

    for b, s, h, d in [(1, 1, 1, 2), (1, 1, 1, 1024), (1, 4099, 7, 126),
                       (1, 13, 1, 14), (1, 1, 64, 128), (3, 127, 3, 6),
                       (1, 1, 1, 4096)]:
        for layout in ["neox", "gptj"]:
            for dt in ["bf16", "f32"]:
                out["rope"].append(gen_rope(b, s, h, d, dt, layout))

    for r, n, k in [(1, 1, 1), (1, 7, 7), (1, HUGE_ROW, 1), (1, HUGE_ROW, 1024),
                    (7, 13, 5), (4099, 8, 2), (1, 4099, 50), (1, 128256, 1024),
                    (13, 127, 127), (1, 64, 64)]:
        for dt in ["bf16", "f32"]:
            out["topk"].append(gen_topk(r, n, k, dt))

    for r, v in [(1, 1), (1, 7), (1, HUGE_ROW), (4099, 13), (1, 4099),
                 (1, 128256), (13, 127), (1, 2)]:
        for dt in ["bf16", "f32"]:
            out["top_p_sample"].append(gen_top_p(r, v, dt))

    # Decode (1..16 queries) over head dims 32..1024, GQA and MQA, causal,
    # odd key lengths, and prefill-sized squares.
    for sq in [1, 2, 7, 13, 16]:
        for d in [32, 64, 128, 256, 512, 1024]:
            out["attention"].append(
                gen_attention(1, 8, 2, sq, 4096, d, "bf16"))
    for args in [(1, 32, 8, 1, 127, 128, "bf16", False),
                 (1, 32, 8, 1, 4099, 128, "bf16", False),
                 (1, 32, 8, 7, 13, 128, "f16", True),
                 (1, 7, 1, 1, 1, 64, "bf16", False),
                 (1, 1, 1, 1, 1, 32, "f32", False),
                 (2, 4, 4, 13, 13, 1024, "f32", True),
                 (1, 4, 4, 16, 4096, 1024, "f32", False),
                 (1, 2, 1, 4099, 4099, 64, "bf16", True),
                 (1, 16, 16, 512, 512, 512, "bf16", True),
                 (1, 8, 8, 1024, 1024, 256, "f16", False),
                 (1, 2, 2, 77, 77, 40, "bf16", True),
                 (2, 4, 2, 3, 100, 24, "f16", False),
                 # Dv = 36: not a multiple of 8 (the FMA kernel, O's last tile partial).
                 (1, 2, 2, 1, 13, 36, "bf16", False),
                 # Causal decode steps whose defaults pack the GQA group
                 # and split the keys (kv_split; issue 28).
                 (4, 32, 8, 4, 8191, 128, "bf16", True),
                 (2, 8, 1, 16, 2053, 256, "f16", True)]:
        out["attention"].append(gen_attention(*args))
    return out


def random_cases(rng, samples):
    out = defaultdict(list)
    pick = lambda vals: rng.choice(vals)
    for _ in range(samples):
        dims = SMALL + ODD + [64, 4096]
        out["matmul"].append(gen_matmul(pick(dims), pick(dims), pick(dims),
                                        pick(["bf16", "f16", "f32"]),
                                        trans_b=rng.random() < 0.3))
        r, n = pick([1, 7, 13, 4099]), pick(SMALL + ODD + [HUGE_ROW, 8192])
        for op in ["reduce", "softmax", "layernorm", "rmsnorm",
                   "elementwise"]:
            out[op].append(gen_row(op, r, n, pick(["bf16", "f16", "f32"])))
        d = 2 * pick([1, 3, 7, 13, 32, 64, 127])
        out["rope"].append(gen_rope(1, pick([1, 7, 4099]), pick([1, 7, 32]),
                                    d, pick(["bf16", "f32"]),
                                    pick(["neox", "gptj"])))
        n = pick(SMALL + ODD + [HUGE_ROW, 128256])
        out["topk"].append(gen_topk(pick([1, 7, 4099]), n,
                                    rng.randint(1, min(n, TOPK_MAX_K)),
                                    pick(["bf16", "f32"])))
        out["top_p_sample"].append(gen_top_p(pick([1, 13]),
                                             pick(SMALL + ODD + [HUGE_ROW]),
                                             pick(["bf16", "f32"])))
        hkv = pick([1, 2, 8])
        sq = pick(list(range(1, 17)) + [127])
        out["attention"].append(gen_attention(
            1, hkv * pick([1, 4]), hkv, sq, pick([sq, 13, 127, 4096, 4099]),
            pick([8, 24, 32, 40, 64, 96, 128, 256, 512, 1024]),
            pick(["bf16", "f16", "f32"]), rng.random() < 0.3))
    return out


def all_cases(seed, samples, ops):
    fixed = fixed_cases()
    rand = random_cases(random.Random(seed), samples)
    cases = []
    for op in ops:
        seen = set()
        for gen in fixed[op] + rand[op]:
            if gen is None or gen[0] in seen:
                continue
            seen.add(gen[0])
            cases.append(Case(op, gen[0], gen[1]))
    return cases


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------


def first_error(text):
    for line in text.splitlines():
        m = re.search(r"error: (.*)", line)
        if m:
            return m.group(1).strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip() if lines else "(no output)"


def run_tool(cmd, timeout):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, "timed out after %d s" % timeout, ""
    if p.returncode != 0:
        return False, first_error(p.stderr + "\n" + p.stdout), p.stdout
    return True, "", p.stdout


def run_case(case, chip, args, workdir):
    path = os.path.join(workdir, "%s.mlir" % case.name)
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write(case.mlir)
    ok, msg, out = run_tool([args.hkg_opt, path,
                             "--hkg-default-schedule=chip=%s" % chip],
                            args.timeout)
    result = {"op": case.op, "case": case.name, "chip": chip}
    if not ok:
        result.update(stage="schedule", error=msg)
        return result
    m = re.search(r"#hkg\.schedule<[^>]*>", out)
    result["schedule"] = m.group(0) if m else ""
    if args.stage == "schedule":
        result.update(stage="ok", error="")
        return result
    outdir = os.path.join(workdir, "%s.%s" % (case.name, chip))
    ok, msg, _ = run_tool([args.hkg_compile, path, "--chip=%s" % chip, "-o",
                           outdir], args.timeout)
    result.update(stage="ok" if ok else "compile", error=msg)
    return result


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ops", default=",".join(OPS),
                   help="comma-separated op families (default: all)")
    p.add_argument("--chips", default=",".join(DEFAULT_CHIPS))
    p.add_argument("--seed", type=int, default=24)
    p.add_argument("--samples", type=int, default=8,
                   help="random extreme combinations per op family")
    p.add_argument("--stage", choices=["schedule", "compile"],
                   default="compile",
                   help="stop after the default schedule, or compile too")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=int, default=600,
                   help="seconds per tool run")
    p.add_argument("--hkg-opt", default=os.path.join(ROOT, "build/bin/hkg-opt"))
    p.add_argument("--hkg-compile",
                   default=os.path.join(ROOT, "build/bin/hkg-compile"))
    p.add_argument("--keep", help="write the inputs and outputs here")
    p.add_argument("--json", help="write every result here")
    p.add_argument("--list", action="store_true",
                   help="print the cases and exit")
    args = p.parse_args()
    ops = [o for o in args.ops.split(",") if o]
    bad = [o for o in ops if o not in OPS]
    if bad:
        p.error("unknown op(s) %s; expected some of %s" % (bad, OPS))
    chips = [c for c in args.chips.split(",") if c]
    cases = all_cases(args.seed, args.samples, ops)
    if args.list:
        for c in cases:
            print(c.op, c.name)
        return 0

    workdir = args.keep or tempfile.mkdtemp(prefix="hkg-extreme-")
    os.makedirs(workdir, exist_ok=True)
    jobs = [(c, chip) for c in cases for chip in chips]
    results = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futs = [pool.submit(run_case, c, chip, args, workdir)
                for c, chip in jobs]
        for f in futs:
            results.append(f.result())

    # Failures per op x chip.
    table = OrderedDict((op, OrderedDict((ch, [0, 0]) for ch in chips))
                        for op in ops)
    for r in results:
        cell = table[r["op"]][r["chip"]]
        cell[1] += 1
        cell[0] += r["stage"] != "ok"
    w = max(len(o) for o in ops) + 2
    print("failures / cases (stage: %s, seed %d, %d random per op)" %
          (args.stage, args.seed, args.samples))
    print("op".ljust(w) + "".join(ch.rjust(12) for ch in chips))
    total = [0, 0]
    for op, row in table.items():
        print(op.ljust(w) + "".join(("%d/%d" % tuple(v)).rjust(12)
                                    for v in row.values()))
        for v in row.values():
            total[0] += v[0]
            total[1] += v[1]
    print("total".ljust(w) + ("%d/%d" % tuple(total)).rjust(12))
    failed = [r for r in results if r["stage"] != "ok"]
    if failed:
        print("\nfailures:")
        for r in failed:
            print("  %-8s %-48s %-8s %s" % (r["chip"], r["case"], r["stage"],
                                           r["error"][:300]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    if not args.keep:
        subprocess.run(["rm", "-rf", workdir])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

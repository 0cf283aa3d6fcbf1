"""Builds the correctness sweep of hkg's lowered ops (runs here, no GPU).

    python3 utils/sweep/make_sweep.py --out .carry/sweep [--random 5] [--seed 0]

For every op x shape x dtype: the default schedule and --random legal
schedules (drawn from the knob grid below and kept only if
hkg-verify-schedule accepts them for sm_90), all in one module per op family,
compiled by hkg-compile --chip=sm_90 into one bundle per family. Also writes a
planted out-of-bounds kernel into the elementwise bundle: hkg-run must report
it as a failed candidate and finish the sweep (utils/device/sweep.sh kernels).

The families ew_maps, ew_index, ew_ints, ew_f64 and matmul_epi cover hkg.elementwise's
explicit indexing maps (per-row / per-column scales on square and non-square
results, transposed reads, size-1 dims, 3-D maps), hkg.index in bodies (a
causal mask, packed-int unpacking by column parity, one-hot targets), i1 / i8 /
i32 / i64 / f64 tensors, and hkg.matmul epilogue operands of shape [1, N] and
[B, 1, N] (matmul_epi: random schedules from the small MM grid; fewer than
--random legal ones are kept when the grid runs out). reduce_kinds and
reduce_bodies cover hkg.reduce's argmax / argmin / logsumexp kinds, its
prologue and epilogue bodies (cross-entropy with i64 targets, mean, variance,
L2 norm, max with argmax) and log_softmax, on rows and down columns. The
families dynamic_rows, dynamic_reduce and dynamic_ew have dynamic batch /
row / token dims ('?'), dynamic_matmul a dynamic M: one kernel each, checked at several sizes. The
families norm_trailing and norm_inner cover hkg.layernorm / hkg.rmsnorm over
2 or 3 trailing axes (row schedules) and over one inner axis (column
schedules), with and without weight and bias, in f32 / f16 / bf16 at odd
sizes. The family row_split covers rows shared by several workgroups (the
row_split knob: softmax, log_softmax, layernorm, rmsnorm over a few long
rows, odd lengths whose last slice is short, rows of 4M), combined through a
thread-block cluster or the global workspace (row_split_reduce; each shape
also with the combine its default does not take); its defaults split, its
random schedules draw row_split from 2 to 64. Every case has a
'feature' in index.json; utils/sweep/summarize.py counts them per feature.
With --extremes, the families x_<op> add utils/extreme_shapes.py's cases
(every op x dtype x extreme shape: one row, rows of 1M, M / N / K = 1, odd
primes, attention decode and head dims up to 1024, dynamic dims with size
hints 1..1M; fixed and seeded random) with their default schedules, checked
the same way (issue 24's run: none refused, all within tolerance).
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


# ---------------------------------------------------------------------------
# hkg.elementwise: indexing maps, hkg.index, integer and f64 tensors;
# hkg.matmul epilogue operands [1, N] and [B, 1, N].

def ew_op(ins, out, body, maps=None):
    """An hkg.elementwise over inputs `ins` [(shape, dtype)] into `out` (shape, dtype). `body`: lines using
    the block arguments %a0, %a1, ... and ending in hkg.yield; `maps`: the results of each input's affine
    map ('d0, 0'), or None for the maps the shapes imply. Returns (arg types, op builder, result type)."""
    types = [t(sh, dt) for sh, dt in ins]
    res = t(*out)
    dims = ", ".join(f"d{i}" for i in range(len(out[0])))

    def op(sched):
        attrs = []
        if maps:
            attrs.append("indexing_maps = [%s]" % ", ".join(f"affine_map<({dims}) -> ({m})>" for m in maps))
        if sched:
            attrs.append(sched)
        a = "{%s} " % ", ".join(attrs) if attrs else ""
        return (f"hkg.elementwise {', '.join(f'%arg{i}' for i in range(len(ins)))} {a}: {', '.join(types)} -> {res} {{\n"
                f"    ^bb0({', '.join(f'%a{i}: {dt}' for i, (_, dt) in enumerate(ins))}):\n"
                + "".join(f"      {line}\n" for line in body) + "    }")
    return types, op, res


def to_f32(v, dt, name):
    """Lines that make the float %v of type dt an f32 named %name, and that name."""
    return ([], v) if dt == "f32" else ([f"%{name} = arith.extf {v} : {dt} to f32"], f"%{name}")


def from_f32(v, dt):
    """Lines that yield the f32 %v as dt."""
    if dt == "f32":
        return [f"hkg.yield {v} : f32"]
    return [f"%out = arith.truncf {v} : f32 to {dt}", f"hkg.yield %out : {dt}"]


def sname(shape):
    return "x".join(map(str, shape))


def spread(shapes, dtypes=DTYPES):
    """The first shape in every dtype, the others in one dtype each (rotating): each feature is seen in every
    dtype and at every shape without the full product."""
    out = [(shapes[0], dt) for dt in dtypes]
    out += [(sh, dtypes[(i + 1) % len(dtypes)]) for i, sh in enumerate(shapes[1:])]
    return out


def ew_case(feature, name, ins, out, body, maps=None):
    types, op, res = ew_op(ins, out, body, maps)
    return (name, types, op, res, feature)


def ew_maps_cases():
    cases = []
    # A per-row scale (d0, d1) -> (d0): square (the shape alone is ambiguous), non-square, an odd row.
    for (m, n), dt in spread([(512, 512), (96, 4000), (3, 4097), (1000, 24)]):
        lx, x = to_f32("%a0", dt, "x")
        ls, sc = to_f32("%a1", dt, "s")
        cases.append(ew_case("per_row_scale", f"rowscale_{dt}_{m}x{n}", [((m, n), dt), ((m,), dt)], ((m, n), dt),
                             lx + ls + [f"%p = arith.mulf {x}, {sc} : f32"] + from_f32("%p", dt), ["d0, d1", "d0"]))
    # A per-column scale of a square matrix, (d0, d1) -> (d1), given explicitly.
    for (m, n), dt in spread([(256, 256)]):
        lx, x = to_f32("%a0", dt, "x")
        ls, sc = to_f32("%a1", dt, "s")
        cases.append(ew_case("per_col_scale", f"colscale_{dt}_{m}x{n}", [((m, n), dt), ((n,), dt)], ((m, n), dt),
                             lx + ls + [f"%p = arith.mulf {x}, {sc} : f32"] + from_f32("%p", dt), ["d0, d1", "d1"]))
    # A transposed add: x + t^T, (d0, d1) -> (d1, d0); square and non-square.
    for (m, n), dt in spread([(256, 256), (96, 200), (33, 77)]):
        lx, x = to_f32("%a0", dt, "x")
        ly, y = to_f32("%a1", dt, "y")
        cases.append(ew_case("transpose_add", f"transadd_{dt}_{m}x{n}", [((m, n), dt), ((n, m), dt)], ((m, n), dt),
                             lx + ly + [f"%p = arith.addf {x}, {y} : f32"] + from_f32("%p", dt), ["d0, d1", "d1, d0"]))
    # Size-1 dims of the same rank: (x + a[M, 1]) * b[1, N], maps (d0, 0) and (0, d1); once with the maps
    # the shapes imply (no attribute).
    for (m, n), dt in spread([(64, 1000), (3, 4097), (128, 128)]):
        lx, x = to_f32("%a0", dt, "x")
        la, a = to_f32("%a1", dt, "a")
        lb, b = to_f32("%a2", dt, "b")
        body = lx + la + lb + [f"%p = arith.addf {x}, {a} : f32", f"%q = arith.mulf %p, {b} : f32"] + from_f32("%q", dt)
        ins = [((m, n), dt), ((m, 1), dt), ((1, n), dt)]
        cases.append(ew_case("size1_bcast", f"size1_{dt}_{m}x{n}", ins, ((m, n), dt), body, ["d0, d1", "d0, 0", "0, d1"]))
        if (m, n) == (64, 1000) and dt == "bf16":
            cases.append(ew_case("size1_bcast", f"size1_implied_{dt}_{m}x{n}", ins, ((m, n), dt), body))
    # 3-D: x[B, S, H] * g[B, H] (d0, d1, d2) -> (d0, d2) + c[S] (d0, d1, d2) -> (d1).
    for (b, sq, h), dt in spread([(4, 77, 128), (2, 33, 96), (3, 5, 7)]):
        lx, x = to_f32("%a0", dt, "x")
        lg, g = to_f32("%a1", dt, "g")
        lc, c = to_f32("%a2", dt, "c")
        cases.append(ew_case("map_3d", f"map3d_{dt}_{b}x{sq}x{h}", [((b, sq, h), dt), ((b, h), dt), ((sq,), dt)],
                             ((b, sq, h), dt),
                             lx + lg + lc + [f"%p = arith.mulf {x}, {g} : f32", f"%q = arith.addf %p, {c} : f32"]
                             + from_f32("%q", dt), ["d0, d1, d2", "d0, d2", "d1"]))
    return cases


def ew_index_cases():
    cases = []
    # A causal mask from hkg.index: x where col <= row, else 0.
    for (r, c), dt in spread([(77, 1001), (128, 128), (5, 4096)]):
        cases.append(ew_case("causal_mask", f"causal_{dt}_{r}x{c}", [((r, c), dt)], ((r, c), dt), [
            "%r = hkg.index 0", "%c = hkg.index 1", "%keep = arith.cmpi ule, %c, %r : index",
            f"%zero = arith.constant 0.0 : {dt}", f"%o = arith.select %keep, %a0, %zero : {dt}", f"hkg.yield %o : {dt}"]))
    # Packed-int unpacking: the low or high nibble of an i8 by column parity, minus 8, times a per-row f32
    # scale (d0, d1) -> (d0); into f32 / bf16 / f16.
    for (r, c), dt in spread([(64, 4096), (7, 1001), (128, 128)]):
        cases.append(ew_case("packed_int", f"unpack_i8_{dt}_{r}x{c}", [((r, c), "i8"), ((r,), "f32")], ((r, c), dt), [
            "%c = hkg.index 1", "%c1 = arith.constant 1 : index", "%odd = arith.andi %c, %c1 : index",
            "%oddi = arith.index_cast %odd : index to i8", "%c4 = arith.constant 4 : i8",
            "%sh = arith.muli %oddi, %c4 : i8", "%n = arith.shrui %a0, %sh : i8", "%c15 = arith.constant 15 : i8",
            "%nib = arith.andi %n, %c15 : i8", "%f = arith.uitofp %nib : i8 to f32",
            "%eight = arith.constant 8.0 : f32", "%z = arith.subf %f, %eight : f32", "%v = arith.mulf %z, %a1 : f32"]
            + from_f32("%v", dt), ["d0, d1", "d0"]))
    # One-hot of i32 targets[R] (d0, d1) -> (d0) against the column index.
    for (r, c) in [(64, 100), (3, 1001)]:
        cases.append(ew_case("i32_targets", f"onehot_i32_f32_{r}x{c}", [((r,), "i32")], ((r, c), "f32"), [
            "%c = hkg.index 1", "%ci = arith.index_cast %c : index to i32", "%eq = arith.cmpi eq, %a0, %ci : i32",
            "%one = arith.constant 1.0 : f32", "%zero = arith.constant 0.0 : f32",
            "%o = arith.select %eq, %one, %zero : f32", "hkg.yield %o : f32"], ["d0"]))
    return cases


def ew_ints_cases():
    cases = []
    # An i1 mask input: select(m, x, 0).
    for shape, dt in spread([(33, 129), (1000,), (4, 4097)]):
        cases.append(ew_case("i1_mask_in", f"mask_in_{dt}_{sname(shape)}", [(shape, "i1"), (shape, dt)], (shape, dt), [
            f"%zero = arith.constant 0.0 : {dt}", f"%o = arith.select %a0, %a1, %zero : {dt}", f"hkg.yield %o : {dt}"]))
    # An i1 output: m and (x > 0), through cmpf.
    for shape, dt in spread([(1000,), (33, 129), (4, 4097)]):
        cases.append(ew_case("i1_out", f"mask_out_{dt}_{sname(shape)}", [(shape, "i1"), (shape, dt)], (shape, "i1"), [
            f"%zero = arith.constant 0.0 : {dt}", f"%p = arith.cmpf ogt, %a1, %zero : {dt}",
            "%o = arith.andi %a0, %p : i1", "hkg.yield %o : i1"]))
    # i32 targets to floats: sitofp(3 t + 1).
    for shape, dt in spread([(4096,), (3, 4097)]):
        cases.append(ew_case("i32_targets", f"i32_to_{dt}_{sname(shape)}", [(shape, "i32")], (shape, dt), [
            "%c3 = arith.constant 3 : i32", "%m = arith.muli %a0, %c3 : i32", "%c1 = arith.constant 1 : i32",
            "%s = arith.addi %m, %c1 : i32", "%f = arith.sitofp %s : i32 to f32"] + from_f32("%f", dt)))
    # i64 in: 7 t + (last index) as i64, i64 to f32, i64 to i32 (trunci of t >> 1).
    for shape in [(4096,), (3, 1001)]:
        last = len(shape) - 1
        cases.append(ew_case("i64", f"i64_affine_{sname(shape)}", [(shape, "i64")], (shape, "i64"), [
            f"%i = hkg.index {last}", "%ii = arith.index_cast %i : index to i64", "%c7 = arith.constant 7 : i64",
            "%m = arith.muli %a0, %c7 : i64", "%s = arith.addi %m, %ii : i64", "hkg.yield %s : i64"]))
    cases.append(ew_case("i64", "i64_to_f32_4096", [((4096,), "i64")], ((4096,), "f32"), [
        "%f = arith.sitofp %a0 : i64 to f32", "hkg.yield %f : f32"]))
    cases.append(ew_case("i64", "i64_to_i32_64x1000", [((64, 1000), "i64")], ((64, 1000), "i32"), [
        "%c1 = arith.constant 1 : i64", "%h = arith.shrsi %a0, %c1 : i64", "%o = arith.trunci %h : i64 to i32",
        "hkg.yield %o : i32"]))
    # i8 to i32: extsi, times 1000.
    cases.append(ew_case("i8", "i8_to_i32_64x1024", [((64, 1024), "i8")], ((64, 1024), "i32"), [
        "%e = arith.extsi %a0 : i8 to i32", "%k = arith.constant 1000 : i32", "%o = arith.muli %e, %k : i32",
        "hkg.yield %o : i32"]))
    return cases


def ew_f64_cases():
    """f64 tensors, in their own bundle (hkg-run took f64 arguments only after the 2026-12-05 run, which
    checked this bundle through PyTorch: docs/perf/README.md)."""
    cases = []
    # f64: exp in f64; f64 in, f32 out; f32 in times a per-row f64 scale of a square matrix, f64 out.
    for shape in [(4096,), (3, 4097)]:
        cases.append(ew_case("f64", f"exp_f64_{sname(shape)}", [(shape, "f64")], (shape, "f64"), [
            "%e = math.exp %a0 : f64", "hkg.yield %e : f64"]))
    cases.append(ew_case("f64", "exp_f64_to_f32_64x1000", [((64, 1000), "f64")], ((64, 1000), "f32"), [
        "%e = math.exp %a0 : f64", "%o = arith.truncf %e : f64 to f32", "hkg.yield %o : f32"]))
    cases.append(ew_case("f64", "rowscale_f32_f64_64x64", [((64, 64), "f32"), ((64,), "f64")], ((64, 64), "f64"), [
        "%x = arith.extf %a0 : f32 to f64", "%p = arith.mulf %x, %a1 : f64", "hkg.yield %p : f64"], ["d0, d1", "d0"]))
    return cases


MM = dict(tile_m=[64, 128], tile_n=[64, 128], tile_k=[32, 64], waves_m=[1, 2], waves_n=[1, 2], stages=[2, 3])


def matmul_epi_cases():
    """hkg.matmul with epilogue operands [1, N] (a bias, on a square result too) and [B, 1, N] (one row per
    batch), and [1, N] over a batched result."""
    cases = []
    for (bt, m, k, n), dt, epis in [
            ((None, 128, 64, 256), "bf16", [(1, 256)]),
            ((None, 128, 64, 256), "f16", [(1, 256)]),
            ((None, 128, 64, 128), "bf16", [(1, 128)]),       # square: [N] would be ambiguous, [1, N] is not
            ((None, 64, 32, 96), "f32", [(1, 96)]),
            ((2, 128, 64, 256), "bf16", [(2, 1, 256)]),
            ((2, 64, 64, 128), "f16", [(2, 1, 128), (1, 128)]),
            ((3, 64, 32, 64), "bf16", [(3, 1, 64)])]:
        lead = () if bt is None else (bt,)
        a, b, c = t(lead + (m, k), dt), t(lead + (k, n), dt), t(lead + (m, n), dt)
        et = [t(e, dt) for e in epis]
        lines = []
        acc = "%acc"
        for i in range(len(epis)):
            le, ev = to_f32(f"%e{i}", dt, f"x{i}")
            lines += le + [f"%s{i} = arith.{'addf' if i == 0 else 'mulf'} {acc}, {ev} : f32"]
            acc = f"%s{i}"
        lines += from_f32(acc, dt)
        bb = ", ".join(["%acc: f32"] + [f"%e{i}: {dt}" for i in range(len(epis))])
        ops = ", ".join(f"%arg{2 + i}" for i in range(len(epis)))
        op = (f"hkg.matmul %arg0, %arg1 epilogue({ops} : {', '.join(et)}) {{sched}}: {a}, {b} -> {c} {{{{\n"
              f"    ^bb0({bb}):\n" + "".join(f"      {x}\n" for x in lines).replace("{", "{{").replace("}", "}}") + "    }}")
        feature = "matmul_epi_b1n" if any(len(e) == 3 for e in epis) else "matmul_epi_1n"
        name = f"mm_{dt}_{'' if bt is None else f'{bt}x'}{m}x{k}x{n}_epi_" + "_".join(sname(e) for e in epis)
        cases.append((name, [a, b] + et, op, c, feature))
    return cases


def matmul_op(a, b, c, attrs=(), epi=None):
    """An hkg.matmul as a callable of the schedule attribute (merged with `attrs`); `epi`: (operand types, block
    arguments, body lines)."""
    def text(sched):
        ad = [x for x in list(attrs) + [sched] if x]
        ad = "{%s} " % ", ".join(ad) if ad else ""
        if not epi:
            return f"hkg.matmul %arg0, %arg1 {ad}: {a}, {b} -> {c}"
        types, args, lines = epi
        ops = ", ".join(f"%arg{2 + i}" for i in range(len(types)))
        return (f"hkg.matmul %arg0, %arg1 epilogue({ops} : {', '.join(types)}) {ad}: {a}, {b} -> {c} {{\n"
                f"    ^bb0({args}):\n" + "".join(f"      {x}\n" for x in lines) + "    }")
    return text


def dynamic_matmul_cases():
    """hkg.matmul with a dynamic M: plain, with a per-column bias and a per-row scale (following M), and a
    decode-shaped projection (B as [N, K]) tuned for a small M."""
    cases = []
    for dt in ("bf16", "f16"):
        a, b, c = t(("?", 256), dt), t((256, 384), dt), t(("?", 384), dt)
        cases.append((f"dyn_mm_{dt}_Mx256x384", [a, b], matmul_op(a, b, c), c, "dyn_matmul"))
        bias, scale = t((384,), dt), t(("?",), "f32")
        le, ev = to_f32("%e0", dt, "x0")
        lines = le + [f"%s0 = arith.addf %acc, {ev} : f32", "%s1 = arith.mulf %s0, %e1 : f32"] + from_f32("%s1", dt)
        maps = "indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>]"
        cases.append((f"dyn_mm_{dt}_Mx256x384_bias_scale", [a, b, bias, scale],
                      matmul_op(a, b, c, [maps], ([bias, scale], f"%acc: f32, %e0: {dt}, %e1: f32", lines)), c,
                      "dyn_matmul"))
        ad, w, cd = t(("?", 512), dt), t((1000, 512), dt), t(("?", 1000), dt)
        cases.append((f"dyn_mm_decode_{dt}_Mx512x1000", [ad, w],
                      matmul_op(ad, w, cd, ["transpose_b", "hkg.size_hint = 8 : i64"]), cd, "dyn_matmul"))
    return cases


RED_ROW_SHAPES = [(3, 4097), (1, 128256), (64, 1024)]
RED_COL_SHAPES = [(8, 512, 64), (5, 37, 24), (2, 1000, 3)]


def reduce_op(kinds, x, res, axes, prologue=None, epilogue=None, ins=None, maps=None):
    """An hkg.reduce as a callable of the schedule attribute (merged with indexing_maps)."""
    def text(sched):
        attrs = [a for a in (sched, maps and "indexing_maps = [%s]" % ", ".join(maps)) if a]
        ad = "{%s} " % ", ".join(attrs) if attrs else ""
        insp = " ins(%s : %s)" % (", ".join(f"%arg{i + 1}" for i in range(len(ins))), ", ".join(ins)) if ins else ""
        body = ""
        if prologue:
            body += " prologue {\n    %s\n    }" % "\n      ".join(prologue)
        if epilogue:
            body += " epilogue {\n    %s\n    }" % "\n      ".join(epilogue)
        return f"hkg.reduce {kinds} %arg0{insp} axes = {axes} {ad}: {x} -> {res}{body}"
    return text


def xent_op(x, targets, res, dt):
    """Cross-entropy of the rows of `x` (logits of type dt) against i64 `targets`, one kernel: logsumexp of the
    row minus the logit the target picks (a one-hot prologue)."""
    lx, xf = to_f32("%v", dt, "xf")
    pro = [f"^bb0(%v: {dt}, %tg: i64):"] + lx + [
        "%j = hkg.index 1", "%ji = arith.index_cast %j : index to i64", "%hit = arith.cmpi eq, %ji, %tg : i64",
        "%zero = arith.constant 0.0 : f32", f"%pick = arith.select %hit, {xf}, %zero : f32",
        f"hkg.yield {xf}, %pick : f32, f32"]
    epi = ["^bb0(%l: f32, %p: f32):", "%loss = arith.subf %l, %p : f32", "hkg.yield %loss : f32"]
    return reduce_op("logsumexp, sum", x, res, "[1]", pro, epi, [targets], ["affine_map<(d0, d1) -> (d0)>"])


def reduce_kinds_cases():
    """argmax / argmin (i64 / i32 positions), logsumexp, maximum / minimum (a NaN wins), rows and down columns,
    every float dtype."""
    cases = []
    for (r, c), dt in spread(RED_ROW_SHAPES):
        x = t((r, c), dt)
        cases.append((f"argmax_{dt}_{r}x{c}", [x], reduce_op("argmax", x, t((r,), "i64"), "[1]"), t((r,), "i64"), "reduce_arg"))
        cases.append((f"argmin_{dt}_{r}x{c}", [x], reduce_op("argmin", x, t((r, 1), "i32"), "[1]"), t((r, 1), "i32"), "reduce_arg"))
        cases.append((f"lse_{dt}_{r}x{c}", [x], reduce_op("logsumexp", x, t((r,), dt), "[1]"), t((r,), dt), "reduce_lse"))
        cases.append((f"maximum_{dt}_{r}x{c}", [x], reduce_op("maximum", x, t((r,), dt), "[1]"), t((r,), dt), "reduce_minmax"))
    for (o, n, i), dt in spread(RED_COL_SHAPES):
        x = t((o, n, i), dt)
        cases.append((f"argmax_col_{dt}_{o}x{n}x{i}", [x], reduce_op("argmax", x, t((o, i), "i64"), "[1]"), t((o, i), "i64"), "reduce_arg"))
        cases.append((f"argmin_col0_{dt}_{o}x{n}x{i}", [x], reduce_op("argmin", x, t((n, i), "i32"), "[0]"), t((n, i), "i32"), "reduce_arg"))
        cases.append((f"lse_col_{dt}_{o}x{n}x{i}", [x], reduce_op("logsumexp", x, t((o, 1, i), "f32"), "[1]"), t((o, 1, i), "f32"), "reduce_lse"))
        cases.append((f"minimum_col_{dt}_{o}x{n}x{i}", [x], reduce_op("minimum", x, t((o, i), dt), "[1]"), t((o, i), dt), "reduce_minmax"))
    return cases


def reduce_bodies_cases():
    """Prologue / epilogue bodies: cross-entropy (an i64 target per row, one-hot pick), mean, variance, the L2
    norm, max and argmax combined; log_softmax on rows and down columns."""
    cases = []
    for (r, c), dt in spread(RED_ROW_SHAPES):
        x, tt = t((r, c), dt), t((r,), "i64")
        cases.append((f"xent_{dt}_{r}x{c}", [x, tt], xent_op(x, tt, t((r,), "f32"), dt), t((r,), "f32"),
                      "reduce_bodies"))
        lx, xf = to_f32("%v", dt, "xf")
        mean = ["^bb0(%s: f32):", f"%n = arith.constant {float(c)} : f32", "%m = arith.divf %s, %n : f32"] + from_f32("%m", dt)
        cases.append((f"mean_{dt}_{r}x{c}", [x], reduce_op("sum", x, t((r,), dt), "[1]", epilogue=mean), t((r,), dt), "reduce_bodies"))
        l2p = [f"^bb0(%v: {dt}):"] + lx + [f"%q = arith.mulf {xf}, {xf} : f32", "hkg.yield %q : f32"]
        l2e = ["^bb0(%s: f32):", "%n = math.sqrt %s : f32", "hkg.yield %n : f32"]
        cases.append((f"l2_{dt}_{r}x{c}", [x], reduce_op("sum", x, t((r,), "f32"), "[1]", l2p, l2e), t((r,), "f32"), "reduce_bodies"))
        mx = ["^bb0(%m: f32, %i: i64):", "%f = arith.sitofp %i : i64 to f32", "%y = arith.addf %m, %f : f32",
              "hkg.yield %y : f32"]
        cases.append((f"maxarg_{dt}_{r}x{c}", [x], reduce_op("max, argmax", x, t((r,), "f32"), "[1]", epilogue=mx),
                      t((r,), "f32"), "reduce_bodies"))
        cases.append((f"log_softmax_{dt}_{r}x{c}", [x], f"hkg.softmax log %arg0 axis(1) {{sched}}: {x} -> {x}", x, "log_softmax"))
    for (o, n, i), dt in spread(RED_COL_SHAPES):
        x = t((o, n, i), dt)
        lx, xf = to_f32("%v", dt, "xf")
        pro = [f"^bb0(%v: {dt}):"] + lx + [f"%q = arith.mulf {xf}, {xf} : f32", f"hkg.yield {xf}, %q : f32, f32"]
        epi = ["^bb0(%a: f32, %b: f32):", f"%n = arith.constant {float(n)} : f32", "%m = arith.divf %a, %n : f32",
               "%m2 = arith.divf %b, %n : f32", "%mm = arith.mulf %m, %m : f32", "%var = arith.subf %m2, %mm : f32",
               "hkg.yield %var : f32"]
        cases.append((f"var_col_{dt}_{o}x{n}x{i}", [x], reduce_op("sum, sum", x, t((o, i), "f32"), "[1]", pro, epi),
                      t((o, i), "f32"), "reduce_bodies"))
        cases.append((f"log_softmax_col_{dt}_{o}x{n}x{i}", [x], f"hkg.softmax log %arg0 axis(1) {{sched}}: {x} -> {x}", x,
                      "log_softmax"))
        cases.append((f"log_softmax_col0_{dt}_{o}x{n}x{i}", [x], f"hkg.softmax log %arg0 axis(0) {{sched}}: {x} -> {x}", x,
                      "log_softmax"))
    return cases


# Column schedules (a norm over one inner axis, ReductionsColumns.h): the
# column strip cached in registers or re-read, the axis split over a cluster.
COL = dict(vector_width=[1, 2, 4, 8], threads=[32, 64, 128, 256, 512],
           rows_per_block=[1, 2, 4, 8, 16, 32, 64], unroll=[1, 2, 4, 8],
           column_cache=["none", "registers"], axis_split=[1, 2, 4, 8])


def norm_case(kind, shape, axes, dt, weight, bias):
    """A layernorm / rmsnorm over `axes` of `shape`, with or without a weight (and, for layernorm, a bias)
    of the normalized dims' shape; the feature says which form it is."""
    x = t(shape, dt)
    w = t(shape[axes[0]:axes[-1] + 1], dt)
    args, ops = [x], ""
    if weight:
        args.append(w)
        ops += f" weight(%arg{len(args) - 1} : {w})"
    if bias:
        args.append(w)
        ops += f" bias(%arg{len(args) - 1} : {w})"
    eps = "1.0e-05" if kind == "layernorm" else "1.0e-06"
    trailing = axes[-1] == len(shape) - 1
    feature = "%s_%s%s%s" % (kind, "trailing" if trailing else "inner", "_w" if weight else "", "_b" if bias else "")
    name = "%s_%s_%s_ax%s" % (feature, dt, sname(shape), "".join(map(str, axes)))
    axes_text = ", ".join(map(str, axes))
    return (name, args, f"hkg.{kind} %arg0 axes = [{axes_text}]{ops} eps({eps}) {{sched}}: {x} -> {x}", x, feature)


def norm_axes_cases(trailing):
    """Norms over 2 (or 3) trailing axes, or over one inner axis: with and without weight and bias, odd sizes,
    every dtype (spread over the shapes)."""
    if trailing:
        shapes = [((4, 33, 65), [1, 2]), ((2, 3, 5, 129), [1, 2, 3]), ((1, 16, 8192), [1, 2]), ((37, 2, 2), [1, 2])]
    else:
        shapes = [((4, 96, 1000), [1]), ((3, 7, 33), [1]), ((2, 8, 16, 257), [2]), ((1, 4096, 64), [1]),
                  ((5, 3), [0]), ((2, 1037, 40), [1])]
    forms = [("layernorm", False, False), ("layernorm", True, False), ("layernorm", True, True),
             ("layernorm", False, True), ("rmsnorm", False, False), ("rmsnorm", True, False)]
    cases = []
    for (shape, axes), dt in spread(shapes):
        for kind, w, b in forms:
            cases.append(norm_case(kind, shape, axes, dt, w, b))
    return cases


def dynamic_cases():
    """Ops with dynamic batch / row / token dims ('?'): one kernel each, which hkg-run checks at several sizes
    (utils/device/sweep.sh passes --sizes to bundles with dynamic kernels)."""
    cases = []
    for dt in DTYPES:
        x = t(("?", 4097), dt)
        cases.append((f"dyn_softmax_{dt}_Nx4097", [x], f"hkg.softmax %arg0 axis(1) {{sched}}: {x} -> {x}", x, "dyn_rows"))
        x3 = t(("?", "?", 1000), dt)
        cases.append((f"dyn_logsoftmax_{dt}_BxSx1000", [x3], f"hkg.softmax log %arg0 axis(2) {{sched}}: {x3} -> {x3}", x3,
                      "dyn_rows"))
        xn, w = t(("?", 4096), dt), t((4096,), dt)
        cases.append((f"dyn_layernorm_{dt}_Nx4096", [xn, w, w],
                      f"hkg.layernorm %arg0 weight(%arg1 : {w}) bias(%arg2 : {w}) eps(1.0e-05) {{sched}}: {xn} -> {xn}", xn,
                      "dyn_rows"))
        xr, wr = t(("?", "?", 1024), dt), t((1024,), dt)
        cases.append((f"dyn_rmsnorm_{dt}_BxSx1024", [xr, wr],
                      f"hkg.rmsnorm %arg0 weight(%arg1 : {wr}) eps(1.0e-06) {{sched}}: {xr} -> {xr}", xr, "dyn_rows"))
        xs = t(("?", 8, 1000), dt)
        cases.append((f"dyn_sum_{dt}_Nx8x1000", [xs], reduce_op("sum", xs, t(("?", 8), dt), "[2]"), t(("?", 8), dt),
                      "dyn_reduce"))
        xl = t(("?", 32000), dt)
        cases.append((f"dyn_argmax_{dt}_Nx32000", [xl], reduce_op("argmax", xl, t(("?",), "i64"), "[1]"),
                      t(("?",), "i64"), "dyn_reduce"))
        tt = t(("?",), "i64")
        cases.append((f"dyn_xent_{dt}_Nx32000", [xl, tt], xent_op(xl, tt, t(("?",), "f32"), dt), t(("?",), "f32"),
                      "dyn_reduce"))
        body = GELU_BODY if dt != "f32" else GELU_BODY.replace("arith.extf %a : {dt} to f32", "arith.addf %a, %a : f32") \
            .replace("%o = arith.truncf %r : f32 to {dt}", "%o = arith.mulf %r, %c1 : f32")
        cases.append((f"dyn_gelu_{dt}_Nx4096", [xn],
                      f"hkg.elementwise %arg0 {{sched}}: {xn} -> {xn} {{{{\n    {body.format(dt=dt)}\n    }}}}", xn, "dyn_ew"))
        ls, af = to_f32("%a0", dt, "af")
        types, op, res = ew_op([(("?", 4096), dt), ((4096,), dt), (("?",), "f32")], (("?", 4096), dt),
                               ls + [f"%b = arith.extf %a1 : {dt} to f32" if dt != "f32" else "%b = arith.addf %a1, %a1 : f32",
                                     f"%s = arith.addf {af}, %b : f32", "%y = arith.mulf %s, %a2 : f32"] + from_f32("%y", dt),
                               ["d0, d1", "d1", "d0"])
        cases.append((f"dyn_bias_scale_{dt}_Nx4096", types, op, res, "dyn_ew"))
    v = t(("?",), "f32")
    cases.append(("dyn_exp_f32_N", [v], f"hkg.elementwise %arg0 {{sched}}: {v} -> {v} {{{{\n    ^bb0(%a: f32):\n      "
                  f"%e = math.exp %a : f32\n      hkg.yield %e : f32\n    }}}}", v, "dyn_ew"))
    return cases


# Few long rows (the default splits each over a cluster): one row, an odd
# (vector_width = 1) length whose last slice is short, torch's 3-D LayerNorm
# (16 x 131072), a million-element row.
SPLIT_SHAPES = [(1, 262144), (5, 100003), (16, 131072), (7, 65539), (3, 1000000)]


def row_split_cases():
    cases = []
    for (r, c), dt in spread(SPLIT_SHAPES):
        x, w = t((r, c), dt), t((c,), dt)
        # softmax of a row of 2^18 and more: every probability is below f16's
        # smallest normal (6.1e-5) and rounds to a multiple of 6e-8, 1-6%
        # off the float64 reference whatever the kernel (measured on an H100:
        # 1.6e-3 and 5.6e-3 norm-wise, bound 1e-3). log_softmax has no such
        # values; bf16 has the range.
        if not (dt == "f16" and c >= 1 << 18):
            cases.append((f"split_softmax_{dt}_{r}x{c}", [x], f"hkg.softmax %arg0 axis(1) {{sched}}: {x} -> {x}", x))
        cases.append((f"split_log_softmax_{dt}_{r}x{c}", [x], f"hkg.softmax log %arg0 axis(1) {{sched}}: {x} -> {x}", x))
        cases.append((f"split_layernorm_{dt}_{r}x{c}", [x, w, w],
                      f"hkg.layernorm %arg0 weight(%arg1 : {w}) bias(%arg2 : {w}) eps(1.0e-05) {{sched}}: {x} -> {x}", x))
        cases.append((f"split_layernorm_plain_{dt}_{r}x{c}", [x], f"hkg.layernorm %arg0 eps(1.0e-05) {{sched}}: {x} -> {x}", x))

        def merged(st, x=x):  # moments = merged: the (count, mean, M2) triples combined over the cluster
            st = "schedule = #hkg.schedule<moments = merged>" if st is None else st.replace("<", "<moments = merged, ", 1)
            return f"hkg.layernorm %arg0 eps(1.0e-05) {{{st}}} : {x} -> {x}"
        cases.append((f"split_layernorm_merged_{dt}_{r}x{c}", [x], merged, x))
        cases.append((f"split_rmsnorm_{dt}_{r}x{c}", [x, w], f"hkg.rmsnorm %arg0 weight(%arg1 : {w}) eps(1.0e-06) {{sched}}: {x} -> {x}", x))

        # The other combine than the default's: a cluster of 8 (sm_90) where
        # the default goes through the workspace, 8 workspace workgroups
        # where it takes a cluster or keeps rows whole.
        def forced(op, knobs, x=x):
            def text(st):
                st = f"schedule = #hkg.schedule<{knobs}>" if st is None else st.replace("<", f"<{knobs}, ", 1)
                return f"{op} {{{st}}} : {x} -> {x}"
            return text
        for combine in ("cluster", "workspace"):
            knobs = f"row_split = 8, row_split_reduce = {combine}, row_cache = none, threads = 512"
            cases.append((f"split_{combine}_log_softmax_{dt}_{r}x{c}", [x], forced("hkg.softmax log %arg0 axis(1)", knobs), x))
            cases.append((f"split_{combine}_layernorm_merged_{dt}_{r}x{c}", [x],
                          forced("hkg.layernorm %arg0 eps(1.0e-05)", "moments = merged, " + knobs), x))
    # hkg.reduce over few long rows: split through the workspace by default
    # (sum, argmax with its positions across slices, logsumexp's pairs).
    for (r, c), dt in spread([(2, 4194304), (5, 100003), (16, 131072)]):
        x = t((r, c), dt)
        cases.append((f"split_reduce_sum_{dt}_{r}x{c}", [x], f"hkg.reduce sum %arg0 axes = [1] {{sched}}: {x} -> {t((r,), 'f32')}",
                      t((r,), "f32")))
        cases.append((f"split_reduce_argmax_{dt}_{r}x{c}", [x], f"hkg.reduce argmax %arg0 axes = [1] {{sched}}: {x} -> {t((r,), 'i64')}",
                      t((r,), "i64")))
        cases.append((f"split_reduce_logsumexp_{dt}_{r}x{c}", [x],
                      f"hkg.reduce logsumexp %arg0 axes = [1] {{sched}}: {x} -> {t((r,), 'f32')}", t((r,), "f32")))
    # Rows of 4M: the workspace split's widest (64 workgroups a row).
    for r, c in ((2, 4194304),):
        x, w = t((r, c), "bf16"), t((c,), "bf16")
        cases.append((f"split_softmax_bf16_{r}x{c}", [x], f"hkg.softmax %arg0 axis(1) {{sched}}: {x} -> {x}", x))
        cases.append((f"split_layernorm_bf16_{r}x{c}", [x, w, w],
                      f"hkg.layernorm %arg0 weight(%arg1 : {w}) bias(%arg2 : {w}) eps(1.0e-05) {{sched}}: {x} -> {x}", x))
        cases.append((f"split_rmsnorm_bf16_{r}x{c}", [x, w], f"hkg.rmsnorm %arg0 weight(%arg1 : {w}) eps(1.0e-06) {{sched}}: {x} -> {x}", x))
    return cases


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
        rows["rmsnorm"].append((f"rmsnorm_{dt}_{r}x{c}", [x, w], f"hkg.rmsnorm %arg0 weight(%arg1 : {w}) eps(1.0e-06) {{sched}}: {x} -> {x}", x))
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
    fam["ew_maps"] = (EW, ew_maps_cases())
    fam["ew_index"] = (EW, ew_index_cases())
    fam["ew_ints"] = (EW, ew_ints_cases())
    fam["ew_f64"] = (EW, ew_f64_cases())
    fam["matmul_epi"] = (MM, matmul_epi_cases())
    red = {kk: vv for kk, vv in ROW.items() if kk != "row_cache"}
    red["axis_split"] = [1, 2, 4, 8]  # down columns only (rows refuse it)
    fam["reduce_kinds"] = (red, reduce_kinds_cases())
    fam["reduce_bodies"] = (red, reduce_bodies_cases())
    fam["norm_trailing"] = (ROW, norm_axes_cases(trailing=True))
    fam["norm_inner"] = (COL, norm_axes_cases(trailing=False))
    fam["row_split"] = (dict(ROW, row_split=[2, 4, 8, 16, 64], row_split_reduce=["cluster", "workspace"]), row_split_cases())
    dyn = dynamic_cases()
    fam["dynamic_rows"] = (ROW, [c for c in dyn if c[4] == "dyn_rows"])
    fam["dynamic_reduce"] = (red, [c for c in dyn if c[4] == "dyn_reduce"])
    fam["dynamic_ew"] = (EW, [c for c in dyn if c[4] == "dyn_ew"])
    fam["dynamic_matmul"] = (MM, dynamic_matmul_cases())
    return fam


def extreme_families(seed=24, samples=8):
    """utils/extreme_shapes.py's cases (its fixed extremes and `samples`
    seeded random draws per op; dynamic ones included), one family x_<op>
    per op: each case's function as written, with its default schedule."""
    sys.path.insert(0, os.path.join(ROOT, "utils"))
    import extreme_shapes
    fam = {}
    for case in extreme_shapes.all_cases(seed, samples, extreme_shapes.OPS):
        fam.setdefault("x_" + case.op, []).append(case)
    return fam


def verify(module_text):
    r = subprocess.run([os.path.join(BIN, "hkg-opt"), "--hkg-verify-schedule=chip=sm_90"], input=module_text,
                       capture_output=True, text=True)
    return r.returncode == 0


def sched_text(sched):
    return None if sched is None else "schedule = #hkg.schedule<%s>" % ", ".join(f"{k} = {v}" for k, v in sorted(sched.items()))


def func(name, args, op, res, sched):
    """op: text with a {sched} slot (the schedule's attr dict), or a callable taking the schedule attribute
    ('schedule = ...' or None) and returning the op's text (it merges it with its own attributes)."""
    if callable(op):
        text = op(sched_text(sched))
    else:
        text = op.format(sched="" if sched is None else "{%s} " % sched_text(sched))
    params = ", ".join(f"%arg{i}: {a}" for i, a in enumerate(args))
    return f"  func.func @{name}({params}) -> {res} {{\n    %0 = {text}\n    return %0 : {res}\n  }}\n"


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


def write_family(args, family, funcs):
    """One module of `funcs` compiled for sm_90 into the bundle OUT/family."""
    src = os.path.join(args.out, family + ".mlir")
    with open(src, "w") as fh:
        fh.write("module {\n" + "".join(funcs) + "}\n")
    r = subprocess.run([os.path.join(BIN, "hkg-compile"), src, "--chip=sm_90", "-o", os.path.join(args.out, family)],
                       capture_output=True, text=True)
    print(family, len(funcs), "kernels:", "compiled" if r.returncode == 0 else "FAILED " + r.stderr[:500], flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--random", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--families", default="", help="comma-separated subset (default: all)")
    ap.add_argument("--extremes", action="store_true",
                    help="also the families x_<op>: utils/extreme_shapes.py's cases with their default schedules")
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
        for name, fargs, op, res, *feature in ops:
            feature = feature[0] if feature else family
            funcs.append(func(name + "_default", fargs, op, res, None))
            index.append(dict(family=family, feature=feature, kernel=name + "_default", schedule="default"))
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
                    index.append(dict(family=family, feature=feature, kernel=f"{name}_s{n}", schedule=sched))
                    n += 1
        write_family(args, family, funcs)
    if args.extremes:
        for family, cases in extreme_families().items():
            if only and family not in only:
                continue
            for case in cases:
                index.append(dict(family=family, feature="extremes: " + case.op, kernel=case.name,
                                  schedule="default"))
            write_family(args, family, [case.mlir for case in cases])
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

#!/usr/bin/env python3
"""The cases check_cases.py runs: each op family with default and non-default
schedules, tails, long rows. Prints JSON for make_cases.py."""
import json
import sys

cases = []


def add(name, mlir, ref):
    cases.append({"name": name, "mlir": mlir, "ref": ref})


def sched(s):
    return " {schedule = #hkg.schedule<%s>}" % s if s else ""


def t(shape, dt):
    return "tensor<%sx%s>" % ("x".join(map(str, shape)), dt) if shape else "tensor<%s>" % dt


# elementwise: bias + gelu(tanh) with a broadcast bias; swiglu; odd sizes
for dt, shape, s in [("bf16", [1024, 4096], ""), ("bf16", [1024, 4096], "vector_width = 2, threads = 64, unroll = 1"),
                     ("f32", [77, 1001], ""), ("f16", [5, 1000], "vector_width = 8, threads = 128, unroll = 8")]:
    n = shape[-1]
    T, B = t(shape, dt), t([n], dt)
    add("ew_bias_gelu_%s_%dx%d_%d" % (dt, shape[0], n, len(cases)), f"""
func.func @f(%x: {T}, %b: {B}) -> {T} {{
  %y = hkg.elementwise %x, %b{sched(s)} : {T}, {B} -> {T} {{
  ^bb0(%a: {dt}, %c: {dt}):
    %af = {"arith.extf %a : " + dt + " to f32" if dt != "f32" else "arith.addf %a, %a : f32"}
    %cf = {"arith.extf %c : " + dt + " to f32" if dt != "f32" else "arith.addf %c, %c : f32"}
    %v = arith.addf %af, %cf : f32
    %k = arith.constant 0.7978845608 : f32
    %k2 = arith.constant 0.044715 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %v3 = arith.mulf %v, %v : f32
    %v3b = arith.mulf %v3, %v : f32
    %in0 = arith.mulf %v3b, %k2 : f32
    %in1 = arith.addf %v, %in0 : f32
    %in = arith.mulf %in1, %k : f32
    %th = math.tanh %in : f32
    %p1 = arith.addf %th, %one : f32
    %g0 = arith.mulf %v, %p1 : f32
    %g = arith.mulf %g0, %half : f32
    %r = {"arith.truncf %g : f32 to " + dt if dt != "f32" else "arith.addf %g, %g : f32"}
    hkg.yield %r : {dt}
  }}
  return %y : {T}
}}""", {"op": "elementwise", "args": [[dt, shape], [dt, [n]]], "out": [dt, shape],
        "expr": ("(lambda v: 0.5*v*(1+torch.tanh(0.7978845608*(v+0.044715*v**3))))(x[0]+x[1])" if dt != "f32" else
                 "2*(lambda v: 0.5*v*(1+torch.tanh(0.7978845608*(v+0.044715*v**3))))(2*x[0]+2*x[1])")})

def add_layernorm(name, dt, shape, s):
    T, W = t(shape, dt), t([shape[1]], dt)
    add(name, f"""
func.func @f(%x: {T}, %w: {W}, %b: {W}) -> {T} {{
  %y = hkg.layernorm %x weight(%w : {W}) bias(%b : {W}) eps(1.0e-05){sched(s)} : {T} -> {T}
  return %y : {T}
}}""", {"op": "layernorm", "args": [[dt, shape], [dt, [shape[1]]], [dt, [shape[1]]]], "out": [dt, shape], "eps": 1e-5})


def add_softmax(name, dt, shape, s):
    T = t(shape, dt)
    add(name, f"""
func.func @f(%x: {T}) -> {T} {{
  %y = hkg.softmax %x axis(1){sched(s)} : {T} -> {T}
  return %y : {T}
}}""", {"op": "softmax", "args": [[dt, shape]], "out": [dt, shape], "scale": 3.0})


def add_rmsnorm(name, dt, shape, s):
    T, W = t(shape, dt), t([shape[1]], dt)
    add(name, f"""
func.func @f(%x: {T}, %w: {W}) -> {T} {{
  %y = hkg.rmsnorm %x weight(%w : {W}) eps(1.0e-06){sched(s)} : {T} -> {T}
  return %y : {T}
}}""", {"op": "rmsnorm", "args": [[dt, shape], [dt, [shape[1]]]], "out": [dt, shape], "eps": 1e-6})


row_scheds = ["", "row_cache = none, online = 0, unroll = 2", "row_cache = lds, unroll = 1, threads = 512",
              "row_cache = registers, online = 0, threads = 64, rows_per_block = 2, unroll = 2, vector_width = 4",
              "row_cache = none, threads = 1024, rows_per_block = 4, unroll = 8, vector_width = 2"]
for dt, shape in [("bf16", [64, 4096]), ("f32", [33, 1000]), ("f16", [17, 4099]), ("f32", [4, 128256])]:
    T = t(shape, dt)
    for s in row_scheds:
        if shape[1] == 128256 and "registers" in s:
            continue
        if shape[1] == 128256 and "lds" in s:
            continue
        nm = "%s_%dx%d_%d" % (dt, shape[0], shape[1], len(cases))
        add_softmax("softmax_" + nm, dt, shape, s)
        s2 = s.replace("online = 0, ", "").replace(", online = 0", "")
        W = t([shape[1]], dt)
        add_layernorm("layernorm_" + nm, dt, shape, s2)
        # And with moments = merged (one row reduction of count, mean and
        # squared deviations), except where the register cache is refused.
        if not (shape[1] in (4096, 4099) and "threads = 64" in s2):
            s3 = (s2 + ", " if s2 else "") + "moments = merged"
            add_layernorm("layernorm_merged_" + nm, dt, shape, s3)
        add_rmsnorm("rmsnorm_" + nm, dt, shape, s2)

# The norms with row_steps > 1 (each workgroup several row groups in turn,
# the next group's row loaded during the current one): row counts the steps
# divide, a tail (1003 = 250 vectors of 4 + 3), two rows per workgroup.
for dt, shape, s in [("bf16", [64, 4096], "row_steps = 2"), ("bf16", [64, 4096], "row_steps = 8"),
                     ("f32", [16, 1003], "vector_width = 4, threads = 128, row_cache = registers, row_steps = 4"),
                     ("bf16", [32, 8192], "threads = 512, rows_per_block = 2, row_cache = registers, row_steps = 4")]:
    T, W = t(shape, dt), t([shape[1]], dt)
    nm = "%s_%dx%d_steps_%d" % (dt, shape[0], shape[1], len(cases))
    add_layernorm("layernorm_" + nm, dt, shape, s)
    add_rmsnorm("rmsnorm_" + nm, dt, shape, s)

# bulk_store = 1 (sm_90): each row group's outputs staged in LDS and copied
# with one cp.async.bulk. The register and LDS row caches, a re-read row, a
# last group of 2 of 4 rows (10 rows), row_steps (the buffer reused), and
# layernorm at PERF.md's shape.
for dt, shape, s in [("bf16", [64, 4096], "bulk_store = 1"),
                     ("f32", [33, 1000], "row_cache = none, unroll = 2, bulk_store = 1"),
                     ("bf16", [64, 4096], "row_cache = lds, unroll = 1, threads = 512, bulk_store = 1"),
                     ("bf16", [10, 1024], "threads = 256, rows_per_block = 4, vector_width = 4, bulk_store = 1"),
                     ("f16", [7, 520], "threads = 64, rows_per_block = 2, vector_width = 8, unroll = 1, bulk_store = 1")]:
    nm = "%s_%dx%d_bulk_%d" % (dt, shape[0], shape[1], len(cases))
    add_softmax("softmax_" + nm, dt, shape, s)
    add_layernorm("layernorm_" + nm, dt, shape, s)
    add_rmsnorm("rmsnorm_" + nm, dt, shape, s)
for s in ["row_steps = 2, bulk_store = 1", "threads = 512, rows_per_block = 2, row_cache = registers, row_steps = 4, bulk_store = 1"]:
    nm = "bf16_64x4096_steps_bulk_%d" % len(cases)
    add_layernorm("layernorm_" + nm, "bf16", [64, 4096], s)
    add_rmsnorm("rmsnorm_" + nm, "bf16", [64, 4096], s)
add_layernorm("layernorm_bf16_8192x8192_bulk_%d" % len(cases), "bf16", [8192, 8192], "bulk_store = 1")

for kind in ["sum", "max", "min"]:
    for shape, dims, s in [([37, 64, 32], 2, ""), ([128256], 1, ""), ([300, 77], 1, "threads = 64, rows_per_block = 16, vector_width = 1, unroll = 2")]:
        rshape = shape[: len(shape) - dims]
        add("reduce_%s_%s_%d" % (kind, "x".join(map(str, shape)), len(cases)), f"""
func.func @f(%x: {t(shape, 'f32')}) -> {t(rshape, 'f32')} {{
  %y = hkg.reduce {kind} %x axes = [{', '.join(str(a) for a in range(len(shape) - dims, len(shape)))}]{sched(s)} : {t(shape, 'f32')} -> {t(rshape, 'f32')}
  return %y : {t(rshape, 'f32')}
}}""", {"op": "reduce", "kind": kind, "dims": dims, "args": [["f32", shape]], "out": ["f32", rshape or [1]]})

# rope: half-width tables ([P, D/2]), then full-width ones ([P, D], the
# Llama shape and gptj).
for layout, dt, shape, tdt, s, width in [("neox", "bf16", [2, 100, 8, 128], "f32", "", 1), ("neox", "f16", [1, 33, 4, 64], "f16", "vector_width = 2, threads = 64, tokens_per_block = 4", 1),
                                         ("gptj", "f32", [2, 7, 4, 64], "f32", "tokens_per_block = 4, threads = 64, vector_width = 4", 1), ("gptj", "bf16", [3, 50, 2, 32], "bf16", "", 1),
                                         ("neox", "bf16", [1, 64, 32, 128], "bf16", "", 2), ("gptj", "f32", [2, 7, 4, 64], "f32", "tokens_per_block = 4, threads = 64, vector_width = 4", 2)]:
    S, D = shape[1], shape[3]
    P = S + 5
    TD = D // 2 * width
    X, Tb = t(shape, dt), t([P, TD], tdt)
    add("rope_%s_%s_%d" % (layout, dt, len(cases)), f"""
func.func @f(%x: {X}, %c: {Tb}, %s: {Tb}) -> {X} {{
  %y = hkg.rope %x, %c, %s {layout} offset(5){sched(s)} : {X}, {Tb}, {Tb} -> {X}
  return %y : {X}
}}""", {"op": "rope", "layout": layout, "offset": 5, "args": [[dt, shape], [tdt, [P, TD]], [tdt, [P, TD]]], "out": [dt, shape]})

# top-p: (dtype, rows, vocab, p, temperature, schedule, seeded, same rows,
# transform of the random logits x). The transforms reach the sampler's
# other paths: logits rounded to a few values (thousands of exact ties in the
# cut's bin: the key-histogram fallback and the tie rule), a constant row
# (zero range), masked (-inf) tokens, a wide logit range.
TOPP = [("f32", 64, 128256, 0.9, 0.7, "", True, False, None), ("f32", 4096, 1000, 0.9, 1.0, "", True, True, None),
        ("bf16", 4096, 1001, 0.5, 1.0, "threads = 64, vector_width = 1, bins = 256", False, True, None),
        ("f32", 2048, 300, 0.95, 2.0, "threads = 128, bins = 512", True, True, None),
        ("f32", 64, 128256, 0.9, 1.0, "", False, False, "x * 2"),
        ("f32", 16, 128256, 0.9, 1.0, "", False, False, "torch.round(x)"),
        ("f32", 8, 50000, 0.5, 1.0, "", False, False, "x * 0"),
        ("f32", 16, 32000, 0.9, 1.0, "threads = 256", False, False, "x.masked_fill(torch.arange(x.shape[-1], device=x.device) % 3 == 0, float('-inf'))"),
        ("f32", 16, 32000, 0.99, 0.5, "", False, False, "torch.cat([x[:, :1] * 20, x[:, 1:]], 1)"),
        ("f32", 16, 5000, 1.0, 1.0, "threads = 512", False, False, None),
        ("bf16", 2048, 32000, 0.9, 1.0, "", True, True, "torch.round(x * 4) / 4")]
# Every case also with light_tokens = 1 (the opt-in light-token rule).
TOPP += [c[:5] + ((c[5] + ", " if c[5] else "") + "light_tokens = 1",) + c[6:] for c in TOPP if c[3] < 1.0]
# And with ctas_per_row = 2 (a cluster of two workgroups per row, sm_90)
# where the row splits into whole vectors (the default vector width: 4 for
# f32, 8 for bf16), with and without the light-token rule.
_base = len(TOPP)
TOPP += [c[:5] + ((c[5] + ", " if c[5] else "") + "ctas_per_row = 2",) + c[6:] for c in TOPP[:_base]
         if "vector_width" not in c[5] and c[2] % (2 * (4 if c[0] == "f32" else 8)) == 0]
# And with ctas_per_row = 4 (a cluster of four), at 512 threads.
TOPP += [c[:5] + ((c[5] + ", " if c[5] else "") + "ctas_per_row = 4, threads = 512",) + c[6:] for c in TOPP[:_base]
         if "vector_width" not in c[5] and "threads" not in c[5] and c[2] % (4 * (4 if c[0] == "f32" else 8)) == 0]
# And with bin_cache = 1 (the gather pass reloads only the vectors holding
# a token in or above the cut's bin), wherever the verifier allows it on
# sm_90 (SamplingSchedule.cpp's LDS bound: the bins of the workgroup's
# share of the row, the histogram and the list), light-token rule aside.


def _knob(s, name, default):
    for part in s.split(","):
        k, _, v = part.partition("=")
        if k.strip() == name:
            return int(v)
    return default


def _bin_cache_fits(dt, V, s):
    vw = _knob(s, "vector_width", 4 if dt == "f32" else 8)
    while vw > 1 and V % vw:
        vw //= 2
    split = _knob(s, "ctas_per_row", 1)
    threads = _knob(s, "threads", max(32, min(1024, 1 << ((V // vw).bit_length() - 1))))
    bins = _knob(s, "bins", 2048)
    per_thread = -(-(V // split // vw) // threads)
    lds = threads * (per_thread * vw + max(4, vw)) * 2 + 4 * 4096 + 12 * bins + 16 * 1024 + 2048
    return V % (split * vw) == 0 and lds <= 227 * 1024


TOPP += [c[:5] + ((c[5] + ", " if c[5] else "") + "bin_cache = 1",) + c[6:] for c in list(TOPP)
         if c[3] < 1.0 and "light_tokens" not in c[5] and _bin_cache_fits(c[0], c[2], c[5])]
for dt, B, V, p, temp, s, seed, same, transform in TOPP:
    L = t([B, V], dt)
    if seed:
        mlir = f"""
func.func @f(%x: {L}) -> tensor<{B}xi32> {{
  %t = hkg.top_p_sample %x p({p}) temperature({temp}) seed(1234){sched(s)} : {L} -> tensor<{B}xi32>
  return %t : tensor<{B}xi32>
}}"""
        args = [[dt, [B, V]]]
    else:
        mlir = f"""
func.func @f(%x: {L}, %u: tensor<{B}xf32>) -> tensor<{B}xi32> {{
  %t = hkg.top_p_sample %x uniform(%u : tensor<{B}xf32>) p({p}) temperature({temp}){sched(s)} : {L} -> tensor<{B}xi32>
  return %t : tensor<{B}xi32>
}}"""
        args = [[dt, [B, V]], ["f32", [B]]]
    ref = {"op": "top_p", "p": p, "temperature": temp, "args": args, "out": ["i32", [B]], "scale": 2.0,
           "same_rows": same, "histogram": same}
    if transform:
        ref["transform"] = transform
    if not seed:
        ref["uniform_arg"] = 1
    add("top_p_%s_%dx%d_%d" % (dt, B, V, len(cases)), mlir, ref)

# matmul: default schedules (mma.sync, decode), transposes, batch, edges,
# fused epilogues, and non-default schedules (stages, swizzle/pad, FMA).
GELU = "(lambda v: 0.5*v*(1+torch.tanh(0.7978845608*(v+0.044715*v**3))))"
GELU_MLIR = """
    %k = arith.constant 0.7978845608 : f32
    %k2 = arith.constant 0.044715 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %v3 = arith.mulf %v, %v : f32
    %v3b = arith.mulf %v3, %v : f32
    %in0 = arith.mulf %v3b, %k2 : f32
    %in1 = arith.addf %v, %in0 : f32
    %in = arith.mulf %in1, %k : f32
    %th = math.tanh %in : f32
    %p1 = arith.addf %th, %one : f32
    %g0 = arith.mulf %v, %p1 : f32
    %g = arith.mulf %g0, %half : f32"""


def mm_shapes(batch, m, n, k, ta, tb):
    a = batch + ([k, m] if ta else [m, k])
    b = batch + ([n, k] if tb else [k, n])
    return a, b, batch + [m, n]


def add_matmul(dt, batch, m, n, k, ta=False, tb=False, s="", epi=None, odt=None):
    odt = odt or dt
    a, b, o = mm_shapes(batch, m, n, k, ta, tb)
    A, B, O = t(a, dt), t(b, dt), t(o, odt)
    attrs = [x for x in (("transpose_a" if ta else ""), ("transpose_b" if tb else "")) if x]
    if s:
        attrs.append("schedule = #hkg.schedule<%s>" % s)
    attr = " {%s}" % ", ".join(attrs) if attrs else ""
    args = [[dt, a], [dt, b]]
    ref = {"op": "matmul", "transpose_a": ta, "transpose_b": tb, "args": args, "out": [odt, o]}
    trunc = ("arith.truncf %r0 : f32 to " + odt) if odt != "f32" else "arith.addf %r0, %zero : f32"
    if epi is None:
        body, epi_in = "", ""
    elif epi == "bias_gelu":
        E = t([n], dt)
        args.append([dt, [n]])
        epi_in = " epilogue(%e : " + E + ")"
        body = (" {\n  ^bb0(%acc: f32, %eb: " + dt + "):\n    %ebf = arith.extf %eb : " + dt +
                " to f32\n    %v = arith.addf %acc, %ebf : f32" + GELU_MLIR +
                "\n    %r0 = arith.addf %g, %g : f32\n    %zero = arith.constant 0.0 : f32\n    %r = " + trunc +
                "\n    hkg.yield %r : " + odt + "\n  }")
        ref["expr"] = "2*" + GELU + "(acc + x[2])"
    elif epi == "silu_residual":
        E = t(o, odt)
        args.append([odt, o])
        epi_in = " epilogue(%e : " + E + ")"
        ext = ("arith.extf %eb : " + odt + " to f32") if odt != "f32" else "arith.addf %eb, %eb : f32"
        body = (" {\n  ^bb0(%acc: f32, %eb: " + odt + "):\n    %n = arith.negf %acc : f32\n    %ex = math.exp %n : f32"
                "\n    %one = arith.constant 1.0 : f32\n    %d = arith.addf %one, %ex : f32\n    %sl = arith.divf %acc, %d : f32"
                "\n    %ebf = " + ext + "\n    %r0 = arith.addf %sl, %ebf : f32\n    %zero = arith.constant 0.0 : f32\n    %r = " +
                trunc + "\n    hkg.yield %r : " + odt + "\n  }")
        ref["expr"] = "acc*torch.sigmoid(acc) + x[2]" + ("" if odt != "f32" else "*2")
    ins = "%a: " + A + ", %b: " + B + ((", %e: " + (t([n], dt) if epi == "bias_gelu" else t(o, odt))) if epi else "")
    mlir = (f"func.func @f({ins}) -> {O} {{\n  %y = hkg.matmul %a, %b{epi_in}{attr} : {A}, {B} -> {O}{body}\n"
            f"  return %y : {O}\n}}")
    add("mm_%s_%s%dx%dx%d%s%s_%d" % (dt, "x".join(map(str, batch)) + ("b" if batch else ""), m, n, k,
                                    "_ta" if ta else "", "_tb" if tb else "", len(cases)), mlir, ref)


add_matmul("bf16", [], 512, 512, 512)
add_matmul("bf16", [], 4096, 4096, 4096)
add_matmul("bf16", [], 256, 384, 512, tb=True, epi="bias_gelu")
add_matmul("bf16", [], 1024, 1536, 512, tb=True, epi="bias_gelu")
add_matmul("bf16", [], 16, 4096, 4096, tb=True)
add_matmul("f16", [], 1, 4096, 4096, tb=True)
add_matmul("bf16", [], 13, 200, 328, tb=True)
add_matmul("f16", [3], 100, 72, 200, ta=True, epi="silu_residual", odt="f32")
add_matmul("bf16", [2], 200, 136, 96, ta=True, tb=True)
add_matmul("f32", [], 128, 96, 256, epi="silu_residual")
add_matmul("f32", [], 77, 45, 33)
def mma_sync(s):
    """The mma.sync schedule `s` (knobs over sm_80's default: sm_90's is wgmma,
    whose knobs a partial mma.sync schedule must not inherit)."""
    knobs = {"mma": "mma_16x8x16", "tile_k": "32", "waves_m": "2", "waves_n": "2"}
    for kv in s.split(","):
        k, v = (x.strip() for x in kv.split("="))
        knobs[k] = v
    return ", ".join(f"{k} = {v}" for k, v in knobs.items())


for s in ["stages = 1", "stages = 2", "stages = 2, lds_swizzle = 0, lds_pad = 8", "stages = 2, lds_swizzle = 0, lds_pad = 16",
          "tile_m = 64, tile_n = 64, waves_m = 2, waves_n = 2", "tile_m = 128, tile_n = 64, tile_k = 64, stages = 2",
          "tile_m = 64, tile_n = 128, waves_m = 1, waves_n = 4, tile_k = 16, stages = 4",
          "mma = none, tile_m = 64, tile_n = 64, tile_k = 16, lds_swizzle = 0, lds_pad = 8",
          "vector_width = 4", "vector_width = 2, stages = 2", "vector_width = 1, stages = 2",
          "unroll = 2", "unroll = 4, stages = 2"]:
    add_matmul("bf16", [], 256, 256, 320, s=mma_sync(s))
    add_matmul("bf16", [], 192, 160, 96, tb=True, s=mma_sync(s))

# f32 on tf32 tensor cores (3xTF32, mma_16x8x8_tf32x3; the default of f32
# GEMMs with M and N of at least 128 on sm_80+, tf32_split = fast): the
# defaults on an edge shape, transposes with a batch and a fused epilogue;
# 4096^3 with B as [K, N] and [N, K], then schedules over edges, transposes,
# a batch, a fused epilogue, the pipeline depth, K step and LDS layouts (the
# interleaved K rows of B as [K, N] and A as [K, M] included), both splits
# (tf32_split), split-K and persistent workgroups.
def tf32x3(s=""):
    """The 3xTF32 schedule `s` (knobs over 128 x 128 x 16 tiles, 2 x 4 warps, 3 stages: the stage's
    zeroed accumulators beside the running ones spill at 2 x 2 warps)."""
    knobs = {"mma": "mma_16x8x8_tf32x3", "tile_m": "128", "tile_n": "128", "tile_k": "16", "waves_m": "2",
             "waves_n": "4", "stages": "3", "lds_pad": "0", "lds_swizzle": "1"}
    for kv in filter(None, s.split(",")):
        k, v = (x.strip() for x in kv.split("="))
        knobs[k] = v
    return ", ".join(f"{k} = {v}" for k, v in knobs.items())


add_matmul("f32", [], 300, 520, 328)
add_matmul("f32", [2], 200, 136, 96, ta=True, tb=True)
add_matmul("f32", [], 256, 384, 512, epi="silu_residual")
add_matmul("f32", [], 4096, 4096, 4096, s=tf32x3())
add_matmul("f32", [], 4096, 4096, 4096, tb=True, s=tf32x3())
add_matmul("f32", [], 4096, 4096, 4096, s=tf32x3("tf32_split = fast"))
for s in ["", "tf32_split = fast", "tile_k = 32", "stages = 2", "stages = 1", "lds_swizzle = 0, lds_pad = 4",
          "lds_swizzle = 0, lds_pad = 8", "tile_m = 64, tile_n = 64", "unroll = 2", "vector_width = 1"]:
    add_matmul("f32", [], 512, 768, 640, s=tf32x3(s))
    add_matmul("f32", [], 300, 520, 328, tb=True, s=tf32x3(s))
add_matmul("f32", [], 300, 520, 328, ta=True, s=tf32x3())
add_matmul("f32", [2], 200, 136, 96, ta=True, tb=True, s=tf32x3("tile_m = 64, tile_n = 64"))
add_matmul("f32", [], 256, 384, 512, epi="silu_residual", s=tf32x3())
add_matmul("f32", [], 256, 256, 4096, s=tf32x3("split_k = 4, split_k_reduce = workspace"))
add_matmul("f32", [], 1024, 1024, 512, tb=True, s=tf32x3("persistent = 1"))


# 3xTF32 on warpgroup MMA (sm_90a, wgmma_64x128x8_tf32x3; tf32_split = trunc:
# the big terms are the staged tiles, MatmulWgmmaTf32x3.cpp): 4096^3 with B
# as [K, N] (transposed into K-major tiles) and [N, K], 3 and 4 stages, with
# and without a step in flight (each step's sum promoted into f32: unpromoted
# it erred 12x cuBLAS FP32, and the verifier refuses it); edges (K not a
# multiple of 32, M and N not of 128), a batch, a fused epilogue. The sm_90
# default of large f32 GEMMs is the 4-stage one (the --f32 cases without a
# schedule).
def wgmma_tf32x3(s=""):
    """The wgmma 3xTF32 schedule `s` (knobs over 128 x 128 x 32 tiles, 2 warpgroups, 3 stages,
    promoted, a step in flight)."""
    knobs = {"mma": "wgmma_64x128x8_tf32x3", "tile_m": "128", "tile_n": "128", "tile_k": "32", "waves_m": "2",
             "waves_n": "1", "stages": "3", "lds_pad": "0", "lds_swizzle": "1", "vector_width": "4",
             "tf32_split": "trunc", "wgmma_pending": "1", "wgmma_promote": "1", "unroll": "2"}
    for kv in filter(None, s.split(",")):
        k, v = (x.strip() for x in kv.split("="))
        knobs[k] = v
    return ", ".join(f"{k} = {v}" for k, v in knobs.items())


for s in ["", "wgmma_pending = 0, unroll = 1", "stages = 4"]:
    add_matmul("f32", [], 4096, 4096, 4096, s=wgmma_tf32x3(s))
    add_matmul("f32", [], 4096, 4096, 4096, tb=True, s=wgmma_tf32x3(s))
for s in ["", "wgmma_pending = 0, unroll = 1", "stages = 4"]:
    add_matmul("f32", [], 300, 520, 328, s=wgmma_tf32x3(s))
    add_matmul("f32", [], 300, 520, 328, tb=True, s=wgmma_tf32x3(s))
add_matmul("f32", [2], 200, 136, 96, tb=True, s=wgmma_tf32x3())
add_matmul("f32", [], 256, 384, 512, epi="silu_residual", s=wgmma_tf32x3())

# More than 48 KiB of LDS: dynamic shared memory on NVIDIA (72, 96 and 128
# KiB; the runtime raises the kernel's limit at launch), on odd shapes, a
# transpose and a fused epilogue.
BIG_LDS = [mma_sync(s) for s in ["tile_m = 128, tile_n = 256, waves_m = 2, waves_n = 4, stages = 3",
                                  "tile_m = 256, tile_n = 128, waves_m = 4, waves_n = 2, stages = 4",
                                  "tile_m = 128, tile_n = 128, tile_k = 64, stages = 4"]]
for s in BIG_LDS:
    add_matmul("bf16", [], 512, 768, 640, s=s)
    add_matmul("bf16", [], 300, 520, 328, tb=True, s=s)
add_matmul("bf16", [], 1024, 1536, 512, tb=True, epi="bias_gelu", s=BIG_LDS[0])
add_matmul("f16", [], 4096, 4096, 4096, s=BIG_LDS[1])

# Hopper warpgroup MMA (wgmma, sm_90a; K-major operands): one and two
# warpgroups along M, 128 and 256 columns, four warpgroups, on tile-multiple
# and odd shapes, f16, and a fused epilogue.
WGMMA = ["mma = wgmma_64x128x16, tile_m = 128, tile_n = 128, tile_k = 64, waves_m = 2, waves_n = 1, stages = 3",
         "mma = wgmma_64x256x16, tile_m = 128, tile_n = 256, tile_k = 64, waves_m = 2, waves_n = 1, stages = 3",
         "mma = wgmma_64x128x16, tile_m = 64, tile_n = 128, tile_k = 64, waves_m = 1, waves_n = 1, stages = 4",
         "mma = wgmma_64x128x16, tile_m = 128, tile_n = 256, tile_k = 64, waves_m = 2, waves_n = 2, stages = 3, unroll = 2"]
for s in WGMMA:
    add_matmul("bf16", [], 512, 768, 640, tb=True, s=s)
    add_matmul("bf16", [], 300, 520, 328, tb=True, s=s)
add_matmul("f16", [], 256, 384, 512, tb=True, s=WGMMA[0])
add_matmul("bf16", [], 1024, 1536, 512, tb=True, epi="bias_gelu", s=WGMMA[1])
add_matmul("bf16", [2], 200, 136, 96, tb=True, s=WGMMA[0])
# B as [K, N] (MN-major: 64-column panels, the transposing descriptor).
for s in WGMMA:
    add_matmul("bf16", [], 512, 768, 640, s=s)
    add_matmul("bf16", [], 300, 520, 328, s=s)
add_matmul("f16", [], 256, 384, 512, s=WGMMA[0])
add_matmul("bf16", [], 1024, 1536, 512, epi="bias_gelu", s=WGMMA[1])
add_matmul("bf16", [2], 200, 136, 96, s=WGMMA[0])

# The tile order (group_m): row after row, and groups of 4 and 16 rows of
# tiles over 11 x 7 tiles (the last group is partial; 1600 = 12.5 x 128 rows,
# 900 = 7 x 128 + 4 columns), wgmma and mma.sync.
for g in (1, 4, 16):
    add_matmul("bf16", [], 1600, 900, 256, tb=True, s=WGMMA[0] + f", group_m = {g}")
    add_matmul("bf16", [], 1600, 900, 256, s=mma_sync(f"group_m = {g}"))

# wgmma_pending = 1 (each step's warpgroup MMAs in flight during the next
# step; the refill targets the stage of two steps back): 3 and 4 stages, B
# K-major and MN-major, ragged M / N / K (328 = 5 x 64 + 8: the last K step
# zero-filled), a K of one step (the exit wait alone), unroll 2 (the stage
# indices fold), 256 columns, two warpgroups along N, batches and a bias +
# GELU epilogue.
PENDING = [WGMMA[0] + ", wgmma_pending = 1",
           WGMMA[0].replace("stages = 3", "stages = 4") + ", wgmma_pending = 1",
           WGMMA[1] + ", wgmma_pending = 1",
           WGMMA[3] + ", wgmma_pending = 1"]
for s in PENDING:
    add_matmul("bf16", [], 512, 768, 640, tb=True, s=s)
    add_matmul("bf16", [], 300, 520, 328, s=s)
add_matmul("bf16", [], 256, 256, 64, tb=True, s=PENDING[0])
add_matmul("f16", [2], 200, 136, 96, tb=True, s=PENDING[1])
add_matmul("bf16", [], 1024, 1536, 512, tb=True, epi="bias_gelu", s=PENDING[1])
add_matmul("bf16", [], 2048, 2048, 2048, s=PENDING[1] + ", group_m = 1")

# FMAs with one column of B per lane (tile_n / waves_n / 8 = 1), which failed
# to compile on the H200 tuning run of 2026-12-02.
add_matmul("bf16", [], 256, 256, 320, s="mma = none, tile_m = 128, tile_n = 64, tile_k = 16, waves_m = 1, waves_n = 8, "
           "stages = 1, lds_swizzle = 0, lds_pad = 8, vector_width = 4")

# split_k (sm_90 clusters, partial sums through distributed shared memory):
# the decode shape with 2, 4 and 8 workgroups per tile and a bias + GELU
# epilogue (applied to the sums), a ragged last K step (296 = 9 x 32 + 8,
# 10 steps over 2), B as [K, N], mma.sync 128 x 128 tiles and FMAs.
for sk in (2, 4, 8):
    add_matmul("bf16", [], 16, 4096, 4096, tb=True, s=f"split_k = {sk}")
add_matmul("bf16", [], 16, 1024, 4096, tb=True, epi="bias_gelu", s="split_k = 4")
add_matmul("bf16", [], 16, 512, 296, tb=True, s="split_k = 2, tile_k = 32")
add_matmul("bf16", [], 48, 512, 1024, s=mma_sync("split_k = 4, tile_m = 64, tile_n = 64"))
add_matmul("bf16", [], 256, 256, 512, s=mma_sync("split_k = 2, stages = 3"))
add_matmul("f32", [], 64, 128, 512, s="split_k = 2")

# attention: the mma.sync kernel (default on sm_90) and the FMA kernel;
# causal with Sq = Skv and Sq < Skv (queries at the end; the op refuses
# Sq > Skv with causal); grouped-query heads; every tile shape family,
# one and two stages, 16-row groups per wave 1 and 2; a scale attribute;
# the PERF.md shape.
#
# mask = (spec, dtype): the additive mask operand, [B, Hq, Sq, Skv] in every
# layout; spec has one character a dim, its letter (b, h, q, k) for the full
# size or 1 to broadcast ("11qk" one mask for all batches and heads, "b11k"
# key padding). check_cases.py draws it as windows of visible keys with
# -inf holes and fully hidden rows (attention_mask); it is kernel argument 3.
def add_attention(dt, b, hq, hkv, sq, skv, d, dv=None, causal=True, s="", scale=None, bshd=False, mask=None):
    dv = dv or d
    def shape(h, length, dim):
        return [b, length, h, dim] if bshd else [b, h, length, dim]
    qs, ks, vs, os_ = shape(hq, sq, d), shape(hkv, skv, d), shape(hkv, skv, dv), shape(hq, sq, dv)
    Q, K, V, O = t(qs, dt), t(ks, dt), t(vs, dt), t(os_, dt)
    attrs = (" causal" if causal else "") + (" scale(%s)" % scale if scale is not None else "") + (" layout(bshd)" if bshd else "")
    name = "attention_%s_%dx%dx%dx%dx%dx%d%s%s" % (dt, b, hq, hkv, sq, skv, d, "_causal" if causal else "", "_bshd" if bshd else "")
    ref = {"op": "attention", "causal": causal, "scale": 1.0, "attn_scale": scale if scale is not None else 1.0 / d ** 0.5,
           "layout": "bshd" if bshd else "bhsd",
           "args": [[dt, qs], [dt, ks], [dt, vs]], "out": [dt, os_]}
    params, operand = f"%q: {Q}, %k: {K}, %v: {V}", ""
    if mask is not None:
        spec, mdt = mask
        full = {"b": b, "h": hq, "q": sq, "k": skv}
        assert len(spec) == 4 and all(c == "1" or c == "bhqk"[i] for i, c in enumerate(spec)), spec
        ms = [1 if c == "1" else full[c] for c in spec]
        M = t(ms, mdt)
        params += f", %m: {M}"
        operand = f" mask(%m : {M})"
        ref["args"].append([mdt, ms])
        ref["mask_arg"] = 3
        name += "_mask%s_%s" % (spec, mdt)
    add("%s_%d" % (name, len(cases)), f"""
func.func @f({params}) -> {O} {{
  %y = hkg.attention %q, %k, %v{operand}{attrs}{sched(s)} : {Q}, {K}, {V} -> {O}
  return %y : {O}
}}""", ref)


def att(s):
    base = dict(x.split(" = ") for x in "mma = mma_16x8x16, stages = 2, tile_kv = 64, tile_q = 64, waves = 4".split(", "))
    for kv in s.split(", "):
        k, v = kv.split(" = ")
        base[k] = v
    return ", ".join("%s = %s" % kv for kv in sorted(base.items()))


add_attention("bf16", 1, 8, 8, 256, 256, 64)
add_attention("bf16", 2, 8, 2, 512, 512, 128)
add_attention("bf16", 1, 4, 4, 128, 384, 64, causal=False)
add_attention("bf16", 1, 4, 4, 128, 384, 64)
add_attention("f16", 1, 4, 2, 256, 256, 128)
add_attention("bf16", 1, 4, 4, 256, 256, 64, dv=128, scale=0.25)
add_attention("f32", 1, 2, 2, 64, 64, 32)
add_attention("f32", 1, 2, 1, 96, 160, 32, dv=48)
for s in ["tile_q = 128", "tile_q = 128, waves = 8", "tile_kv = 32", "tile_kv = 128, stages = 1", "stages = 1",
          "tile_q = 16, waves = 1", "tile_q = 32, waves = 2, tile_kv = 16", "tile_q = 64, waves = 2",
          "mma = none", "mma = none, tile_q = 32, waves = 2, stages = 1"]:
    add_attention("bf16", 1, 4, 2, 512, 512, 128, s=att(s))
add_attention("bf16", 1, 4, 4, 128, 384, 64, s=att("mma = none, tile_kv = 32"))
add_attention("bf16", 4, 32, 32, 4096, 4096, 128)
# layout(bshd): the mma kernel (GQA, causal, Sq < Skv), the FMA kernel with
# partial tiles, and a decode step reading its operands from global memory.
add_attention("bf16", 2, 8, 2, 256, 512, 128, bshd=True)
add_attention("bf16", 1, 4, 2, 100, 200, 64, s=att("mma = none, tile_kv = 32"), bshd=True)
add_attention("bf16", 1, 8, 2, 1, 515, 64, causal=False, s="mma = none, stages = 0, tile_kv = 64, tile_q = 16, waves = 1", bshd=True)
# Flash-decoding (issue 28): kv_split workgroups per query tile and their
# combine, with and without the GQA group's heads packed in one tile,
# causal (queries at the end of the keys) and not, GQA 1 / 4 / 8, 1 / 4 /
# 16 queries, odd key lengths (in 64-key blocks: 4099 keys are 65 blocks,
# 1000 are 16, 2053 are 33; kv_split = 64 over 65 blocks and 32 over 33
# walk 2 blocks a split and leave the last splits none), head dims 64 /
# 128 / 256; the default schedule (kv_split and pack_gqa where it picks
# them), explicit splits on the mma.sync kernel and on the FMA kernel (the
# AMD path), and the FMA kernel reading from global memory.
for i, (causal, g, sq) in enumerate((c, g, q) for c in (False, True) for g in (1, 4, 8) for q in (1, 4, 16)):
    d, skv = (64, 128, 256)[i % 3], (4099, 1000, 2053)[(i // 3) % 3]
    splits = {4099: (64, 8), 1000: (16, 2), 2053: (32, 4)}[skv]
    pack = ", pack_gqa = 1" if g > 1 and i % 2 == 0 else ""
    add_attention("bf16", 2, 2 * g, 2, sq, skv, d, causal=causal)
    add_attention("bf16", 2, 2 * g, 2, sq, skv, d, causal=causal, s="tile_kv = 64, kv_split = %d%s" % (splits[0], pack))
    add_attention("bf16", 1, 2 * g, 2, sq, skv, d, causal=causal,
                  s="mma = none, tile_kv = 64, kv_split = %d%s" % (splits[i % 2], pack))
add_attention("f16", 1, 8, 2, 3, 4099, 128, causal=True, s="mma = none, stages = 0, tile_kv = 64, kv_split = 16, pack_gqa = 1")
add_attention("f32", 1, 8, 1, 1, 777, 64, causal=False, s="kv_split = 8, pack_gqa = 1")
add_attention("bf16", 1, 8, 2, 2, 3000, 128, causal=True, s="kv_split = 4, pack_gqa = 1", bshd=True)
# issue 28's decode step (B32, 32 / 8 heads, 1 query, 8192 keys, D128)
add_attention("bf16", 32, 32, 8, 1, 8192, 128, causal=False)


# sm_90a warpgroup MMA (AttentionWgmma.cpp; the sm_90 default for 16-bit
# prefill with D and Dv multiples of 64 up to 256, so the default-schedule
# prefill cases above run it too): causal and not, D 64 / 128 / 192 / 256,
# D != Dv, GQA, bshd, f16, ragged lengths (partial query tiles and key
# blocks, Sq < Skv, Sq > Skv without causal), one warpgroup (tile_q 64),
# key blocks of 16 to 128, one stage, kv_split (its combine), pack_gqa.
def wg(s=""):
    base = {"mma": "wgmma_64x128x16", "stages": "2", "tile_kv": "128", "tile_q": "128", "waves": "8"}
    for kv in filter(None, s.split(", ")):
        k, v = kv.split(" = ")
        base[k] = v
    return ", ".join("%s = %s" % kv for kv in sorted(base.items()))


def wgmma_attention_cases():
    add_attention("bf16", 1, 4, 4, 512, 512, 64)
    add_attention("bf16", 1, 4, 4, 512, 512, 64, causal=False)
    add_attention("bf16", 2, 8, 2, 512, 512, 128, s=wg())
    add_attention("bf16", 1, 4, 4, 384, 384, 128, causal=False, s=wg())
    add_attention("bf16", 1, 2, 2, 256, 256, 256)
    add_attention("bf16", 1, 2, 2, 256, 512, 256, causal=False)
    add_attention("f16", 1, 4, 2, 300, 300, 128)
    add_attention("bf16", 1, 4, 2, 200, 333, 128)
    add_attention("bf16", 1, 2, 1, 77, 1000, 64, causal=False)
    add_attention("bf16", 1, 2, 2, 500, 130, 128, causal=False, s=wg())
    add_attention("bf16", 2, 8, 2, 256, 512, 128, bshd=True, s=wg())
    add_attention("bf16", 1, 4, 2, 190, 190, 64, bshd=True, causal=False, s=wg("tile_kv = 64"))
    add_attention("bf16", 1, 4, 4, 256, 256, 64, dv=128, scale=0.25, s=wg())
    add_attention("bf16", 1, 2, 2, 256, 256, 192, dv=128, causal=False, s=wg("tile_kv = 64"))
    add_attention("bf16", 1, 4, 2, 512, 512, 128, s=wg("tile_q = 64, waves = 4"))
    add_attention("bf16", 1, 4, 2, 512, 512, 128, s=wg("tile_kv = 64"))
    add_attention("bf16", 1, 4, 2, 512, 512, 128, s=wg("tile_kv = 32, stages = 1"))
    add_attention("bf16", 1, 4, 2, 333, 333, 64, causal=False, s=wg("tile_kv = 16"))
    add_attention("bf16", 1, 4, 2, 256, 1024, 128, s=wg("kv_split = 4"))
    add_attention("bf16", 1, 8, 2, 32, 700, 128, s=wg("pack_gqa = 1, kv_split = 2"))
    add_attention("bf16", 1, 8, 2, 64, 1000, 256, causal=False, s=wg("tile_kv = 64, pack_gqa = 1"))
    add_attention("bf16", 1, 4, 4, 2048, 2048, 64)
    add_attention("bf16", 1, 4, 4, 2048, 2048, 256)
    add_attention("bf16", 1, 4, 4, 2048, 2048, 128, causal=False)
    # wgmma_overlap = 1: each block's S in two groups, the softmax of a half
    # under the MMAs in flight (the masked diagonal and partial blocks too).
    add_attention("bf16", 2, 8, 2, 512, 512, 128, s=wg("wgmma_overlap = 1"))
    add_attention("bf16", 1, 4, 4, 384, 384, 128, causal=False, s=wg("wgmma_overlap = 1"))
    add_attention("bf16", 1, 4, 4, 512, 512, 64, s=wg("wgmma_overlap = 1"))
    add_attention("bf16", 1, 2, 2, 256, 512, 256, causal=False, s=wg("tile_kv = 64, wgmma_overlap = 1"))
    add_attention("f16", 1, 4, 2, 200, 333, 128, s=wg("wgmma_overlap = 1"))
    add_attention("bf16", 1, 4, 2, 190, 190, 64, bshd=True, s=wg("tile_q = 64, waves = 4, tile_kv = 32, wgmma_overlap = 1"))
    add_attention("bf16", 1, 4, 2, 256, 1024, 128, s=wg("kv_split = 4, wgmma_overlap = 1"))
    add_attention("bf16", 1, 4, 4, 2048, 2048, 128, s=wg("tile_kv = 64, wgmma_overlap = 1"))
    # wgmma_pipeline = 1: block kb's exponentials under block kb - 1's P V (the
    # peeled first block, the drained last one; a single partial block).
    add_attention("bf16", 2, 8, 2, 512, 512, 128, s=wg("wgmma_pipeline = 1"))
    add_attention("bf16", 1, 4, 4, 384, 384, 128, causal=False, s=wg("wgmma_pipeline = 1"))
    add_attention("bf16", 1, 4, 4, 512, 512, 64, s=wg("tile_q = 64, waves = 4, tile_kv = 64, wgmma_pipeline = 1"))
    add_attention("bf16", 1, 2, 2, 256, 512, 256, causal=False, s=wg("tile_kv = 64, wgmma_pipeline = 1"))
    add_attention("bf16", 1, 2, 2, 256, 256, 256, s=wg("tile_kv = 64, wgmma_pipeline = 1"))
    add_attention("f16", 1, 4, 2, 200, 333, 128, s=wg("wgmma_pipeline = 1"))
    add_attention("bf16", 1, 4, 2, 190, 190, 64, bshd=True, s=wg("tile_q = 64, waves = 4, tile_kv = 32, wgmma_pipeline = 1"))
    add_attention("bf16", 1, 2, 2, 256, 100, 128, causal=False, s=wg("wgmma_pipeline = 1"))
    add_attention("bf16", 1, 4, 4, 2048, 2048, 128, s=wg("wgmma_pipeline = 1"))
    add_attention("bf16", 1, 4, 4, 2048, 2048, 128, causal=False, s=wg("wgmma_pipeline = 1"))


wgmma_attention_cases()


# The additive mask operand (mask(%m : ...)): sm_90's default schedules (the
# pipelined wgmma kernel for 16-bit prefill with D 64 / 128, flash-decoding
# with kv_split / pack_gqa for 1..16 queries with GQA), ragged and odd key
# lengths (odd Skv: the mask rows are not pair aligned, scalar loads), causal
# and mask together, bshd (the mask stays [B, Hq, Sq, Skv]), every broadcast
# mix (key padding [B, 1, 1, Skv], [1, 1, Sq, Skv], the full [B, Hq, Sq, Skv],
# per-head [1, Hq, 1, 1], Skv dim 1), f32 / bf16 / f16 masks under bf16, f16
# and f32 queries; then pinned schedules: the FMA kernel (mma = none, also
# from global memory), mma.sync (mma_16x8x16, also with kv_split), and the
# wgmma kernel's variants (not pipelined, overlap, kv_split + pack_gqa).
def masked_attention_cases():
    # default schedules, prefill
    add_attention("bf16", 1, 4, 4, 128, 128, 128, causal=False, mask=("11qk", "bf16"))
    add_attention("bf16", 2, 8, 2, 1024, 1024, 128, mask=("b1qk", "f32"))
    add_attention("bf16", 1, 4, 4, 256, 256, 64, mask=("bhqk", "bf16"))
    add_attention("bf16", 2, 4, 2, 256, 256, 64, causal=False, mask=("b11k", "bf16"))
    add_attention("bf16", 1, 4, 2, 200, 333, 128, causal=False, mask=("b11k", "f32"))
    add_attention("bf16", 1, 4, 2, 200, 333, 128, mask=("1h11", "f32"))
    add_attention("bf16", 2, 2, 1, 77, 77, 64, mask=("11qk", "bf16"))
    add_attention("bf16", 1, 4, 2, 50, 77, 128, causal=False, mask=("bhqk", "f32"), scale=0.125)
    add_attention("bf16", 1, 2, 2, 130, 77, 64, causal=False, mask=("bhq1", "bf16"))
    add_attention("bf16", 2, 8, 2, 256, 512, 128, bshd=True, mask=("1hqk", "f32"))
    add_attention("bf16", 1, 4, 2, 190, 190, 64, causal=False, bshd=True, mask=("b11k", "bf16"))
    add_attention("f16", 1, 4, 2, 256, 256, 128, mask=("11qk", "f32"))
    add_attention("f16", 1, 4, 2, 300, 300, 128, causal=False, mask=("b1qk", "f16"))
    add_attention("f32", 1, 2, 2, 64, 64, 32, mask=("11qk", "bf16"))
    # default schedules, decode (1..16 queries, GQA: kv_split / pack_gqa)
    add_attention("bf16", 2, 8, 2, 1, 4099, 128, causal=False, mask=("b11k", "bf16"))
    add_attention("bf16", 2, 8, 2, 1, 1000, 64, causal=False, mask=("bhqk", "f32"))
    add_attention("bf16", 2, 16, 2, 4, 1000, 128, mask=("bhqk", "f32"))
    add_attention("bf16", 1, 8, 2, 16, 2053, 64, mask=("b1q1", "bf16"))
    add_attention("bf16", 2, 8, 2, 7, 77, 128, causal=False, mask=("1hqk", "f16"))
    add_attention("bf16", 1, 8, 2, 2, 3000, 128, bshd=True, mask=("b11k", "f32"))
    add_attention("bf16", 32, 32, 8, 1, 8192, 128, causal=False, mask=("b11k", "bf16"))
    # pinned: the FMA kernel
    add_attention("bf16", 1, 4, 2, 100, 200, 64, s=att("mma = none, tile_kv = 32"), mask=("b1qk", "f32"))
    add_attention("bf16", 1, 4, 2, 77, 77, 64, causal=False, s=att("mma = none"), mask=("bhqk", "bf16"))
    add_attention("bf16", 1, 8, 2, 1, 515, 64, causal=False, bshd=True,
                  s="mma = none, stages = 0, tile_kv = 64, tile_q = 16, waves = 1", mask=("b11k", "bf16"))
    add_attention("bf16", 1, 8, 2, 4, 4099, 128, s="mma = none, tile_kv = 64, kv_split = 8, pack_gqa = 1",
                  mask=("bhqk", "f32"))
    # pinned: mma.sync
    add_attention("bf16", 1, 4, 2, 512, 512, 128, s=att("stages = 2"), mask=("1hqk", "bf16"))
    add_attention("bf16", 1, 4, 2, 333, 333, 64, causal=False, s=att("tile_kv = 32"), mask=("b11k", "f32"))
    add_attention("f16", 1, 4, 2, 77, 77, 128, s=att("tile_q = 16, waves = 1"), mask=("11qk", "f16"))
    add_attention("bf16", 2, 8, 2, 4, 1000, 128, s="tile_kv = 64, kv_split = 16, pack_gqa = 1", mask=("b1qk", "bf16"))
    # pinned: the wgmma kernel's variants
    add_attention("bf16", 2, 8, 2, 512, 512, 128, s=wg("wgmma_pipeline = 0"), mask=("b1qk", "bf16"))
    add_attention("bf16", 1, 4, 4, 384, 384, 128, causal=False, s=wg("wgmma_overlap = 1"), mask=("11qk", "f32"))
    add_attention("bf16", 1, 4, 2, 200, 333, 128, s=wg("wgmma_pipeline = 1"), mask=("bhqk", "bf16"))
    add_attention("bf16", 1, 8, 2, 32, 700, 128, s=wg("pack_gqa = 1, kv_split = 2"), mask=("b11k", "f32"))


masked_attention_cases()

# 8-bit matmuls (issue 30): fp8 (OCP e4m3 / e5m2) and i8 operands, f32
# accumulation for fp8 and exact i32 for i8; per-tensor / per-row /
# per-column scales as epilogue operands (tensor<f32>, [M, 1], [N]), as
# torch._scaled_mm takes them. On sm_90 B as [N, K] takes fp8 / s8 wgmma,
# B as [K, N] and matrix-vector shapes the FMA fallback.
def add_matmul_8bit(dt, m, n, k, tb=True, s="", scales=False, odt="f32"):
    a, b, o = mm_shapes([], m, n, k, False, tb)
    A, B, O = t(a, dt), t(b, dt), t(o, odt)
    attrs = ["transpose_b"] if tb else []
    if s:
        attrs.append("schedule = #hkg.schedule<%s>" % s)
    attr = " {%s}" % ", ".join(attrs) if attrs else ""
    args = [[dt, a], [dt, b]]
    ref = {"op": "matmul", "transpose_a": False, "transpose_b": tb, "args": args, "out": [odt, o]}
    if dt == "i8":
        ref["scale"] = 4.0  # randn * 4 truncated to int8: about -12..12
    acc_t = "i32" if dt == "i8" else "f32"
    ins = "%a: " + A + ", %b: " + B
    epi_in, body = "", ""
    if scales:
        S, SA, SB = "tensor<f32>", t([m, 1], "f32"), t([1, n], "f32")
        args += [["f32", []], ["f32", [m, 1]], ["f32", [1, n]]]
        ins += ", %s: " + S + ", %sa: " + SA + ", %sb: " + SB
        epi_in = " epilogue(%s, %sa, %sb : " + ", ".join([S, SA, SB]) + ")"
        conv = "    %f = arith.sitofp %acc : i32 to f32\n" if dt == "i8" else ""
        accv = "%f" if dt == "i8" else "%acc"
        out = ("    %r = arith.truncf %v : f32 to " + odt + "\n") if odt != "f32" else "    %r = arith.addf %v, %v : f32\n"
        body = (" {\n  ^bb0(%acc: " + acc_t + ", %t: f32, %x: f32, %w: f32):\n" + conv +
                "    %s0 = arith.mulf %x, %w : f32\n    %s1 = arith.mulf %s0, %t : f32\n"
                "    %v = arith.mulf " + accv + ", %s1 : f32\n" + out + "    hkg.yield %r : " + odt + "\n  }")
        ref["expr"] = "acc * x[2] * x[3] * x[4]" + (" * 2" if odt == "f32" else "")
    mlir = (f"func.func @f({ins}) -> {O} {{\n  %y = hkg.matmul %a, %b{epi_in}{attr} : {A}, {B} -> {O}{body}\n"
            f"  return %y : {O}\n}}")
    add("mm8_%s_%dx%dx%d%s%s_%s_%d" % (dt, m, n, k, "_tb" if tb else "", "_scaled" if scales else "", odt, len(cases)),
        mlir, ref)


def quant_cases():
    for dt in ("f8E4M3FN", "f8E5M2"):
        add_matmul_8bit(dt, 512, 512, 512)
        add_matmul_8bit(dt, 4096, 4096, 4096, scales=True, odt="bf16")
        add_matmul_8bit(dt, 300, 520, 384, odt="bf16")  # edges (M, N)
        add_matmul_8bit(dt, 256, 384, 512, tb=False)  # B as [K, N]: FMA on sm_90
        add_matmul_8bit(dt, 16, 4096, 4096, scales=True, odt="bf16")  # decode
    add_matmul_8bit("f8E4M3FN", 1024, 1024, 1024, s="mma = none, tile_m = 64, tile_n = 64, tile_k = 16, "
                    "waves_m = 2, waves_n = 2, lds_pad = 16, lds_swizzle = 0, stages = 2, wgmma_pending = 0, "
                    "epilogue_lds = 0")
    add_matmul_8bit("f8E4M3FN", 1024, 1024, 1024, s="mma = wgmma_64x128x32, tile_m = 128, tile_n = 128, "
                    "tile_k = 128, waves_m = 2, waves_n = 1, stages = 3, lds_pad = 0, lds_swizzle = 1")
    # Each K step's fp8 sum promoted to f32 (wgmma_promote): the accuracy
    # of Hopper's fp8 accumulation against its promoted form.
    for dt in ("f8E4M3FN", "f8E5M2"):
        add_matmul_8bit(dt, 4096, 4096, 4096, odt="f32", s="mma = wgmma_64x128x32, tile_m = 128, tile_n = 128, "
                        "tile_k = 128, waves_m = 2, waves_n = 1, stages = 4, lds_pad = 0, lds_swizzle = 1, "
                        "wgmma_pending = 0, wgmma_promote = 1")
        add_matmul_8bit(dt, 4096, 4096, 4096, odt="f32")
    # Promoted with the previous step's sum added while the next step's
    # MMAs run (wgmma_pending = 1): unrolled by 2 and by 4 (each trip's
    # last step waits for all), K steps not a multiple of the unroll (a
    # remainder step), edges in M and N, per-channel scales.
    pp = ("mma = wgmma_64x128x32, tile_m = 128, tile_n = 128, tile_k = 128, waves_m = 2, waves_n = 1, "
          "stages = 4, lds_pad = 0, lds_swizzle = 1, wgmma_pending = 1, wgmma_promote = 1, unroll = ")
    add_matmul_8bit("f8E4M3FN", 4096, 4096, 4096, odt="f32", s=pp + "2")
    add_matmul_8bit("f8E5M2", 4096, 4096, 4096, odt="f32", s=pp + "4")
    add_matmul_8bit("f8E4M3FN", 1000, 1160, 4224, odt="f32", s=pp + "4")
    add_matmul_8bit("f8E4M3FN", 512, 768, 1408, scales=True, odt="bf16", s=pp + "2")
    # Fewer K steps than the unroll (3 of 4: no loop), one unrolled trip and
    # a remainder loop (6 of 4), an odd count under 2 (7).
    add_matmul_8bit("f8E4M3FN", 256, 384, 384, odt="f32", s=pp + "4")
    add_matmul_8bit("f8E4M3FN", 256, 384, 768, odt="f32", s=pp + "4")
    add_matmul_8bit("f8E5M2", 256, 384, 896, odt="f32", s=pp + "2")
    # The longest sums: K = 8192 with f32 results, fast and promoted.
    add_matmul_8bit("f8E4M3FN", 8192, 8192, 8192, odt="f32")
    add_matmul_8bit("f8E4M3FN", 8192, 8192, 8192, odt="f32", s="mma = wgmma_64x128x32, tile_m = 128, "
                    "tile_n = 128, tile_k = 128, waves_m = 2, waves_n = 1, stages = 4, lds_pad = 0, "
                    "lds_swizzle = 1, wgmma_pending = 0, wgmma_promote = 1")
    add_matmul_8bit("f8E4M3FN", 8192, 8192, 8192, odt="f32", s=pp + "4")
    add_matmul_8bit("i8", 512, 512, 512, odt="i32")
    add_matmul_8bit("i8", 4096, 4096, 4096, odt="i32")
    add_matmul_8bit("i8", 4096, 4096, 4096, scales=True, odt="bf16")
    add_matmul_8bit("i8", 300, 520, 384, odt="i32")
    add_matmul_8bit("i8", 256, 384, 512, tb=False, odt="i32")
    add_matmul_8bit("i8", 16, 4096, 4096, odt="i32")
    add_matmul_8bit("i8", 512, 512, 512, odt="f32")


# W4A16 (issue 30): activations [M, K] (bf16 / f16) times int4 weights
# packed two per byte along K ([N, K / 2] i8, low nibble = even k), with
# group-wise scales [N, K / G] (the activations' type) and zero points
# [N, K / G] (i8 holding 0..15); check_cases.py draws the bytes uniformly
# and dequantizes in float64 (docs/ABI.md, "Packed int4 weights").
def add_w4a16(dt, m, n, k, g, odt=None, s=""):
    odt = odt or dt
    X, W, S, Z, O = t([m, k], dt), t([n, k // 2], "i8"), t([n, k // g], dt), t([n, k // g], "i8"), t([m, n], odt)
    attr = " {schedule = #hkg.schedule<%s>}" % s if s else ""
    mlir = (f"func.func @f(%x: {X}, %w: {W}, %s: {S}, %z: {Z}) -> {O} {{\n"
            f"  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size({g}){attr} : {X}, {W}, {S}, {Z} -> {O}\n"
            f"  return %y : {O}\n}}")
    ref = {"op": "matmul_w4a16", "group_size": g,
           "args": [[dt, [m, k]], ["i8", [n, k // 2]], [dt, [n, k // g]], ["i8", [n, k // g]]], "out": [odt, [m, n]]}
    add("w4a16_%s_%dx%dx%d_g%d_%s_%d" % (dt, m, n, k, g, odt, len(cases)), mlir, ref)


def w4a16_cases():
    # The bench shapes (N x K weights) at batch 1, 16 and 128: default
    # schedules (the mma.sync matrix-core kernel on sm_90, split K).
    for n, k in ((28672, 8192), (8192, 28672), (4096, 4096), (14336, 4096)):
        for m in (1, 16, 128):
            add_w4a16("bf16", m, n, k, 128)
    # Group sizes, f16, f32 results, ragged M / N / K (a partial span: K not
    # a multiple of 128; rows past N in the last wave; a partial activation
    # tile), under the default (matrix-core) schedules.
    add_w4a16("f16", 4, 4096, 4096, 32)
    add_w4a16("bf16", 8, 4096, 4096, 64, odt="f32")
    add_w4a16("f16", 3, 1000, 4160, 64)
    add_w4a16("bf16", 37, 333, 96, 32)
    add_w4a16("bf16", 256, 2048, 2048, 128)
    add_w4a16("f16", 100, 1000, 4160, 32, odt="f32")
    add_w4a16("bf16", 17, 24, 224, 32)
    # Matrix-core schedules: each group size with a split of K whose last
    # slice is partly past K, several m16 tiles a wave, 128-row activation
    # tiles, one span a step and 4 in flight, one wave a workgroup.
    mc = "mma = mma_16x8x16, stages = 0, "
    add_w4a16("bf16", 16, 1030, 8192, 128, s=mc + "tile_m = 16, rows_per_wave = 16, unroll = 4, threads = 256, split_k = 8")
    add_w4a16("f16", 5, 777, 4160, 64, s=mc + "tile_m = 8, rows_per_wave = 64, unroll = 1, threads = 64, split_k = 4")
    add_w4a16("bf16", 33, 300, 2080, 32, s=mc + "tile_m = 32, rows_per_wave = 32, unroll = 2, threads = 128, split_k = 16")
    add_w4a16("bf16", 128, 512, 1024, 64, odt="f32", s=mc + "tile_m = 128, rows_per_wave = 16, unroll = 1, threads = 32, split_k = 1")
    add_w4a16("f16", 64, 4096, 4096, 128, s=mc + "tile_m = 64, rows_per_wave = 32, unroll = 2, threads = 256, split_k = 2")
    # Scales after the product (mma.sync, tile_m <= 8, G a multiple of
    # 128): a last slice of one span under unroll 2 (the chunks past the
    # slice zeroed), unroll 4 with f32 results, 9 spans under the default
    # split.
    add_w4a16("bf16", 5, 1030, 1664, 128, s=mc + "tile_m = 8, rows_per_wave = 32, unroll = 2, threads = 128, split_k = 4")
    add_w4a16("f16", 3, 777, 2048, 128, odt="f32", s=mc + "tile_m = 8, rows_per_wave = 16, unroll = 4, threads = 64, split_k = 2")
    add_w4a16("f16", 2, 500, 1152, 128)
    # The LDS-pipelined kernel (stages > 0; the default from batch 64 on
    # sm_90): every group size, ragged M / N and K (K % 64 = 32: a half
    # step; a split whose last slice runs past K), f16 and f32 results,
    # 2 / 3 / 4 stages, waves_m 1 / 2 / 4, 64- and 128-row tiles.
    add_w4a16("bf16", 64, 4096, 4096, 128)
    add_w4a16("f16", 96, 1000, 4128, 32)
    add_w4a16("bf16", 200, 777, 4160, 64, odt="f32")
    tl = "mma = mma_16x8x16, "
    add_w4a16("f16", 130, 1030, 2048, 64, s=tl + "stages = 3, tile_m = 64, waves_m = 1, threads = 128, rows_per_wave = 32, split_k = 4")
    add_w4a16("bf16", 256, 512, 8192, 128, s=tl + "stages = 4, tile_m = 128, waves_m = 2, threads = 256, rows_per_wave = 16, split_k = 8")
    add_w4a16("bf16", 64, 300, 1056, 32, s=tl + "stages = 2, tile_m = 64, waves_m = 4, threads = 128, rows_per_wave = 8, split_k = 2")
    add_w4a16("f16", 255, 2050, 1024, 128, odt="f32", s=tl + "stages = 3, tile_m = 128, waves_m = 2, threads = 256, rows_per_wave = 32, split_k = 1")
    # The streaming kernel (mma = none): every rows_per_wave, unroll and a
    # small tile.
    sk = "mma = none, split_k = 1, "
    add_w4a16("bf16", 5, 1024, 2048, 32, s=sk + "tile_m = 2, rows_per_wave = 4, unroll = 4, threads = 128")
    add_w4a16("bf16", 16, 1030, 8192, 128, s=sk + "tile_m = 4, rows_per_wave = 8, unroll = 1, threads = 64")
    add_w4a16("f16", 2, 777, 1024, 128, s=sk + "tile_m = 1, rows_per_wave = 1, unroll = 8, threads = 512")
    add_w4a16("bf16", 1, 28672, 8192, 128, s=sk + "tile_m = 1, rows_per_wave = 2, unroll = 2, threads = 256")


# --f32: only the f32 matmul cases (FMA and 3xTF32, defaults and schedules).
if "--f32" in sys.argv:
    cases[:] = [c for c in cases if c["ref"]["op"] == "matmul" and c["ref"]["args"][0][0] == "f32"]
# --quant: only the 8-bit matmul cases.
if "--quant" in sys.argv:
    cases.clear()
    quant_cases()
# --w4a16: only the W4A16 cases.
if "--w4a16" in sys.argv:
    cases.clear()
    w4a16_cases()
if "--attention" in sys.argv:  # only the attention cases
    cases[:] = [c for c in cases if c["ref"]["op"] == "attention"]
if "--attention-wgmma" in sys.argv:  # only the wgmma attention cases
    cases.clear()
    wgmma_attention_cases()
if "--attention-mask" in sys.argv:  # only the masked attention cases
    cases.clear()
    masked_attention_cases()
# --top-p: only the top-p cases.
if "--wgmma" in sys.argv:  # only the wgmma cases
    cases[:] = [c for c in cases if "wgmma" in c["mlir"]]
if "--wgmma-pending" in sys.argv:  # only the wgmma_pending cases
    cases[:] = [c for c in cases if "wgmma_pending" in c["mlir"]]
if "--top-p" in sys.argv:
    cases[:] = [c for c in cases if c["ref"]["op"] == "top_p"]
if "--layernorm" in sys.argv:  # only the layernorm cases
    cases[:] = [c for c in cases if c["ref"]["op"] == "layernorm"]
if "--bulk-store" in sys.argv:  # only the bulk_store cases
    cases[:] = [c for c in cases if "bulk_store" in c["mlir"]]
if "--norms" in sys.argv:  # only the layernorm and rmsnorm cases
    cases[:] = [c for c in cases if c["ref"]["op"] in ("layernorm", "rmsnorm")]

# --matmul-issue: only the matmul issue's correctness list (every dtype on
# 1x4096x4096, 17x4096x4096, 4097x4095x4096, 4096^3, batched 8x1024^3; each
# transpose; the fused epilogues).
if "--matmul-issue" in sys.argv:
    cases.clear()
    for dt in ("bf16", "f16", "f32"):
        for batch, m, n, k in (([], 1, 4096, 4096), ([], 17, 4096, 4096), ([], 4097, 4095, 4096),
                               ([], 4096, 4096, 4096), ([8], 1024, 1024, 1024)):
            add_matmul(dt, batch, m, n, k)
    for ta, tb in ((True, False), (False, True), (True, True)):
        for dt in ("bf16", "f16"):
            add_matmul(dt, [], 1024, 1024, 1024, ta=ta, tb=tb)
    add_matmul("bf16", [], 2048, 3072, 4096, tb=True, epi="bias_gelu")
    add_matmul("bf16", [], 1024, 1024, 1024, epi="silu_residual")
    add_matmul("f16", [4], 512, 512, 512, tb=True, epi="silu_residual", odt="f32")
    # f32 (FMA path) transposes and a fused f32 epilogue at K = 4096
    for ta, tb in ((True, False), (False, True), (True, True)):
        add_matmul("f32", [], 1024, 1024, 4096, ta=ta, tb=tb)
    add_matmul("f32", [], 1024, 1024, 4096, epi="silu_residual")

# --columns: reductions and softmax over axes with kept dims after them (down
# the columns, ReductionsColumns.cpp), keeping the axes or not, with the
# default schedule and explicit ones (one thread row; partial column tiles;
# unroll past the axis length).
def add_column_reduce(kind, dt, shape, axes, keep, s=""):
    rshape = [1 if i in axes else d for i, d in enumerate(shape)] if keep else \
        [d for i, d in enumerate(shape) if i not in axes]
    add("colreduce_%s_%s_%s_%s%s_%d" % (kind, dt, "x".join(map(str, shape)), "".join(map(str, axes)),
                                        "_keep" if keep else "", len(cases)), f"""
func.func @f(%x: {t(shape, dt)}) -> {t(rshape, dt)} {{
  %y = hkg.reduce {kind} %x axes = [{', '.join(map(str, axes))}]{sched(s)} : {t(shape, dt)} -> {t(rshape, dt)}
  return %y : {t(rshape, dt)}
}}""", {"op": "reduce", "kind": kind, "axes": axes, "keepdim": keep, "args": [[dt, shape]], "out": [dt, rshape or [1]]})


def add_column_softmax(dt, shape, axis, s=""):
    T = t(shape, dt)
    add("colsoftmax_%s_%s_axis%d_%d" % (dt, "x".join(map(str, shape)), axis, len(cases)), f"""
func.func @f(%x: {T}) -> {T} {{
  %y = hkg.softmax %x axis({axis}){sched(s)} : {T} -> {T}
  return %y : {T}
}}""", {"op": "softmax", "axis": axis, "args": [[dt, shape]], "out": [dt, shape], "scale": 3.0})


if "--columns" in sys.argv:
    cases.clear()
    for dt in ("f32", "bf16", "f16"):
        for kind in ("sum", "max", "min"):
            add_column_reduce(kind, dt, [8, 512, 64], [1], False)
            add_column_reduce(kind, dt, [4097, 96], [0], True)
            add_column_reduce(kind, dt, [3, 7, 13, 40], [1, 2], False)
        add_column_reduce("sum", dt, [2, 1000, 1000], [1], True)
        add_column_reduce("sum", dt, [1, 3, 4104], [1], False)
        add_column_reduce("max", dt, [16, 77, 256], [1], False,
                          "threads = 64, rows_per_block = 1, vector_width = 2, unroll = 8")
        add_column_reduce("sum", dt, [5, 33, 2000], [1], False,
                          "threads = 128, rows_per_block = 4, vector_width = 4, unroll = 2")
        add_column_softmax(dt, [64, 128], 0)
        add_column_softmax(dt, [4, 1001, 24], 1)
        add_column_softmax(dt, [2, 7, 3, 96], 1)
        add_column_softmax(dt, [3, 4096, 8], 1, "threads = 256, rows_per_block = 32, vector_width = %d, unroll = 4"
                           % (4 if dt == "f32" else 8))
    add_column_reduce("prod", "f32", [6, 9, 32], [1], False)

# --norm-axes: layernorm and rmsnorm over 2 or 3 trailing axes (rows of
# their product) and over one inner axis (down the columns,
# ReductionsNormColumns.cpp), with and without weight and bias, every dtype,
# odd sizes, default and explicit schedules; --columns has the inner-axis ones
# too.
def add_norm_axes(op, dt, shape, axes, affine, s=""):
    T = t(shape, dt)
    W = t(shape[axes[0]:axes[-1] + 1], dt)
    params, operands, args = [f"%x: {T}"], "", [[dt, shape]]
    for k, name in (("w", "weight"), ("b", "bias")):
        if k in affine:
            params.append(f"%{k}: {W}")
            operands += f" {name}(%{k} : {W})"
            args.append([dt, shape[axes[0]:axes[-1] + 1]])
    eps = 1e-5 if op == "layernorm" else 1e-6
    add("%s_axes_%s_%s_%s_%s_%d" % (op, dt, "x".join(map(str, shape)), "".join(map(str, axes)), affine or "plain",
                                    len(cases)), f"""
func.func @f({", ".join(params)}) -> {T} {{
  %y = hkg.{op} %x axes = [{", ".join(map(str, axes))}]{operands} eps({eps:.1e}){sched(s)} : {T} -> {T}
  return %y : {T}
}}""", {"op": op, "axes": axes, "affine": affine, "args": args, "out": [dt, shape], "eps": eps})


def norm_axes_cases(inner_only=False):
    for dt in ("f32", "f16", "bf16"):
        for shape, axes in (([4, 96, 1000], [1]), ([3, 7, 33], [1]), ([2, 8, 16, 257], [2]), ([4099, 24], [0]),
                            ([1, 1, 8], [1]), ([2, 4097, 1, 8], [1])):
            add_norm_axes("layernorm", dt, shape, axes, "wb")
            add_norm_axes("layernorm", dt, shape, axes, "")
            add_norm_axes("rmsnorm", dt, shape, axes, "w")
            add_norm_axes("rmsnorm", dt, shape, axes, "")
        add_norm_axes("layernorm", dt, [5, 300, 40], [1], "b",
                      "threads = 64, rows_per_block = 8, vector_width = %d, unroll = 8" % (4 if dt == "f32" else 8))
        add_norm_axes("rmsnorm", dt, [3, 77, 2000], [1], "w", "threads = 128, rows_per_block = 1, vector_width = 2, unroll = 1")
        if inner_only:
            continue
        for shape, axes in (([4, 33, 65], [1, 2]), ([2, 3, 5, 129], [1, 2, 3]), ([1, 16, 8192], [1, 2]),
                            ([37, 2, 2], [1, 2]), ([3, 5, 1], [1, 2]), ([6, 7], [0, 1])):
            add_norm_axes("layernorm", dt, shape, axes, "wb")
            add_norm_axes("layernorm", dt, shape, axes, "w")
            add_norm_axes("rmsnorm", dt, shape, axes, "w")
            add_norm_axes("rmsnorm", dt, shape, axes, "")
        add_norm_axes("layernorm", dt, [4, 33, 65], [1, 2], "b",
                      "threads = 128, rows_per_block = 1, vector_width = 1, unroll = 4, row_cache = registers")


if "--norm-axes" in sys.argv:
    cases.clear()
    norm_axes_cases()
if "--columns" in sys.argv:
    norm_axes_cases(inner_only=True)

# --extremes: only the extreme shapes of issue 24 (utils/extreme_shapes.py),
# with their default schedules, and the FMA kernels (mma = none, the AMD
# path) on the same shapes: M, N or K = 1, odd primes, matrix-vector;
# attention decode (1..16 queries) with odd key lengths, GQA, causal, head
# dims up to 1024; row ops over 1-element and 1M-element rows.
if "--extremes" in sys.argv:
    cases.clear()
    for dt in ("bf16", "f32"):
        for m, n, k in ((1, 1, 1), (4096, 4096, 1), (1, 4096, 4096), (4096, 1, 4096),
                        (7, 13, 127), (127, 127, 127), (4099, 7, 13), (1, 4099, 7), (13, 1, 4099),
                        (16, 4096, 1), (17, 33, 5)):
            add_matmul(dt, [], m, n, k)
    for m, n, k in ((1, 4096, 4096), (1, 1, 1), (13, 127, 7), (1, 4099, 4096)):
        add_matmul("f16", [], m, n, k, tb=True)
    add_matmul("bf16", [13], 7, 7, 7)
    add_matmul("bf16", [], 5, 300, 3, tb=True, epi="bias_gelu")
    add_matmul("bf16", [], 4096, 4096, 1, s="mma = none")
    for sq in (1, 2, 7, 13, 16):
        for d in (32, 128, 1024):
            add_attention("bf16", 1, 8, 2, sq, 4096 if d < 1024 else 515, d, causal=False)
    for sq, skv, causal in ((1, 127, False), (1, 4099, False), (7, 13, True), (13, 13, True), (1, 1, False),
                            (3, 1, False), (100, 4099, True), (4099, 4099, True), (33, 47, False)):
        add_attention("bf16", 1, 32, 8, sq, skv, 128, causal=causal)
    add_attention("f16", 2, 7, 1, 5, 77, 64, causal=True)
    add_attention("f32", 2, 4, 4, 13, 13, 1024, causal=True)
    add_attention("f32", 1, 2, 1, 1, 300, 64, causal=False)
    for sq, skv, d, causal in ((1, 4099, 128, False), (7, 13, 64, True), (13, 300, 512, False),
                               (100, 333, 64, True), (16, 515, 1024, False)):
        add_attention("bf16", 1, 4, 2, sq, skv, d, causal=causal, s="mma = none")
    # head dims that are not multiples of 16 (FMAs; D = 1: stages = 0).
    add_attention("bf16", 1, 2, 2, 77, 77, 40, causal=True)
    add_attention("f16", 2, 4, 2, 3, 100, 24, causal=False)
    add_attention("f32", 1, 2, 2, 3, 5, 1, dv=8, causal=False)
    # stages = 0 (operands from global memory: the default for large head
    # dims on 64 KiB chips), forced here on sm_90.
    for dt, sq, skv, d, causal in (("bf16", 1, 4099, 1024, False), ("f32", 13, 13, 1024, True),
                                   ("bf16", 100, 333, 64, True), ("f16", 64, 128, 128, False)):
        add_attention(dt, 1, 4, 2, sq, skv, d, causal=causal, s="mma = none, stages = 0, tile_kv = 16")
    for dt in ("bf16", "f32"):
        for rows, n in ((1, 1), (1, 7), (1, 1 << 20), (7, 13), (4099, 1), (1, 4099), (2, (1 << 20) + 3)):
            add_softmax("softmax_%s_%dx%d_%d" % (dt, rows, n, len(cases)), dt, [rows, n], "")
            add_layernorm("layernorm_%s_%dx%d_%d" % (dt, rows, n, len(cases)), dt, [rows, n], "")
            add_rmsnorm("rmsnorm_%s_%dx%d_%d" % (dt, rows, n, len(cases)), dt, [rows, n], "")

print(json.dumps(cases, indent=1))

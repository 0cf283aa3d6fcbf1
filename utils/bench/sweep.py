"""Compile a schedule sweep of the examples for the bench (runs here).

    python3 utils/bench/sweep.py --out .carry/bundles [--per-op 16] [--seed 0]
        [--ops softmax,gelu,...] [--shapes perf,second,stat]
        [--per-op-second 4] [--index32 default|all|none]

For each example op and shape: the default schedule (OUT/<case>/default) and
up to --per-op (PERF.md's shapes) or --per-op-second (the second set)
random schedules drawn from the knob grid below (OUT/<case>/s<i>), each
compiled by hkg-compile --chip=sm_90. Schedules the op rejects for the
target (hkg-verify-schedule) are skipped and counted, so the grid may be a
superset of the legal space. The row ops at PERF.md's shape also get the
fixed schedules of PINNED (variants p<i>), and the default schedule with
the compile flags of FLAG_VARIANTS and the source changes of SRC_VARIANTS
(variants default-<name>). With --index32 the same kernels are also
compiled with 32-bit indices (`hkg-compile --index-bitwidth=32`, which
fails where 32 bits are not safe): variants `default-i32` and `p<i>-i32`
(--index32 default) or also every `s<i>-i32` (--index32 all).

Cases (directory names): `<op>` is PERF.md's shape (the example as
written); `<op>.<shape>` is the second set (SECOND below), which PERF.md
does not list; `top_p.stat*` are the kernels of the on-GPU statistical test
(many rows of the same logits). bench.py reports every case side by side
with PyTorch.
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
    "top_p": dict(vector_width=[2, 4], threads=[256, 512, 1024], bins=[1024, 2048], unroll=[2, 4, 8],
                  light_tokens=[0, 1], ctas_per_row=[1, 2]),
}
MM = dict(tile_m=[64, 128, 256], tile_n=[64, 128, 256], tile_k=[32, 64], waves_m=[1, 2, 4], waves_n=[1, 2, 4],
          stages=[2, 3, 4], lds_swizzle=[0, 1])
GRIDS["gemm"] = MM
GRIDS["qkv_proj"] = MM
GRIDS["gemm8192"] = MM
GRIDS["gemm_decode"] = dict(tile_m=[16], tile_n=[16, 32, 64, 128], tile_k=[64, 128, 256], waves_m=[1], waves_n=[1, 2, 4],
                            stages=[2, 3, 4])
GRIDS["topk"] = dict(vector_width=[2, 4], threads=[256, 512, 1024], unroll=[2, 4, 8], sample_every=[1, 2, 4, 8])
GRIDS["gemv"] = dict(split_k=[1, 4, 16, 64, 256], stages=[2, 3, 4], unroll=[1, 2])
GRIDS["bias_gelu"] = GRIDS["gelu"]
GRIDS["swiglu"] = GRIDS["gelu"]


I32 = ["--index-bitwidth=32"]
ROW_OPS = ["softmax", "layernorm", "rmsnorm", "gelu", "bias_gelu", "swiglu"]
# The second shape set (not in PERF.md): small batch and many short rows.
# Tags: RxC for the [rows, cols] ops, BxSxHxD for rope, BxV for top-p,
# BxVxK for top-k.
SECOND = {op: ["1x4096", "4x11008", "32768x1024"] for op in ROW_OPS}
SECOND["rope"] = ["1x1x32x128", "4x128x32x128"]
SECOND["top_p"] = ["1x128256", "256x32000"]
# Matrix-vector products (issue 24; gemv_source below): tags MxNxK with the
# weights W as [K, N] (x @ W), or with a trailing `t` as [N, K] (x @ W^T, a
# linear layer's weight); M or N at most 16.
SECOND["gemv"] = ["1x2048x1048576", "2048x1x1048576", "16x16x1048576", "4096x16x65536",
                  "4x4096x16384", "16x4096x4096t", "1x28672x8192t", "1x8192x28672t"]
# Long rows and few rows (issue 24's extremes, `--shapes long`): at >= 256
# MiB moved the bar is 80% of a copy of the bytes, below it the faster of
# eager and Inductor.
LONG = {op: ["65536x1024", "1024x65536", "64x1048576", "16x4194304", "1x4194304", "4x1048576"]
        for op in ("softmax", "layernorm", "rmsnorm")}
# Beside each default: no split (the tiles of the default), and splits of 16
# and 64 (rejected where they do not divide the K steps).
_GEMV_PINS = [dict(split_k=1), dict(split_k=16, split_k_reduce="workspace"),
              dict(split_k=64, split_k_reduce="workspace")]
# Tags BxVxK for top-k: the example's k = 50 at PERF.md's shape; k = 1 and
# 1024 (issue 22's bar) and MoE gating (2 of 64 experts per token).
SECOND["topk"] = ["64x128256x1", "64x128256x1024", "16384x64x2"]
# The statistical test of top-p: N rows of V (the same logits in every
# row), drawn with the kernel's seed, and with a uniform input.
STAT = {"top_p.stat": (16384, 32000, "seed"), "top_p.stat_u": (8192, 128256, "uniform")}
# Fixed schedules tried at PERF.md's shape of the row ops (variants p<i>,
# before the random ones, and p<i>-i32 with --index32): rows per workgroup,
# and vectors in flight per thread (8192 / (threads / rows_per_block) / 8).
_PIN = [dict(threads=512, rows_per_block=2, vector_width=8, unroll=4, row_cache="registers"),
        dict(threads=256, rows_per_block=2, vector_width=8, unroll=4, row_cache="registers"),
        dict(threads=128, rows_per_block=1, vector_width=8, unroll=4, row_cache="registers"),
        dict(threads=1024, rows_per_block=1, vector_width=8, unroll=1, row_cache="registers"),
        dict(threads=1024, rows_per_block=4, vector_width=8, unroll=4, row_cache="registers")]
PINNED = {op: _PIN for op in ("layernorm", "rmsnorm")}
# rmsnorm, 3% behind Inductor: Inductor's own access pattern (its kernel in
# the 2026-12-01 inductor-src.txt: 512 threads per row, 8 bf16 per thread per
# step, chunks of 4096, the row read again from L2 in the second pass) as
# row_cache = none, and the same threads caching 16 elements each.
PINNED["rmsnorm"] = _PIN + [dict(threads=512, rows_per_block=1, vector_width=8, unroll=1, row_cache="none"),
                            dict(threads=512, rows_per_block=1, vector_width=8, unroll=2, row_cache="none"),
                            dict(threads=512, rows_per_block=1, vector_width=8, unroll=2, row_cache="registers"),
                            dict(threads=256, rows_per_block=1, vector_width=8, unroll=4, row_cache="none"),
                            # the default with row_steps 2 and 4 (p8, p9;
                            # ptxas: 64 registers against the default's 40)
                            dict(threads=256, rows_per_block=1, vector_width=8, unroll=4, row_cache="registers",
                                 row_steps=2),
                            dict(threads=256, rows_per_block=1, vector_width=8, unroll=4, row_cache="registers",
                                 row_steps=4)]
PINNED["softmax"] = [dict(d, online=0) for d in _PIN]
# The three row ops' sm_90 default at PERF.md's shape is this one (softmax
# with online = 0); bulk_store = 1 on it (session 12): rmsnorm p11, softmax
# p5, layernorm p12 (and p13 with occupancy 5).
_ROW_DEFAULT = dict(threads=256, rows_per_block=1, vector_width=8, unroll=4, row_cache="registers")
PINNED["rmsnorm"] = PINNED["rmsnorm"] + [dict(_ROW_DEFAULT, bulk_store=1)]
PINNED["softmax"] = PINNED["softmax"] + [dict(_ROW_DEFAULT, online=0, bulk_store=1)]
# layernorm's default (64 registers on sm_90: 4 workgroups of 256 per SM)
# with the `occupancy` knob: 5 per SM (ptxas: 48 registers, no spills; p5)
# and 4 (the same code with the hint, a control; p6).
_LN_DEFAULT = dict(threads=256, rows_per_block=1, vector_width=8, unroll=4, row_cache="registers")
PINNED["layernorm"] = _PIN + [dict(_LN_DEFAULT, occupancy=5), dict(_LN_DEFAULT, occupancy=4),
                              # moments = merged (p7; ptxas: 62 registers,
                              # no spills) and with occupancy 5 (p8: 48
                              # registers, 8 bytes of spills).
                              dict(_LN_DEFAULT, moments="merged"),
                              dict(_LN_DEFAULT, moments="merged", occupancy=5),
                              # row_steps 2, 4, 8 (p9-p11; ptxas: 57-58
                              # registers, no spills: the row stays packed).
                              dict(_LN_DEFAULT, row_steps=2), dict(_LN_DEFAULT, row_steps=4),
                              dict(_LN_DEFAULT, row_steps=8),
                              # bulk_store = 1 (p12; ptxas: 63 registers,
                              # 16448 bytes of shared memory) and with
                              # occupancy 5 (p13).
                              dict(_LN_DEFAULT, bulk_store=1), dict(_LN_DEFAULT, bulk_store=1, occupancy=5)]
# top-p: the default (on sm_90 a cluster of two workgroups per row) against
# one workgroup per row (p0, the default before 2026-12-01) and with the
# opt-in light-token rule (p1).
PINNED["top_p"] = [dict(vector_width=4, threads=1024, unroll=2, bins=2048, ctas_per_row=1),
                   dict(vector_width=4, threads=1024, unroll=2, bins=2048, light_tokens=1),
                   # ctas_per_row = 4 (p2-p4): at 512 threads (ptxas: 117
                   # registers, one workgroup per SM), the same with
                   # occupancy 2 (64 registers, spills; two per SM), and at
                   # 1024 threads (64 registers, spills).
                   dict(vector_width=4, threads=512, unroll=2, bins=2048, ctas_per_row=4),
                   dict(vector_width=4, threads=512, unroll=2, bins=2048, ctas_per_row=4, occupancy=2),
                   dict(vector_width=4, threads=1024, unroll=2, bins=2048, ctas_per_row=4),
                   # bin_cache = 1 (p5-p7): on the default, with unroll 4,
                   # and with ctas_per_row = 4 at 512 threads.
                   dict(vector_width=4, threads=1024, unroll=2, bins=2048, ctas_per_row=2, bin_cache=1),
                   dict(vector_width=4, threads=1024, unroll=4, bins=2048, ctas_per_row=2, bin_cache=1),
                   dict(vector_width=4, threads=512, unroll=2, bins=2048, ctas_per_row=4, bin_cache=1)]
# top-p at one row (the second set): ctas_per_row = 4 at 1024 and 512
# threads (p0, p1) against the default's 2, and one workgroup (p2).
PINNED["top_p.1x128256"] = [dict(vector_width=4, threads=1024, unroll=2, bins=2048, ctas_per_row=4),
                            dict(vector_width=4, threads=512, unroll=2, bins=2048, ctas_per_row=4),
                            dict(vector_width=4, threads=1024, unroll=2, bins=2048, ctas_per_row=1),
                            # p3: the default before session 11 (ctas_per_row
                            # 2 at 1024 threads); p4: the default (4 at 512)
                            # with bin_cache = 1.
                            dict(vector_width=4, threads=1024, unroll=2, bins=2048, ctas_per_row=2),
                            dict(vector_width=4, threads=512, unroll=2, bins=2048, ctas_per_row=4, bin_cache=1)]
# GEMMs: tiles over 48 KiB of LDS (dynamic shared memory on NVIDIA, legal
# since 2026-12-01): 128 x 256 and 256 x 128 over 3 and 4 stages, 8 warps of
# 64 x 64, and a deeper K step (sm_90 ptxas: 214-242 registers, no spills).
_MM_BIG = [dict(tile_m=128, tile_n=256, tile_k=32, waves_m=2, waves_n=4, stages=3),
           dict(tile_m=256, tile_n=128, tile_k=32, waves_m=4, waves_n=2, stages=3),
           dict(tile_m=128, tile_n=256, tile_k=32, waves_m=2, waves_n=4, stages=4),
           dict(tile_m=256, tile_n=128, tile_k=32, waves_m=4, waves_n=2, stages=4),
           dict(tile_m=128, tile_n=128, tile_k=64, waves_m=2, waves_n=2, stages=4),
           dict(tile_m=128, tile_n=128, tile_k=32, waves_m=2, waves_n=2, stages=4)]
PINNED["gemm"] = [dict(d, mma="mma_16x8x16", vector_width=8, lds_pad=0, lds_swizzle=1) for d in _MM_BIG]
# qkv_proj (W as [N, K]: K-major) also with Hopper's warpgroup MMA (sm_90a).
_WGMMA = [dict(tile_m=128, tile_n=128, waves_m=2, waves_n=1, mma="wgmma_64x128x16", stages=3),
          dict(tile_m=128, tile_n=256, waves_m=2, waves_n=1, mma="wgmma_64x256x16", stages=3),
          dict(tile_m=128, tile_n=256, waves_m=2, waves_n=1, mma="wgmma_64x256x16", stages=4),
          dict(tile_m=256, tile_n=128, waves_m=4, waves_n=1, mma="wgmma_64x128x16", stages=3),
          dict(tile_m=128, tile_n=128, waves_m=2, waves_n=1, mma="wgmma_64x128x16", stages=4, unroll=2)]
PINNED["qkv_proj"] = PINNED["gemm"] + [dict(d, tile_k=64, vector_width=8, lds_pad=0, lds_swizzle=1) for d in _WGMMA]
PINNED.update({f"gemv.{tag}": _GEMV_PINS for tag in SECOND["gemv"]})
# Beside each long-row default: the row whole (p0) and a cluster of 8 (p1),
# each re-reading the row (the forms before the workspace split), and the
# workspace split of 16 and 64 (p2, p3).
_LONG_PINS = [dict(row_split=1, row_cache="none", threads=1024),
              dict(row_split=8, row_split_reduce="cluster", row_cache="none", threads=1024),
              dict(row_split=16, row_split_reduce="workspace", row_cache="none", threads=512),
              dict(row_split=64, row_split_reduce="workspace", row_cache="none", threads=512)]
PINNED.update({f"{op}.{tag}": _LONG_PINS for op, tags in LONG.items() for tag in tags})
# The 4096^3 GEMM (B as [K, N]) with wgmma's MN-major B (p6-p10).
PINNED["gemm"] = PINNED["gemm"] + [dict(d, tile_k=64, vector_width=8, lds_pad=0, lds_swizzle=1) for d in _WGMMA]
# wgmma_pending = 1 (a K step's warpgroup MMAs in flight during the next
# step) on the wgmma default and its 4-stage and 128 x 256 forms (p<n+1>-
# p<n+4> after the pins above).
_PENDING = [dict(_WGMMA[0], wgmma_pending=1), dict(_WGMMA[0], stages=4, wgmma_pending=1),
            dict(_WGMMA[2], wgmma_pending=1), dict(_WGMMA[0], stages=4, group_m=1, wgmma_pending=1)]
for _op in ("gemm", "qkv_proj"):
    PINNED[_op] = PINNED[_op] + [dict(d, tile_k=64, vector_width=8, lds_pad=0, lds_swizzle=1) for d in _PENDING]
# The 8192^3 GEMM (B as [K, N]): the wgmma pins (p0-p4) and the pending
# ones (p5-p8) only.
PINNED["gemm8192"] = [dict(d, tile_k=64, vector_width=8, lds_pad=0, lds_swizzle=1) for d in _WGMMA + _PENDING]
# Extra hkg-compile flags tried on the default schedule at PERF.md's shape
# (variant default-<name>): --min-blocks-per-sm=8 caps rmsnorm's default at
# 32 registers without spills (8 workgroups of 256 per SM, 2048 threads).
# Measured on the H200 and dropped from the sweep (docs/perf/README.md,
# 2026-12-01 and 2026-12-02): softmax / layernorm at --min-blocks-per-sm=6
# (80 / 104 us against 70.7 / 70.8).
FLAG_VARIANTS = {"rmsnorm": {"m8": ["--min-blocks-per-sm=8"]}}
# Source variants of the default schedule at PERF.md's shape (variant
# default-<name>, and default-<name>-i32 with --index32): an attribute added
# to the op. `noalias` =
# `hkg.no_alias` (llvm.noalias / readonly pointers: ld.global.nc, column
# loads hoisted by ptxas; docs/ABI.md). Measured on the H200 and dropped
# (docs/perf/README.md): `pf` = `hkg.prefetch_columns` (71.8 / 94.7 us
# against 70.7 / 70.8 for rmsnorm / layernorm), `nt` = `hkg.streaming_access`
# (3-11 us slower on every op), the row cache as f32 for rmsnorm / as bf16
# for softmax and layernorm (`hkg.row_f32_cache` / `hkg.row_bf16_cache`;
# 0.6-8 us slower).
# `plain` = `hkg.load_eviction = "normal"`: plain loads instead of the
# default L1 + L2 evict-last policy of the row / element streams on NVIDIA
# (docs/Lowering.md; measured 2.5-4.5% faster on the H200, 2026-12-02). Also
# measured and dropped then: "first" (1-10 us slower on every op), and for
# rmsnorm Inductor's pattern (p5 / p6 with the policy: 68.8-69.4 us against
# 67.3-67.7 for the default).
SRC_VARIANTS = {op: {"noalias": "hkg.no_alias"}
                for op in ("softmax", "layernorm", "rmsnorm", "gelu", "bias_gelu", "swiglu", "rope", "top_p")}
for _op in ROW_OPS:
    SRC_VARIANTS[_op]["plain"] = 'hkg.load_eviction = "normal"'
# Not compiled with 32-bit indices: the GEMMs use nvgpu ops.
NO_INDEX32 = {"gemm", "gemm8192", "gemm_decode", "qkv_proj", "attention", "gemv"}


def gemv_source(tag):
    """hkg.matmul of tag MxNxK[t] (SECOND["gemv"]), bf16, default schedule."""
    t = tag.endswith("t")
    m, n, k = (int(d) for d in tag.rstrip("t").split("x"))
    a, w, r = f"tensor<{m}x{k}xbf16>", f"tensor<{n}x{k}xbf16>" if t else f"tensor<{k}x{n}xbf16>", f"tensor<{m}x{n}xbf16>"
    attr = " {transpose_b}" if t else ""
    return f"""module {{
  func.func @gemv(%x: {a}, %w: {w}) -> {r} {{
    %0 = hkg.matmul %x, %w{attr} : {a}, {w} -> {r}
    return %0 : {r}
  }}
}}
"""


def source(op, tag=None):
    """The example of `op`, or for shape `tag` the example rewritten to it."""
    if op == "gemv":
        return gemv_source(tag)
    src = open(os.path.join(ROOT, "examples", op + ".mlir")).read()
    if tag is None:
        return src
    dims = [int(d) for d in tag.split("x")]
    if op in ROW_OPS:
        r, c = dims
        out = src.replace("8192x8192", f"{r}x{c}").replace("tensor<8192xbf16>", f"tensor<{c}xbf16>")
    elif op == "rope":
        b, s_, h, d = dims
        out = src.replace("8x4096x32x128", f"{b}x{s_}x{h}x{d}").replace("4096x64", f"{s_}x{d // 2}")
    elif op == "top_p":
        b, v = dims
        out = src.replace("64x128256", f"{b}x{v}").replace("tensor<64xi32>", f"tensor<{b}xi32>")
    elif op == "topk":
        b, v, k = dims
        out = src.replace("64x128256", f"{b}x{v}").replace("64x50", f"{b}x{k}").replace("k(50)", f"k({k})")
    else:
        raise ValueError(f"no second shapes for {op}")
    if "8192" in out.split("\n", 1)[1] or out == src:
        raise ValueError(f"{op} {tag}: the example did not rewrite cleanly")
    return out


def stat_source(case):
    n, v, mode = STAT[case]
    L = f"tensor<{n}x{v}xf32>"
    if mode == "seed":
        return f"""module {{
  func.func @top_p_stat(%x: {L}) -> tensor<{n}xi32> {{
    %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(1234) : {L} -> tensor<{n}xi32>
    return %0 : tensor<{n}xi32>
  }}
}}
"""
    return f"""module {{
  func.func @top_p_stat(%x: {L}, %u: tensor<{n}xf32>) -> tensor<{n}xi32> {{
    %0 = hkg.top_p_sample %x uniform(%u : tensor<{n}xf32>) p(0.9) temperature(1.0) : {L} -> tensor<{n}xi32>
    return %0 : tensor<{n}xi32>
  }}
}}
"""


def with_schedule(src, sched):
    """Adds {schedule = ...} to the (single) hkg op of an example."""
    body = ", ".join(f"{k} = {v}" for k, v in sorted(sched.items()))
    return with_attr(src, f"schedule = #hkg.schedule<{body}>")


def with_attr(src, entry):
    """Adds `entry` (`name = value` or a unit attribute's name) to the
    attribute dictionary of the (single) hkg op of an example."""
    m = re.search(r"= hkg\.[a-z_]+", src)
    depth, i = 0, m.end()
    while not (depth == 0 and src[i] == ":" and src[i - 1].isspace()):
        depth += {"(": 1, ")": -1}.get(src[i], 0)
        i += 1
    head = src[:i].rstrip()
    if head.endswith("}"):  # the op already has an attribute dictionary
        return head[:-1] + f", {entry}}} " + src[i:]
    return head + f" {{{entry}}} " + src[i:]


def compile_one(src, outdir, extra=()):
    tmp = outdir + ".mlir"
    with open(tmp, "w") as f:
        f.write(src)
    r = subprocess.run([HKG_COMPILE, tmp, "--chip=sm_90", "-o", outdir, *extra], capture_output=True, text=True)
    os.remove(tmp)
    if r.returncode != 0:
        shutil.rmtree(outdir, ignore_errors=True)
    return r.returncode == 0, r.stderr.strip().splitlines()[:1]


def sweep_case(args, rng, op, case, src, per_op, pinned=(), flag_variants=None, src_variants=None):
    """Compiles the default and up to per_op random schedules of one case."""
    opdir = os.path.join(args.out, case)
    shutil.rmtree(opdir, ignore_errors=True)
    os.makedirs(opdir)
    ok, err = compile_one(src, os.path.join(opdir, "default"))
    if not ok:
        print(f"{case}: default failed: {err}", file=sys.stderr)
        return
    i32 = args.index32 != "none" and op not in NO_INDEX32
    notes = []
    if i32:
        ok, err = compile_one(src, os.path.join(opdir, "default-i32"), I32)
        notes.append("default-i32" if ok else f"no default-i32 ({err})")
    for name, flags in (flag_variants or {}).items():
        ok, err = compile_one(src, os.path.join(opdir, f"default-{name}"), flags)
        notes.append(f"default-{name}" if ok else f"no default-{name} ({err})")
    for name, entry in (src_variants or {}).items():
        vsrc = with_attr(src, entry)
        ok, err = compile_one(vsrc, os.path.join(opdir, f"default-{name}"))
        notes.append(f"default-{name}" if ok else f"no default-{name} ({err})")
        if ok and i32:
            ok, err = compile_one(vsrc, os.path.join(opdir, f"default-{name}-i32"), I32)
            notes.append(f"default-{name}-i32" if ok else f"no default-{name}-i32 ({err})")
    for i, sched in enumerate(pinned):
        ssrc = with_schedule(src, sched)
        ok, err = compile_one(ssrc, os.path.join(opdir, f"p{i}"))
        if ok and i32:
            compile_one(ssrc, os.path.join(opdir, f"p{i}-i32"), I32)
        notes.append(f"p{i}" if ok else f"p{i} rejected ({err})")
    grid = GRIDS[op]
    combos = list(itertools.product(*grid.values()))
    rng.shuffle(combos)
    built = rejected = 0
    for combo in combos:
        if built >= per_op:
            break
        sched = dict(zip(grid.keys(), combo))
        ssrc = with_schedule(src, sched)
        ok, _ = compile_one(ssrc, os.path.join(opdir, f"s{built}"))
        if ok:
            if i32 and args.index32 == "all":
                compile_one(ssrc, os.path.join(opdir, f"s{built}-i32"), I32)
            built += 1
        else:
            rejected += 1
    print(f"{case}: default + {built} schedules ({rejected} rejected by the verifier){'; ' if notes else ''}{', '.join(notes)}",
          flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-op", type=int, default=16, help="random schedules per op at PERF.md's shape")
    ap.add_argument("--per-op-second", type=int, default=4, help="random schedules per second-set shape")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ops", default=",".join(GRIDS))
    ap.add_argument("--shapes", default="perf", help="comma list of perf, second, long, stat")
    ap.add_argument("--index32", default="none", choices=["none", "default", "all"],
                    help="also compile 32-bit-index variants (default: none)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    shapes = set(args.shapes.split(","))
    ops = [o for o in args.ops.split(",") if o]
    for op in ops:
        if "perf" in shapes:
            sweep_case(args, rng, op, op, source(op), args.per_op, PINNED.get(op, ()), FLAG_VARIANTS.get(op),
                       SRC_VARIANTS.get(op))
        if "second" in shapes:
            for tag in SECOND.get(op, []):
                sweep_case(args, rng, op, f"{op}.{tag}", source(op, tag), args.per_op_second,
                           PINNED.get(f"{op}.{tag}", ()))
        if "long" in shapes:
            for tag in LONG.get(op, []):
                sweep_case(args, rng, op, f"{op}.{tag}", source(op, tag), args.per_op_second,
                           PINNED.get(f"{op}.{tag}", ()))
    if "stat" in shapes and "top_p" in ops:
        for case in STAT:
            opdir = os.path.join(args.out, case)
            shutil.rmtree(opdir, ignore_errors=True)
            os.makedirs(opdir)
            ok, err = compile_one(stat_source(case), os.path.join(opdir, "default"))
            print(f"{case}: {'default' if ok else 'default failed: ' + str(err)}", flush=True)


if __name__ == "__main__":
    main()

"""hkg vs PyTorch eager vs Inductor on the H200, in one process and one run.

    python3 utils/bench/bench.py --bundles DIR [--out DIR] [--ops softmax,gelu,...]
        [--shapes perf,second,stat] [--budget SECONDS] [--sizes N]

DIR holds one directory per case, each with one hkg-compile bundle per
variant (DIR/<case>/<variant>/manifest.json; utils/bench/sweep.py and
utils/bench/build_bundles.sh compile them here with hkg-compile
--chip=sm_90): `<op>` is PERF.md's shape, `<op>.<shape>`
the second shape set (not in PERF.md), `top_p.stat*` the kernels of the
statistical test; each holds the variants `default`, `default-i32` (32-bit
indices), `s<i>` (swept schedules) and `s<i>-i32`. For every case: fresh
random inputs, outputs poisoned (NaN / -1) before each checked run, all
implementations checked against a float64 reference, then timed with
triton.testing.do_bench's loop (device events, warm-up, median; L2 flushed),
plus a GPU sleep before each start event that keeps host launch overhead
out of the events (bench() below). Every
variant is checked and timed briefly (rep 40 ms) to pick a candidate; the
default-schedule variants (default, default-i32, default-m8, default-noalias,
...) and that candidate are then timed in full (rep 200 ms; "best" = the
fastest of these), as
are eager and Inductor (torch.compile mode="max-autotune-no-cudagraphs",
dynamic=False, dynamo reset per case). The copy and bf16 GEMM ceilings are
measured in the same run.

Matrix-vector products (`gemv.<MxNxK[t]>`, sweep.py's SECOND["gemv"]): a
table of their own against the floor (the bytes moved at the copy rate of
the run) and issue 24's bar (>= 80% of the floor from 256 MiB moved, else
>= 1.0x the faster of eager and Inductor).

The statistical test (`stat`): every row of the kernel's [N, V] input holds
the same logits, so the N tokens are N independent draws (each row its own
random number: the kernel's seed hash, or torch.rand as the `uniform`
input); their histogram is compared with the renormalised nucleus
distribution from a float64 reference by a chi-square test (cells with an
expected count under 5 merged), and every token must lie in the nucleus.

Kernels with dynamic sizes (docs/ABI.md) run at the sizes of the case's
inputs (a bundle compiled with `?` dims can sit under any case of its op);
where bench.py makes the inputs from the manifest (`stat`), --sizes N gives
every size parameter the value N.

Prints markdown tables and writes bench.md + bench.json under --out (and
bench.partial.json after every case, so a time-out keeps what was done).
--budget stops starting new cases once that many seconds have passed.
"""
import argparse
import json
import math
import os
import platform
import statistics
import sys
import time

import torch
import torch.nn.functional as F
import triton
import triton.testing

sys.path.insert(0, os.path.dirname(__file__))
import hkg_cuda  # noqa: E402

TOL = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1e-2}
# Variant labels timed in full besides the defaults and the fastest (--full).
FULL_LABELS = set()


def as_list(outs):
    """An implementation's result as a list of tensors (torch.topk returns a
    named tuple)."""
    return list(outs) if isinstance(outs, (tuple, list)) else [outs]


def rel_err(out, ref):
    out = out.double()
    if torch.isnan(out).any():
        return float("nan")
    return (torch.linalg.vector_norm(out - ref) / torch.linalg.vector_norm(ref)).item()


# GPU cycles the timing loop spins (torch.cuda._sleep) after each L2 flush
# and before the start event: ~150-200 us at the H200's clocks, so that the
# host's launch of `fn` (Inductor's guards and launcher: ~70-150 us on the
# 2026-12-02 host; hkg's ctypes launch less) is enqueued before the GPU gets
# there. Without it, a host slower than the flush (256 MB) puts its launch
# overhead between the events: 1x4096 kernels read 17-99 us that run, and
# Inductor's PERF-shape times moved by up to 6 us between runs.
HOST_SLACK_CYCLES = 300_000


def bench(fn, warmup=25, rep=200):
    """Median device-event time of fn in seconds: triton.testing.do_bench's
    loop (estimate, warm-up, L2 flushed before every timed call), plus
    HOST_SLACK_CYCLES of GPU sleep between the flush and the start event."""
    from triton import runtime
    di = runtime.driver.active.get_device_interface()
    cache = runtime.driver.active.get_empty_cache_for_benchmark()
    fn()
    di.synchronize()
    start, end = di.Event(enable_timing=True), di.Event(enable_timing=True)
    start.record()
    for _ in range(5):  # the loop's cost per repetition, sleep included
        runtime.driver.active.clear_cache(cache)
        torch.cuda._sleep(HOST_SLACK_CYCLES)
        fn()
    end.record()
    di.synchronize()
    estimate_ms = max(start.elapsed_time(end) / 5, 1e-3)
    n_warmup = max(1, int(warmup / estimate_ms))
    n_repeat = max(1, int(rep / estimate_ms))
    starts = [di.Event(enable_timing=True) for _ in range(n_repeat)]
    ends = [di.Event(enable_timing=True) for _ in range(n_repeat)]
    for _ in range(n_warmup):
        fn()
    for i in range(n_repeat):
        runtime.driver.active.clear_cache(cache)
        torch.cuda._sleep(HOST_SLACK_CYCLES)
        starts[i].record()
        fn()
        ends[i].record()
    di.synchronize()
    times = [s.elapsed_time(e) for s, e in zip(starts, ends)]
    return statistics.median(times) * 1e-3  # s


def quick_bench(fn):
    return bench(fn, warmup=10, rep=40)


def ceilings():
    n = 1 << 30
    src = torch.empty(n, dtype=torch.uint8, device="cuda").random_()
    dst = torch.empty_like(src)
    t = bench(lambda: dst.copy_(src))
    copy_tbs = 2 * n / t / 1e12
    del src, dst
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    t = bench(lambda: torch.matmul(a, b))
    gemm_tflops = 2 * 8192**3 / t / 1e12
    return copy_tbs, gemm_tflops


# ---------------------------------------------------------------------------
# Ops: inputs, eager implementation, float64 reference, bytes, flops.
# ---------------------------------------------------------------------------

def _bf(*shape):
    return torch.randn(*shape, device="cuda", dtype=torch.bfloat16)


def gelu_tanh(x):
    return F.gelu(x, approximate="tanh")


def rope_neox(x, cos, sin):
    d2 = x.shape[-1] // 2
    x1, x2 = x[..., :d2].float(), x[..., d2:].float()
    c = cos[None, : x.shape[1], None, :]
    s = sin[None, : x.shape[1], None, :]
    return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1).to(x.dtype)


def top_p_torch(logits, u, p=0.9):
    probs = torch.softmax(logits, dim=-1)
    sp, si = torch.sort(probs, dim=-1, descending=True)
    cdf = torch.cumsum(sp, dim=-1)
    keep = (cdf - sp) < p
    sp = torch.where(keep, sp, torch.zeros_like(sp))
    cdf = torch.cumsum(sp, dim=-1)
    target = u[:, None] * cdf[:, -1:]
    idx = torch.searchsorted(cdf, target).clamp(max=sp.shape[-1] - 1)
    return torch.gather(si, 1, idx).squeeze(1).to(torch.int32)


ROW_OPS = ["softmax", "layernorm", "rmsnorm", "gelu", "bias_gelu", "swiglu"]
# PERF.md's shapes: the examples as written (bundle directory `<op>`).
PERF_SHAPE = {op: "8192x8192" for op in ROW_OPS}
PERF_SHAPE.update(rope="8x4096x32x128", top_p="64x128256", topk="64x128256x50", gemm="4096x4096x4096",
                  gemm_decode="16x4096x4096", qkv_proj="8192x12288x4096",
                  gemm8192="8192x8192x8192")
MEMORY_BOUND = ROW_OPS + ["rope"]


def _argmax_check(dim):
    """0 when every index picks its slice's maximum (ties may pick any)."""
    def check(x, idx):
        n = x.shape[dim]
        if idx.dtype != torch.int64 or bool(((idx < 0) | (idx >= n)).any()):
            return float("inf")
        picked = x.gather(dim, idx.unsqueeze(dim)).squeeze(dim)
        return float((picked != x.amax(dim)).sum().item())
    return check


def _norm_axis1(x, w, b, eps, rms):
    """LayerNorm / RMSNorm of [B, C, N] over axis 1, weight and bias per C."""
    xf = x.float()
    if rms:
        y = xf * torch.rsqrt(xf.pow(2).mean(1, keepdim=True) + eps)
    else:
        mu = xf.mean(1, keepdim=True)
        y = (xf - mu) * torch.rsqrt((xf - mu).pow(2).mean(1, keepdim=True) + eps)
    y = y * w.float()[:, None]
    if b is not None:
        y = y + b.float()[:, None]
    return y.to(x.dtype)


def _targets(n, c):
    return torch.randint(0, c, (n,), device="cuda", dtype=torch.int64)


# utils/bench/cases/generic (issue 24's memory-bound generic ops), each beside
# eager and Inductor on the same inputs.
GENERIC = dict(
    argmax_cols=lambda: dict(inputs=lambda: [_bf(8192, 16384)], eager=lambda x: torch.argmax(x, 0),
                             check=_argmax_check(0), shape="8192x16384 bf16, axis 0 -> i64"),
    argmax_rows=lambda: dict(inputs=lambda: [_bf(8192, 32000)], eager=lambda x: torch.argmax(x, 1),
                             check=_argmax_check(1), shape="8192x32000 bf16, axis 1 -> i64"),
    cross_entropy=lambda: dict(
        inputs=lambda: [_bf(8192, 32000), _targets(8192, 32000)],
        eager=lambda x, t: F.cross_entropy(x.float(), t, reduction="none"),
        ref=lambda x, t: F.cross_entropy(x.double(), t, reduction="none"),
        shape="8192x32000 bf16, i64 targets -> f32 per row"),
    layernorm_inner=lambda: dict(
        inputs=lambda: [_bf(16, 4096, 2048), _bf(4096), _bf(4096)],
        eager=lambda x, w, b: _norm_axis1(x, w, b, 1e-5, False),
        ref=lambda x, w, b: _norm_axis1(x.double(), w.double(), b.double(), 1e-5, False),
        shape="16x4096x2048 bf16, axis 1"),
    rmsnorm_inner=lambda: dict(
        inputs=lambda: [_bf(16, 4096, 2048), _bf(4096)],
        eager=lambda x, w: _norm_axis1(x, w, None, 1e-6, True),
        ref=lambda x, w: _norm_axis1(x.double(), w.double(), None, 1e-6, True),
        shape="16x4096x2048 bf16, axis 1"),
    log_softmax_mid=lambda: dict(inputs=lambda: [_bf(8, 2048, 4096)], eager=lambda x: torch.log_softmax(x, 1),
                                 ref=lambda x: torch.log_softmax(x.double(), 1), shape="8x2048x4096 bf16, axis 1"),
    log_softmax_rows=lambda: dict(inputs=lambda: [_bf(8192, 8192)], eager=lambda x: torch.log_softmax(x, 1),
                                  ref=lambda x: torch.log_softmax(x.double(), 1), shape="8192x8192 bf16, axis 1"),
    logsumexp_rows=lambda: dict(inputs=lambda: [_bf(8192, 32000)],
                                eager=lambda x: torch.logsumexp(x.float(), 1),
                                ref=lambda x: torch.logsumexp(x.double(), 1), shape="8192x32000 bf16 -> f32"),
    mean_rows=lambda: dict(inputs=lambda: [_bf(8192, 8192)], eager=lambda x: x.mean(1),
                           ref=lambda x: x.double().mean(1), shape="8192x8192 bf16, axis 1"),
    sum_mid=lambda: dict(inputs=lambda: [_bf(16, 4096, 2048)], eager=lambda x: x.sum(1),
                         ref=lambda x: x.double().sum(1), shape="16x4096x2048 bf16, axis 1"),
)


def row_case(op, r, c):
    if op == "softmax":
        return dict(inputs=lambda: [_bf(r, c)],
                    eager=lambda x: torch.softmax(x, dim=-1),
                    ref=lambda x: torch.softmax(x.double(), dim=-1))
    if op == "layernorm":
        return dict(inputs=lambda: [_bf(r, c), _bf(c), _bf(c)],
                    eager=lambda x, w, b: F.layer_norm(x, (c,), w, b, 1e-5),
                    ref=lambda x, w, b: F.layer_norm(x.double(), (c,), w.double(), b.double(), 1e-5))
    if op == "rmsnorm":
        return dict(inputs=lambda: [_bf(r, c), _bf(c)],
                    eager=lambda x, w: F.rms_norm(x, (c,), w, 1e-6),
                    ref=lambda x, w: F.rms_norm(x.double(), (c,), w.double(), 1e-6))
    if op == "gelu":
        return dict(inputs=lambda: [_bf(r, c)], eager=gelu_tanh, ref=lambda x: gelu_tanh(x.double()))
    if op == "bias_gelu":
        return dict(inputs=lambda: [_bf(r, c), _bf(c)],
                    eager=lambda x, b: gelu_tanh(x + b),
                    ref=lambda x, b: gelu_tanh(x.double() + b.double()))
    if op == "swiglu":
        return dict(inputs=lambda: [_bf(r, c), _bf(r, c)],
                    eager=lambda g, u: F.silu(g) * u,
                    ref=lambda g, u: F.silu(g.double()) * u.double())
    raise KeyError(op)


def rope_case(b, s, h, d):
    def inputs():
        d2 = d // 2
        inv = 1.0 / (10000 ** (torch.arange(d2, device="cuda", dtype=torch.float64) / d2))
        ang = torch.arange(s, device="cuda", dtype=torch.float64)[:, None] * inv[None, :]
        return [_bf(b, s, h, d), ang.cos().float(), ang.sin().float()]
    return dict(inputs=inputs, eager=rope_neox,
                ref=lambda x, c, s_: rope_neox(x.double(), c.double(), s_.double()))


def nucleus_check(logits, tok, p=0.9):
    """Fraction of rows whose token lies outside the p-nucleus (0 = all valid)."""
    probs = torch.softmax(logits.double(), dim=-1)
    sp, _ = torch.sort(probs, dim=-1, descending=True)
    cdf = torch.cumsum(sp, dim=-1)
    k = (cdf < p).sum(dim=-1, keepdim=True).clamp(max=logits.shape[1] - 1)  # index of the last kept token
    cutoff = torch.gather(sp, 1, k)
    t = tok.long().clamp(0, logits.shape[1] - 1)
    inside = (torch.gather(probs, 1, t[:, None]).squeeze(1) >= cutoff.squeeze(1) * (1 - 1e-9)) & (tok.long() == t)
    return 1.0 - inside.double().mean().item()


def top_p_case(b, v):
    return dict(inputs=lambda: [torch.randn(b, v, device="cuda") * 4],
                eager=lambda x: top_p_torch(x, torch.rand(x.shape[0], device="cuda")),
                check=nucleus_check)


def topk_check(x, values, indices, k):
    """Fraction of wrong (slice, rank) entries of a top-k (0 = all valid):
    the values must be torch.topk's (sorted, largest first) exactly; the
    indices distinct, holding those values (equal values in any order)."""
    ref = torch.topk(x, k, dim=-1, largest=True, sorted=True).values
    same = lambda a, b: (a == b) | (torch.isnan(a) & torch.isnan(b))
    ok = same(values, ref)
    idx = indices.long()
    inside = (idx >= 0) & (idx < x.shape[-1])
    ok &= inside & same(torch.gather(x, -1, idx.clamp(0, x.shape[-1] - 1)), values)
    srt = torch.sort(idx, dim=-1).values
    dup = torch.zeros_like(ok)
    dup[:, 1:] = srt[:, 1:] == srt[:, :-1]
    ok &= ~dup.any(dim=-1, keepdim=True)
    return 1.0 - ok.double().mean().item()


def topk_case(b, v, k):
    return dict(inputs=lambda: [torch.randn(b, v, device="cuda")],
                eager=lambda x: torch.topk(x, k, dim=-1),
                check=lambda x, values, indices: topk_check(x, values, indices, k))


def gemv_case(tag):
    """x @ W of tag MxNxK[t]: W as [K, N], or [N, K] with the trailing t
    (sweep.py's SECOND["gemv"]: M or N at most 16; `linear` cases: any)."""
    t = tag.endswith("t")
    m, n, k = (int(d) for d in tag.rstrip("t").split("x"))
    if t:
        eager, ref = (lambda a, w: a @ w.t()), (lambda a, w: a.double() @ w.double().t())
    else:
        eager, ref = (lambda a, w: a @ w), (lambda a, w: a.double() @ w.double())
    return dict(inputs=lambda: [_bf(m, k), _bf(n, k) if t else _bf(k, n)], eager=eager, ref=ref,
                flops=2 * m * n * k, shape=f"{m}x{n}x{k} bf16 (W as {'[N,K]' if t else '[K,N]'})")


def make_case(case):
    """The spec of bundle directory `case` (`<op>` or `<op>.<shape>`)."""
    op, _, tag = case.partition(".")
    perf = tag == ""
    if op in ("gemm", "gemm8192", "gemm_decode", "qkv_proj"):
        if not perf:
            raise KeyError(case)
        spec = dict(gemm=dict(
            inputs=lambda: [_bf(4096, 4096), _bf(4096, 4096)],
            eager=torch.matmul, ref=lambda a, b: a.double() @ b.double(),
            flops=2 * 4096**3, inductor=False, shape="4096^3 bf16"),
            gemm8192=dict(
            inputs=lambda: [_bf(8192, 8192), _bf(8192, 8192)],
            eager=torch.matmul, ref=lambda a, b: a.double() @ b.double(),
            flops=2 * 8192**3, inductor=False, shape="8192^3 bf16"),
            gemm_decode=dict(
            inputs=lambda: [_bf(16, 4096), _bf(4096, 4096)],
            eager=lambda a, w: a @ w.t(), ref=lambda a, w: a.double() @ w.double().t(),
            flops=2 * 16 * 4096 * 4096, inductor=False, shape="16x4096x4096 bf16 (W as [N,K])"),
            qkv_proj=dict(
            inputs=lambda: [_bf(8192, 4096), _bf(12288, 4096) * 0.02, _bf(12288)],
            eager=F.linear, ref=lambda x, w, b: F.linear(x.double(), w.double(), b.double()),
            flops=2 * 8192 * 12288 * 4096, inductor=False, shape="8192x12288x4096 bf16 + bias"))[op]
    elif op == "linear":
        # A linear layer's GEMM, x @ W^T with W as [N, K] (the decoder layer's
        # and the MLP's shapes: utils/bench/schedule_variants.py's inputs).
        # gemv_case's x @ W^T at any size; cuBLAS (eager) is the yardstick.
        spec = dict(gemv_case(tag + "t"), inductor=False)
    elif op in ("linear_gelu", "linear_silu_mul"):
        # The MLP's first GEMM (bias + exact GELU) and the decoder layer's up
        # projection (times SiLU of the gate's: SwiGLU) with their fused
        # epilogues (the kernels' own modules: utils/bench/schedule_variants.py).
        m, n, k = (int(x) for x in tag.split("x"))
        if op == "linear_gelu":
            # `unfused`: cuBLAS's GEMM, then eager's bias add and GELU (issue
            # 29's yardstick); eager's F.linear adds the bias in cuBLASLt.
            spec = dict(inputs=lambda: [_bf(m, k), _bf(n, k) * 0.02, _bf(n)],
                        eager=lambda x, w, b: F.gelu(F.linear(x, w, b)),
                        baselines=dict(unfused=lambda x, w, b: F.gelu(torch.matmul(x, w.t()) + b)),
                        ref=lambda x, w, b: F.gelu(F.linear(x.double(), w.double(), b.double())),
                        shape=f"{m}x{n}x{k} bf16 + bias, GELU")
        else:
            spec = dict(inputs=lambda: [_bf(m, k), _bf(n, k) * 0.02, _bf(1, m, n)],
                        eager=lambda x, w, g: F.silu(F.linear(x, w)) * g[0],
                        ref=lambda x, w, g: F.silu(F.linear(x.double(), w.double())) * g[0].double(),
                        shape=f"{m}x{n}x{k} bf16, SiLU x other")
        spec.update(flops=2 * m * n * k, inductor=False)
    elif op == "gemm_f32":
        # f32 in and out (issue 29): cuBLAS FP32 with TF32 off is the
        # yardstick, in speed and in its error against float64.
        t = tag.endswith("t")
        m, n, k = (int(d) for d in tag.rstrip("t").split("x"))
        torch.backends.cuda.matmul.allow_tf32 = False
        f32 = lambda *shape: torch.randn(*shape, device="cuda", dtype=torch.float32)
        spec = dict(inputs=lambda: [f32(m, k), f32(n, k) if t else f32(k, n)],
                    eager=(lambda a, w: a @ w.t()) if t else torch.matmul,
                    ref=(lambda a, w: a.double() @ w.double().t()) if t else (lambda a, w: a.double() @ w.double()),
                    flops=2 * m * n * k, inductor=False,
                    shape=f"{m}x{n}x{k} f32 (B as {'[N,K]' if t else '[K,N]'}), TF32 off")
    elif op in ("gemm_fp8", "gemm_i8"):
        # 8-bit GEMMs (issue 30), B as [N, K]: e4m3 with per-tensor scales to
        # bf16 against torch._scaled_mm, i8 to i32 against torch._int_mm
        # (utils/bench/cases/quant). Inputs are exact values of the type; the
        # reference multiplies them in float64.
        m, n, k = (int(d) for d in tag.split("x"))
        if op == "gemm_fp8":
            e4m3 = lambda *shape: torch.rand(*shape, device="cuda").mul_(2).sub_(1).to(torch.float8_e4m3fn)
            scale = lambda: torch.rand((), device="cuda") + 0.5
            spec = dict(inputs=lambda: [e4m3(m, k), e4m3(n, k), scale(), scale()],
                        eager=lambda a, b, sa, sb: torch._scaled_mm(a, b.t(), scale_a=sa, scale_b=sb,
                                                                    out_dtype=torch.bfloat16),
                        # hkg accumulates all of K in wgmma's accumulators, as
                        # cuBLAS's fast-accumulation mode does (docs/Matmul.md).
                        baselines=dict(fast_accum=lambda a, b, sa, sb: torch._scaled_mm(
                            a, b.t(), scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16, use_fast_accum=True)),
                        ref=lambda a, b, sa, sb: (a.double() @ b.double().t()) * sa.double() * sb.double(),
                        shape=f"{m}x{n}x{k} e4m3 (B as [N,K]), per-tensor scales, bf16 out",
                        tol=TOL[torch.bfloat16], out_elem_bytes=2)
        else:
            i8 = lambda *shape: torch.randint(-7, 8, shape, device="cuda", dtype=torch.int8)
            spec = dict(inputs=lambda: [i8(m, k), i8(n, k)],
                        eager=lambda a, b: torch._int_mm(a, b.t()),
                        ref=lambda a, b: a.double() @ b.double().t(),
                        shape=f"{m}x{n}x{k} int8 (B as [N,K]), i32 out",
                        tol=0.0, out_elem_bytes=4)
        spec.update(flops=2 * m * n * k, inductor=False)
    elif op == "w4a16":
        spec = w4a16_case(tag)
    elif op == "gemv":
        spec = gemv_case(tag)
    elif op in GENERIC and not tag:
        spec = GENERIC[op]()
    else:
        dims = [int(x) for x in (tag or PERF_SHAPE[op]).split("x")]
        if op in ROW_OPS:
            spec = row_case(op, *dims)
            spec["shape"] = f"{dims[0]}x{dims[1]} bf16"
        elif op == "rope":
            spec = rope_case(*dims)
            spec["shape"] = "B{} S{} H{} D{} bf16".format(*dims)
        elif op == "top_p":
            spec = top_p_case(*dims)
            spec["shape"] = f"{dims[0]}x{dims[1]} f32, p=0.9"
        elif op == "topk":
            spec = topk_case(*dims)
            spec["shape"] = f"{dims[0]}x{dims[1]} f32, k={dims[2]}"
        else:
            raise KeyError(case)
    spec["perf"] = perf
    return spec


def list_cases(bundles, ops, shapes):
    """Bundle directories to run, PERF.md's shapes first, in --ops order."""
    names = sorted(d for d in os.listdir(bundles) if os.path.isdir(os.path.join(bundles, d)))
    out = []
    for want_perf in (True, False):
        if ("perf" if want_perf else "second") not in shapes:
            continue
        for op in ops:
            for d in names:
                o, _, tag = d.partition(".")
                if o == op and (tag == "") == want_perf and not tag.startswith("stat"):
                    out.append(d)
    return out


def variant_order(v):
    base, _, suffix = v.partition("-")
    return (base != "default", base[:1], int(base[1:]) if base[1:].isdigit() else 0, suffix)


def measure_hkg(row, opdir, inputs, score, tol, nbytes, spec, copy_tbs):
    """Checks every variant, times each briefly, times default / default-i32
    / the best in full."""
    row["variants"] = []
    kernels = {}
    if os.path.isdir(opdir):
        for v in sorted(os.listdir(opdir), key=variant_order):
            if os.path.exists(os.path.join(opdir, v, "manifest.json")):
                try:
                    kernels[v] = hkg_cuda.load_bundle(os.path.join(opdir, v))[1][0]
                except Exception as e:  # a kernel that fails to load is reported, not fatal
                    row.setdefault("load_errors", []).append(f"{v}: {e}")
    for label, k in kernels.items():
        outs = k.alloc_outputs(inputs)
        # Poison: every element must be written (NaN, or -1 for integers).
        for out in outs:
            out.fill_(float("nan") if out.is_floating_point() else -1)
        try:
            k(*inputs, *outs)
            torch.cuda.synchronize()
            err = score(outs)
            ok = err <= tol
            t = quick_bench(lambda: k(*inputs, *outs)) if ok else float("nan")
            if ok:  # again after the timed runs: state a kernel keeps across launches (a counter) must not drift
                for out in outs:
                    out.fill_(float("nan") if out.is_floating_point() else -1)
                k(*inputs, *outs)
                torch.cuda.synchronize()
                err = max(err, score(outs))
                ok = err <= tol
        except Exception as e:
            row["variants"].append(dict(label=label, error=str(e)))
            continue
        row["variants"].append(dict(label=label, schedule=k.meta.get("schedule"), quick_us=t * 1e6, err=err, ok=ok,
                                    index_bitwidth=k.meta.get("index_bitwidth"), stats=k.meta.get("stats")))
    good = [v for v in row["variants"] if v.get("ok")]
    quick_best = sorted(good, key=lambda v: v["quick_us"])[:1]
    full = {}  # label -> variant, timed in full
    for v in good:
        if v["label"].startswith("default") or v in quick_best or v["label"] in FULL_LABELS:
            k = kernels[v["label"]]
            outs = k.alloc_outputs(inputs)
            v["us"] = bench(lambda: k(*inputs, *outs)) * 1e6
            full[v["label"]] = v
    best = sorted(full.values(), key=lambda v: v["us"])[:1]
    picks = (("hkg", [full[x] for x in ("default",) if x in full]),
             ("hkg_i32", [full[x] for x in ("default-i32",) if x in full]),
             ("hkg_best", best))
    for key, pick in picks:
        if not pick:
            continue
        v = pick[0]
        t = v["us"] * 1e-6
        row[key] = dict(us=v["us"], err=v["err"], ok=True, tbs=nbytes / t * 1e-12,
                        tflops=spec.get("flops", 0) / t / 1e12,
                        pct_copy=100 * nbytes / t / 1e12 / copy_tbs,
                        schedule=v["schedule"], label=v["label"], index_bitwidth=v.get("index_bitwidth"))
    for key, label in (("hkg", "default"), ("hkg_i32", "default-i32")):
        bad = [v for v in row["variants"] if v["label"] == label and not v.get("ok")]
        if bad:  # a wrong or failing kernel shows in the table
            row[key] = dict(error=f"WRONG ({bad[0].get('error') or 'err %.3g' % bad[0]['err']})")
    print(row["case"], "hkg variants:", len(row["variants"]), "ok:", len(good),
          "default:", row.get("hkg"), "i32:", row.get("hkg_i32"), "best:", row.get("hkg_best"), flush=True)


def w4a16_case(tag):
    """W4A16 (issue 30; utils/bench/cases/w4a16): activations [M, K] bf16
    times int4 weights packed two per byte along K ([N, K / 2] int8, low
    nibble = even k; docs/ABI.md), scales [N, K / G] bf16 and zero points
    [N, K / G] int8 (0..15), tag MxNxK with G = 128. Beside it the bf16
    cuBLAS GEMM of the same shape on the weights dequantized once, outside
    the timing (x @ W^T, W [N, K] bf16). The bytes (the floor) are every
    input read once and the output written once: 4-bit weights, scales,
    zero points and activations."""
    m, n, k = (int(d) for d in tag.split("x"))
    g = 128
    cache = {}

    def dequant(w, s, z):
        b = w.to(torch.int16) & 0xFF
        q = torch.stack([b & 0xF, b >> 4], dim=-1).reshape(n, k)
        return (q.double() - z.double().repeat_interleave(g, 1)) * s.double().repeat_interleave(g, 1)

    def bf16_weight(w, s, z):
        key = w.data_ptr()
        if key not in cache:
            cache.clear()
            cache[key] = dequant(w, s, z).to(torch.bfloat16)
        return cache[key]

    def inputs():
        x = torch.randn(m, k, device="cuda").to(torch.bfloat16)
        w = torch.randint(-128, 128, (n, k // 2), device="cuda", dtype=torch.int8)
        s = ((torch.rand(n, k // g, device="cuda") + 0.5) / (4 * k ** 0.5)).to(torch.bfloat16)
        z = torch.randint(0, 16, (n, k // g), device="cuda", dtype=torch.int8)
        return [x, w, s, z]

    return dict(inputs=inputs,
                eager=lambda x, w, s, z: x @ bf16_weight(w, s, z).t(),
                ref=lambda x, w, s, z: x.double() @ dequant(w, s, z).t(),
                flops=2 * m * n * k, inductor=False, tol=TOL[torch.bfloat16], out_elem_bytes=2,
                shape=f"{m}x{n}x{k} bf16 x int4 (W as [N,K], g{g}); eager = bf16 cuBLAS on dequantized W")


def run_case(args, case, copy_tbs):
    t0 = time.time()
    spec = make_case(case)
    op = case.partition(".")[0]
    inputs = spec["inputs"]()
    # score(outs): the outputs of one run (a list, one tensor per result).
    if "check" in spec:
        outs0 = as_list(spec["eager"](*inputs))
        nbytes = sum(t.numel() * t.element_size() for t in inputs + outs0)

        def score(outs, spec=spec, inputs=inputs):
            return spec["check"](inputs[0], *outs)
        tol = 0.0
    else:
        ref = spec["ref"](*inputs)
        out_bytes = spec.get("out_elem_bytes", inputs[0].element_size())
        nbytes = sum(t.numel() * t.element_size() for t in inputs) + ref.numel() * out_bytes

        def score(outs, ref=ref):
            return rel_err(outs[0], ref)
        tol = spec["tol"] if "tol" in spec else TOL[inputs[0].dtype]
    row = dict(case=case, op=op, shape=spec["shape"], perf_shape=spec["perf"], bytes=nbytes)
    measure_hkg(row, os.path.join(args.bundles, case), inputs, score, tol, nbytes, spec, copy_tbs)
    row["hkg_s"] = time.time() - t0
    impls = {"eager": spec["eager"], **spec.get("baselines", {})}
    if spec.get("inductor", True) and not args.no_inductor:
        torch._dynamo.reset()
        impls["inductor"] = torch.compile(spec["eager"], mode="max-autotune-no-cudagraphs", dynamic=False)
    for impl, fn in impls.items():
        t1 = time.time()
        try:
            o = fn(*inputs)  # for Inductor: compiles and autotunes
            torch.cuda.synchronize()
            row[impl + "_compile_s"] = time.time() - t1
            err = score(as_list(o))
            ok = err <= tol
            t = bench(lambda: fn(*inputs))
            row[impl] = dict(us=t * 1e6, err=err, ok=ok, tbs=nbytes / t / 1e12,
                             tflops=spec.get("flops", 0) / t / 1e12,
                             pct_copy=100 * nbytes / t / 1e12 / copy_tbs)
        except Exception as e:  # report, carry on
            row[impl] = dict(error=f"{type(e).__name__}: {e}")
        print(case, impl, row[impl], f"({time.time() - t1:.1f} s)", flush=True)
    row["wall_s"] = time.time() - t0
    del inputs
    torch.cuda.empty_cache()
    return row


# ---------------------------------------------------------------------------
# The statistical test of top-p sampling.
# ---------------------------------------------------------------------------

def chi_square_merged(counts, expected, min_expected=5.0):
    """Pearson's chi-square over the cells of `expected` > 0, merging the
    cells of smallest expected count (ascending) into groups of expected
    count >= min_expected; a last group under it joins the one before.
    Returns (statistic, degrees of freedom, p-value, groups)."""
    order = torch.argsort(expected)
    groups = merge_cells(counts[order].cpu().tolist(), expected[order].cpu().tolist(), min_expected)
    chi2 = sum((go - ge) ** 2 / ge for go, ge in groups)
    dof = max(1, len(groups) - 1)
    pval = torch.special.gammaincc(torch.tensor(dof / 2, dtype=torch.float64),
                                   torch.tensor(chi2 / 2, dtype=torch.float64)).item()
    return chi2, dof, pval, len(groups)


def merge_cells(o, e, min_expected):
    """Groups consecutive cells (observed o, expected e, sorted by e) into
    [observed, expected] groups of expected >= min_expected."""
    groups, ge, go = [], 0.0, 0.0
    for ei, oi in zip(e, o):
        ge += ei
        go += oi
        if ge >= min_expected:
            groups.append([go, ge])
            ge = go = 0.0
    if ge > 0:
        if groups:
            groups[-1][0] += go
            groups[-1][1] += ge
        else:
            groups.append([go, ge])
    return groups


def stat_test(args, case):
    """Every row of the [N, V] input holds the same logits: the N tokens are
    N draws from one renormalised nucleus distribution."""
    t0 = time.time()
    opdir = os.path.join(args.bundles, case, "default")
    k = hkg_cuda.load_bundle(opdir)[1][0]
    ins = k.alloc("input", args.sizes if k.dynamic else None)
    n, v = ins[0].shape
    p, temp = 0.9, 1.0
    g = torch.Generator(device="cuda").manual_seed(1)
    row_logits = torch.randn(v, device="cuda", generator=g) * 4
    logits = row_logits.expand(n, v).contiguous()
    inputs = [logits]
    mode = "seed"
    if len(ins) == 2:
        mode = "uniform (torch.rand)"
        inputs.append(torch.rand(n, device="cuda", generator=g))
    out = k.alloc_outputs(inputs)[0]
    out.fill_(-1)
    k(*inputs, out)
    torch.cuda.synchronize()
    tok = out.long()
    probs = torch.softmax(row_logits.double() / temp, -1)
    sp, idx = torch.sort(probs, descending=True, stable=True)
    cs = sp.cumsum(0)
    kk = int((cs < p).sum().item()) + 1  # the smallest prefix with mass >= p
    # How far the nucleus boundary is from p (an f32 kernel may decide the
    # boundary token differently only when this is ~1e-7 or less).
    margin = min(cs[kk - 1].item() - p, p - (cs[kk - 2].item() if kk >= 2 else 0.0))
    pn = sp[:kk] / sp[:kk].sum()
    expected = torch.zeros(v, dtype=torch.float64, device="cuda")
    expected[idx[:kk]] = pn * n
    valid = (tok >= 0) & (tok < v)
    counts = torch.zeros(v, dtype=torch.float64, device="cuda")
    counts.index_add_(0, tok[valid], torch.ones(int(valid.sum().item()), dtype=torch.float64, device="cuda"))
    # Ties at the boundary: a token with exactly the boundary probability is
    # inside (a random f32 row has none in practice).
    inside_mask = probs >= sp[kk - 1]
    outside = int((~valid).sum().item()) + int(counts[~inside_mask].sum().item())
    m = expected > 0
    chi2, dof, pval, groups = chi_square_merged(counts[m], expected[m])
    z = (chi2 - dof) / math.sqrt(2 * dof)
    # The same launch again must give the same tokens.
    out2 = torch.full_like(out, -7)
    k(*inputs, out2)
    torch.cuda.synchronize()
    res = dict(case=case, rows=n, vocab=v, p=p, temperature=temp, random=mode, nucleus=kk, boundary_margin=margin,
               chi2=chi2, dof=dof, cells=groups, p_value=pval, z=z, outside=outside,
               outside_fraction=outside / n, deterministic=bool(torch.equal(out, out2)),
               ok=outside == 0 and pval >= 1e-3, wall_s=time.time() - t0)
    print("stat", res, flush=True)
    return res


def run(args):
    start = time.time()
    torch.manual_seed(0)
    dev = torch.cuda.get_device_name()
    copy_tbs, gemm_tflops = ceilings()
    print(f"device: {dev}; copy {copy_tbs:.2f} TB/s; bf16 GEMM 8192^3 {gemm_tflops:.0f} TFLOP/s", flush=True)
    ops = args.ops.split(",") if args.ops else MEMORY_BOUND + ["top_p", "topk", "gemm", "gemm_decode", "qkv_proj"]
    shapes = set(args.shapes.split(","))
    res = dict(device=dev, date=time.strftime("%Y-%m-%d"), torch=torch.__version__,
               triton=triton.__version__, host=platform.node(), copy_tbs=copy_tbs,
               gemm_tflops=gemm_tflops, command=" ".join(sys.argv), rows=[], stat=[], skipped=[])

    def save():
        if args.out:  # partial results survive a time-out
            with open(os.path.join(args.out, "bench.partial.json"), "w") as f:
                json.dump(res, f, indent=1)
    if "stat" in shapes and "top_p" in ops:
        for case in sorted(d for d in os.listdir(args.bundles) if d.startswith("top_p.stat")):
            try:
                res["stat"].append(stat_test(args, case))
            except Exception as e:
                res["stat"].append(dict(case=case, error=f"{type(e).__name__}: {e}", ok=False))
                print("stat", case, "error", e, flush=True)
            save()
    for case in list_cases(args.bundles, ops, shapes):
        if args.budget and time.time() - start > args.budget:
            res["skipped"].append(case)
            print("skipped (budget):", case, flush=True)
            continue
        res["rows"].append(run_case(args, case, copy_tbs))
        save()
    res["wall_s"] = time.time() - start
    return res


def _geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


# Issue 24's bar for matrix-vector products: >= 80% of the read floor with
# at least 256 MiB moved, otherwise >= 1.0x the faster of eager and Inductor.
GEMV_BIG_BYTES = 256 << 20


def gemv_table(res):
    """The matrix-vector rows: hkg's default, eager and Inductor against the
    floor (the bytes moved, inputs read once + output written once, at the
    copy rate measured in this run)."""
    rows = [r for r in res["rows"] if r["op"] == "gemv"]
    if not rows:
        return []
    out = ["", f"Matrix-vector products (floor = bytes moved / the copy rate of this run, {res['copy_tbs']:.2f} TB/s; "
           "% = floor / time):", "",
           "| shape | MiB moved | floor us | hkg default us (% floor) | eager us (% floor) | Inductor us (% floor) "
           "| hkg / faster of eager, Inductor | bar | hkg rel err |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        floor = r["bytes"] / (res["copy_tbs"] * 1e12) * 1e6

        def cell(k):
            v = r.get(k, {})
            if "us" not in v:
                return v.get("error", "—")[:60]
            return f"{v['us']:.1f} ({100 * floor / v['us']:.0f}%)" + ("" if v.get("ok", True) else " WRONG")
        h = r.get("hkg", {})
        others = [r[k]["us"] for k in ("eager", "inductor") if "us" in r.get(k, {}) and r[k].get("ok")]
        ratio = f"{min(others) / h['us']:.2f}x" if "us" in h and others else "—"
        if "us" not in h:
            bar = "no result"
        elif r["bytes"] >= GEMV_BIG_BYTES:
            bar = ("met" if floor / h["us"] >= 0.8 else "missed") + " (>= 80% floor)"
        else:
            bar = ("met" if others and min(others) / h["us"] >= 1.0 else "missed") + " (>= 1.0x)"
        err = f"{h['err']:.1e}" if "err" in h else "—"
        out.append(f"| {r['shape']} | {r['bytes'] / 2**20:.0f} | {floor:.1f} | {cell('hkg')} | {cell('eager')} | "
                   f"{cell('inductor')} | {ratio} | {bar} | {err} |")
    return out


def markdown(res):
    lines = [f"Device: {res['device']}, torch {res['torch']}, triton {res['triton']}, {res['date']}.",
             f"Ceilings measured in this run: copy {res['copy_tbs']:.2f} TB/s, bf16 GEMM 8192^3 {res['gemm_tflops']:.0f} TFLOP/s.",
             f"Command: `{res.get('command', '')}`; wall time {res.get('wall_s', 0):.0f} s.",
             "",
             "PERF = PERF.md's shape (the bar applies); 2nd = the second shape set. hkg default = the default "
             "schedule (64-bit indices); i32 = the same with 32-bit indices; best = the fastest of the variants "
             "timed in full (every default-* variant and the sweep's fastest by brief timing; its label in the last column). % = bandwidth over the measured copy ceiling "
             "(bytes = inputs read once + output written once).",
             "",
             "| op | shape | set | hkg default us (% copy) | hkg default i32 us (% copy) | hkg best us (% copy) | eager us (% copy) | inductor us (% copy) | best/eager | best/inductor | hkg rel err | variants ok | best label |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    ratios = {True: [], False: []}
    misses, second_low = [], []
    gemm_lines = ["", "| GEMM | shape | hkg default us (TFLOP/s) | hkg best us (TFLOP/s) | cuBLAS (torch.matmul) us (TFLOP/s) | best/cuBLAS | hkg rel err |",
                  "|---|---|---|---|---|---|---|"]
    for r in res["rows"]:
        if "gemm" in r["op"] or "qkv" in r["op"]:
            def gc(k):
                v = r.get(k, {})
                return f"{v['us']:.1f} ({v['tflops']:.0f})" if "us" in v else v.get("error", "—")[:60]
            h, e = r.get("hkg_best", {}), r.get("eager", {})
            ratio = f"{e['us'] / h['us']:.2f}x" if "us" in h and "us" in e else "—"
            err = f"{h['err']:.1e}" if "err" in h else "—"
            gemm_lines.append(f"| {r['op']} | {r['shape']} | {gc('hkg')} | {gc('hkg_best')} | {gc('eager')} | {ratio} | {err} |")
    gemv_lines = gemv_table(res)
    for r in res["rows"]:
        if "gemm" in r["op"] or "qkv" in r["op"] or r["op"] == "gemv":
            continue

        def cell(k):
            v = r.get(k, {})
            if "us" not in v:
                return v.get("error", "—")[:60]
            bad = "" if v["ok"] else " WRONG"
            if r["op"] == "top_p":
                return f"{v['us']:.1f}{bad}"
            return f"{v['us']:.1f} ({v['pct_copy']:.0f}%){bad}"
        h, e, i = r.get("hkg_best", {}), r.get("eager", {}), r.get("inductor", {})
        re_ = f"{e['us'] / h['us']:.2f}x" if "us" in h and "us" in e else "—"
        ri = f"{i['us'] / h['us']:.2f}x" if "us" in h and "us" in i else "—"
        perf = r.get("perf_shape", True)
        if "us" in h and "us" in i and r["op"] not in ("top_p", "topk"):
            ratios[perf].append(i["us"] / h["us"])
        if perf and r["op"] not in ("top_p", "topk") and "us" in h:
            if h["pct_copy"] < 85:
                misses.append(f"{r['op']} {r['shape']}: {h['pct_copy']:.1f}% of copy (bar 85%)")
            if "us" in i and i["us"] / h["us"] < 1.0:
                misses.append(f"{r['op']} {r['shape']}: {i['us'] / h['us']:.3f}x Inductor (bar 1.0x)")
        if not perf and r["op"] not in ("top_p", "topk") and "us" in h:
            if h["pct_copy"] < 85 or ("us" in i and i["us"] / h["us"] < 1.0):
                second_low.append(f"{r['op']} {r['shape']} ({h['pct_copy']:.0f}% of copy"
                                  + (f", {i['us'] / h['us']:.2f}x Inductor)" if "us" in i else ")"))
        if perf and r["op"] == "top_p" and "us" in h and "us" in i and i["us"] / h["us"] < 10:
            misses.append(f"top_p {r['shape']}: {i['us'] / h['us']:.2f}x Inductor (bar 10x)")
        if r["op"] == "topk" and "us" in h and "us" in e and e["us"] / h["us"] < 4:
            misses.append(f"topk {r['shape']}: {e['us'] / h['us']:.2f}x torch.topk (bar 4x)")
        err = f"{h['err']:.1e}" if "err" in h else "—"
        nv = r.get("variants", [])
        okc = f"{sum(1 for v in nv if v.get('ok'))}/{len(nv)}"
        lines.append(f"| {r['op']} | {r['shape']} | {'PERF' if perf else '2nd'} | {cell('hkg')} | {cell('hkg_i32')} | "
                     f"{cell('hkg_best')} | {cell('eager')} | {cell('inductor')} | {re_} | {ri} | {err} | {okc} | {h.get('label', '—')} |")
    lines.append("")
    for perf, name in ((True, "PERF.md's shapes (bar: >= 1.15x)"), (False, "the second shape set")):
        if ratios[perf]:
            lines.append(f"Geomean of hkg's best over Inductor, memory-bound ops, {name}: "
                         f"{_geomean(ratios[perf]):.3f}x over {len(ratios[perf])} rows.")
    lines.append("")
    lines.append("Misses against PERF.md's bar (PERF rows): " + ("; ".join(misses) if misses else "none") + ".")
    if second_low:
        lines.append("Second set under 85% of copy or under 1.0x Inductor (informational; tiny shapes are "
                     "launch-bound): " + "; ".join(second_low) + ".")
    if res.get("skipped"):
        lines.append(f"Skipped (time budget): {', '.join(res['skipped'])}.")
    # 32-bit index variants side by side.
    pairs = []
    for r in res["rows"]:
        a, b = r.get("hkg", {}), r.get("hkg_i32", {})
        if "us" in a and "us" in b:
            pairs.append(f"| {r['op']} | {r['shape']} | {a['us']:.1f} | {b['us']:.1f} | {a['us'] / b['us']:.3f}x |")
    if pairs:
        lines += ["", "Default schedule, 64-bit vs 32-bit indices (both timed in full in this run):", "",
                  "| op | shape | 64-bit us | 32-bit us | speedup |", "|---|---|---|---|---|"] + pairs
    extra = []
    for r in res["rows"]:
        vs = sorted((v for v in r.get("variants", []) if v.get("ok") and "us" in v and v["label"].startswith("default")),
                    key=lambda v: variant_order(v["label"]))
        if len(vs) > 2:
            extra.append(f"- {r['op']} {r['shape']}: " + ", ".join(f"{v['label']} {v['us']:.1f}" for v in vs))
    if extra:
        lines += ["", "Default schedule with compile variants (-i32 = 32-bit indices, -m8 = --min-blocks-per-sm=8, "
                  "-noalias = hkg.no_alias; utils/bench/sweep.py), timed in full, us:", ""] + extra
    quick = [r for r in res["rows"] if r.get("perf_shape") and r["op"] in ("softmax", "layernorm", "rmsnorm")]
    if quick:
        lines += ["", "Row ops at PERF.md's shape, every variant (brief timing, rep 40 ms; p<i> = fixed schedules, "
                  "-i32 = 32-bit indices), us:", ""]
        for r in quick:
            vs = sorted((v for v in r.get("variants", []) if v.get("ok")), key=lambda v: variant_order(v["label"]))
            lines.append(f"- {r['op']}: " + ", ".join(f"{v['label']} {v['quick_us']:.1f}" for v in vs))
    if res.get("stat"):
        lines += ["", "Top-p statistical test (every row the same logits, one draw per row; chi-square against the "
                  "renormalised float64 nucleus distribution, cells with expected < 5 merged; pass: no token "
                  "outside the nucleus and p-value >= 1e-3):", "",
                  "| case | rows x V | random numbers | nucleus size | cells | chi2 | dof | z | p-value | outside | deterministic | result |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for t in res["stat"]:
            if "error" in t:
                lines.append(f"| {t['case']} | — | — | — | — | — | — | — | — | — | — | ERROR: {t['error'][:80]} |")
                continue
            lines.append(f"| {t['case']} | {t['rows']}x{t['vocab']} | {t['random']} | {t['nucleus']} | {t['cells']} | "
                         f"{t['chi2']:.1f} | {t['dof']} | {t['z']:.2f} | {t['p_value']:.3g} | "
                         f"{t['outside']} ({t['outside_fraction']:.2g}) | {t['deterministic']} | {'PASS' if t['ok'] else 'FAIL'} |")
    if len(gemm_lines) > 3:
        lines.extend(gemm_lines)
    lines.extend(gemv_lines)
    lines += ["", "Wall time per case (s): " + ", ".join(
        f"{r['case']} {r.get('wall_s', 0):.0f} (Inductor compile {r.get('inductor_compile_s', 0):.0f})" for r in res["rows"])]
    lines.append("")
    lines.append("Best schedules:")
    for r in res["rows"]:
        if "hkg_best" in r:
            lines.append(f"- {r['case']}: `{r['hkg_best']['schedule']}` ({r['hkg_best']['label']})")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bundles", required=True)
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--ops", default="", help="comma list (default: the memory-bound ops, top_p, topk and the GEMMs)")
    ap.add_argument("--shapes", default="perf,second,stat", help="comma list of perf, second, stat")
    ap.add_argument("--budget", type=float, default=0, help="seconds after which no new case starts (0: none)")
    ap.add_argument("--no-inductor", action="store_true", help="skip torch.compile (a quick look)")
    ap.add_argument("--full", default="", help="comma list of variant labels also timed in full "
                    "(always: the default ones and the fastest by brief timing)")
    ap.add_argument("--sizes", type=int, default=None,
                    help="for kernels with dynamic sizes whose inputs come from the manifest (the statistical "
                    "test): every size parameter takes this value (elsewhere the case's inputs give them)")
    args = ap.parse_args()
    known = MEMORY_BOUND + ["top_p", "topk", "gemm", "gemm8192", "gemm_decode", "qkv_proj", "gemv", "linear", "linear_gelu", "linear_silu_mul", "gemm_f32", "gemm_fp8", "gemm_i8", "w4a16"] + list(GENERIC)
    asked = [x for x in args.ops.split(",") if x]
    if "attention" in asked:
        ap.error("attention is not benched here: run utils/bench/attention_bench.py --bundles "
                 f"{os.path.join(args.bundles, 'attention')} (SDPA side by side; utils/device/bench.sh "
                 "does for OPS=attention)")
    unknown = [x for x in asked if x not in known]
    if unknown:
        ap.error(f"unknown op(s) {', '.join(unknown)}; bench.py knows {', '.join(known)}")
    if not os.path.isdir(args.bundles):
        ap.error(f"no bundle directory {args.bundles} (utils/bench/sweep.py or build_bundles.sh makes one)")
    FULL_LABELS.update(x for x in args.full.split(",") if x)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    res = run(args)
    md = markdown(res)
    print(md)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "bench.md"), "w") as f:
        f.write(md + "\n")
    with open(os.path.join(args.out, "bench.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()

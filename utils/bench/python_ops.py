"""hkg.ops (the Python package) against the C++ runtime on the same kernels,
in one run on the GPU machine.

    python3 utils/bench/python_ops.py [--ops softmax,gemm4096,...] [--reps 100]
        [--hkg-run PATH] [--out DIR]

For every op of shared/PERF.md at its PERF.md shape: fresh random inputs,
the hkg.ops call checked against torch in float64, then timed the way the
C++ runtime times a kernel (hkg::rt::Device::timeLaunches: an L2 flush of
256 MiB before each timed call, outside the events; device events around
the call; median of --reps), so the Python figure includes everything a
Python call does on the stream (the launch itself, no extra kernels); then
the same bundle (the Program hkg.ops launched, `program.bundle_dir`) run
by `hkg-run --reps` (C++: check against the float64 reference, same
timing; another process, its own inputs), and interleaved in one loop with
bare launches of the same program (`Program.bind`: the binding's launch
sequence, no Python per kernel) on the same data, so that clock changes
between the two measurements cannot pass for launch cost. Also reported: back-to-back calls (no flush, one pair of events
around --reps calls: what a loop of calls costs per call, launch overhead
included) and the host time per call (the Python side alone). Writes
OUT/python_ops.json and prints a table. Run with utils/device/python.sh,
which installs the package and its hkg-run."""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch
import torch.nn.functional as F

import hkg
from hkg import math as hm


def rel_err(got, want):
    got, want = got.double(), want.double()
    return ((got - want).norm() / want.norm()).item()


def bf16(*shape, scale=1.0):
    return (torch.randn(*shape, device="cuda") * scale).to(torch.bfloat16)


def case_softmax():
    x = bf16(8192, 8192)
    return (lambda: hkg.ops.softmax(x, -1)), hkg.ops.softmax.program(x, -1), \
        lambda y: rel_err(y, torch.softmax(x.double(), -1)), (x,)


def case_layernorm():
    x, w, b = bf16(8192, 8192), bf16(8192), bf16(8192)
    f = lambda: hkg.ops.layernorm(x, w, b, 1e-5)  # noqa: E731
    return f, hkg.ops.layernorm.program(x, w, b, 1e-5), \
        lambda y: rel_err(y, F.layer_norm(x.double(), (8192,), w.double(), b.double(), 1e-5)), \
        (x, w, b)


def case_rmsnorm():
    x, w = bf16(8192, 8192), bf16(8192)
    f = lambda: hkg.ops.rmsnorm(x, w, 1e-6)  # noqa: E731
    xd = x.double()
    return f, hkg.ops.rmsnorm.program(x, w, 1e-6), \
        lambda y: rel_err(y, xd * torch.rsqrt(xd.pow(2).mean(-1, keepdim=True) + 1e-6) * w.double()), \
        (x, w)


GELU = hkg.elementwise(lambda a: hm.gelu(a, "tanh"))
BIAS_GELU = hkg.elementwise(lambda a, b: hm.gelu(a + b, "tanh"))
SWIGLU = hkg.elementwise(lambda g, u: hm.silu(g) * u)


def case_gelu():
    x = bf16(8192, 8192)
    return (lambda: GELU(x)), GELU.program(x), \
        lambda y: rel_err(y, F.gelu(x.double(), approximate="tanh")), (x,)


def case_bias_gelu():
    x, b = bf16(8192, 8192), bf16(8192)
    return (lambda: BIAS_GELU(x, b)), BIAS_GELU.program(x, b), \
        lambda y: rel_err(y, F.gelu(x.double() + b.double(), approximate="tanh")), (x, b)


def case_swiglu():
    g, u = bf16(8192, 8192), bf16(8192, 8192)
    return (lambda: SWIGLU(g, u)), SWIGLU.program(g, u), \
        lambda y: rel_err(y, F.silu(g.double()) * u.double()), (g, u)


def case_rope():
    B, S, H, D = 8, 4096, 32, 128
    x = bf16(B, S, H, D)
    ang = torch.arange(S, device="cuda").double()[:, None] * \
        (10000.0 ** (-torch.arange(0, D, 2, device="cuda").double() / D))[None, :]
    cos, sin = ang.cos().float(), ang.sin().float()
    f = lambda: hkg.ops.rope(x, cos, sin)  # noqa: E731

    def check(y):
        xd = x.double()
        a, b = xd[..., : D // 2], xd[..., D // 2:]
        c, s = cos.double()[None, :, None, :], sin.double()[None, :, None, :]
        return rel_err(y, torch.cat([a * c - b * s, b * c + a * s], -1))
    return f, hkg.ops.rope.program(x, cos, sin), check, (x, cos, sin)


def case_top_p():
    logits = torch.randn(64, 128256, device="cuda") * 3
    u = torch.rand(64, device="cuda")
    f = lambda: hkg.ops.top_p_sample(logits, 0.9, uniform=u)  # noqa: E731

    def check(ids):
        # Every drawn token lies in its row's nucleus (the smallest set of
        # most likely tokens reaching p): 0 when all do, else the share
        # outside.
        probs = torch.softmax(logits.double(), -1)
        sp, order = probs.sort(-1, descending=True)
        before = sp.cumsum(-1) - sp
        rank = (order == ids.long()[:, None]).float().argmax(-1)
        inside = before.gather(1, rank[:, None]).squeeze(1) < 0.9
        return 1.0 - inside.double().mean().item()
    return f, hkg.ops.top_p_sample.program(logits, 0.9, uniform=u), check, (logits, u)


def uniform(*shape, r=1.0):
    return ((torch.rand(*shape, device="cuda") * 2 - 1) * r).to(torch.bfloat16)


# The compute-bound ops draw their inputs as hkg-run's models do (A and q,
# k, v uniform(-1, 1), B uniform(+-1/sqrt(K))): a long matmul's clock, and
# so its time, depends on the data it multiplies (a first run with normal
# inputs here had 8192^3 10% slower than hkg-run's uniform ones).
def gemm(m, n, k):
    def case():
        a, b = uniform(m, k), uniform(k, n, r=k ** -0.5)
        return (lambda: hkg.ops.matmul(a, b)), hkg.ops.matmul.program(a, b), \
            lambda y: rel_err(y, a.double() @ b.double()), (a, b)
    return case


def case_attention():
    q, k, v = (uniform(4, 32, 4096, 128) for _ in range(3))
    f = lambda: hkg.ops.attention(q, k, v, causal=True)  # noqa: E731

    def check(y):
        # A float64 reference on one batch (the whole one is 8 GB).
        ref = F.scaled_dot_product_attention(q[:1].double(), k[:1].double(),
                                             v[:1].double(), is_causal=True)
        return rel_err(y[:1], ref)
    return f, hkg.ops.attention.program(q, k, v, causal=True), check, (q, k, v)


CASES = {
    "softmax": case_softmax, "layernorm": case_layernorm,
    "rmsnorm": case_rmsnorm, "gelu": case_gelu, "bias_gelu": case_bias_gelu,
    "swiglu": case_swiglu, "rope": case_rope, "top_p": case_top_p,
    "gemm4096": gemm(4096, 4096, 4096), "gemm8192": gemm(8192, 8192, 8192),
    "gemm_decode": gemm(16, 4096, 4096), "gemm_qkv": gemm(8192, 12288, 4096),
    "attention": case_attention,
}
TOLERANCE = {"top_p": 0.0, "attention": 2e-2}


def time_flushed(fn, reps, flush):
    """Device::timeLaunches' method: flush, then events around one call."""
    for _ in range(10):
        fn()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for i in range(reps):
        flush.fill_(i & 0xFF)
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends)) * 1e3


def time_interleaved(fn, bound, reps, flush):
    """hkg.ops calls and bare launches of the same bound program (the C++
    runtime's launch through the binding's launch sequence, no Python per
    kernel) alternated in one loop, each timed as time_flushed does: the
    same clocks and data for both, so their ratio is the Python path's
    cost alone."""
    for _ in range(10):
        fn()
        bound.launch()
    ev = [[torch.cuda.Event(enable_timing=True) for _ in range(4)] for _ in range(reps)]
    for i in range(reps):
        flush.fill_(i & 0xFF)
        ev[i][0].record()
        fn()
        ev[i][1].record()
        flush.fill_((i + 1) & 0xFF)
        ev[i][2].record()
        bound.launch()
        ev[i][3].record()
    torch.cuda.synchronize()
    ops = statistics.median(e[0].elapsed_time(e[1]) for e in ev) * 1e3
    bare = statistics.median(e[2].elapsed_time(e[3]) for e in ev) * 1e3
    return ops, bare


def time_back_to_back(fn, reps):
    """Per call of `reps` calls in a row (no flush): launch overhead
    included when the kernel is shorter than it; and the host's time per
    call (enqueueing only)."""
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    host = (time.perf_counter() - t0) / reps * 1e6
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / reps * 1e3, host


def hkg_run(hkg_run_path, bundle, reps):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "run.json")
        proc = subprocess.run([hkg_run_path, bundle, f"--reps={reps}", "--warmup=10",
                               "--measure-copy-mib=0", f"--json={out}"],
                              capture_output=True, text=True, timeout=900)
        if proc.returncode != 0 or not os.path.exists(out):
            return None, (proc.stdout + proc.stderr)[-2000:]
        with open(out) as f:
            data = json.load(f)
    medians, statuses = [], []

    def walk(v):
        if isinstance(v, dict):
            if "median_us" in v:
                medians.append(v["median_us"])
            if v.get("status") in ("pass", "fail"):
                statuses.append(v["status"])
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    walk(data)
    if not medians:
        return None, "no timing in hkg-run's JSON: " + json.dumps(data)[:1000]
    return {"median_us": sum(medians), "kernels": len(medians),
            "status": "fail" if "fail" in statuses else "pass"}, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", default=",".join(CASES))
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--hkg-run", default=None)
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    args = ap.parse_args()
    runner = args.hkg_run or hkg.tuning.worker_program()
    torch.manual_seed(0)
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    rows = []
    print(f"device: {torch.cuda.get_device_name()}, hkg {hkg.__version__}, "
          f"torch {torch.__version__}, hkg-run {runner}", flush=True)
    for name in args.ops.split(","):
        row = {"op": name}
        try:
            fn, program, check, program_inputs = CASES[name]()
            y = fn()
            torch.cuda.synchronize()
            row["err"] = check(y)
            row["ok"] = row["err"] <= TOLERANCE.get(name, 1e-2)
            row["python_us"] = time_flushed(fn, args.reps, flush)
            row["back_to_back_us"], row["host_us"] = time_back_to_back(fn, args.reps)
            row["kernels"] = len(program.kernel_names)
            ops_us, bare_us = time_interleaved(fn, program.bind(*program_inputs),
                                               args.reps, flush)
            row["interleaved_ops_us"], row["interleaved_bare_us"] = ops_us, bare_us
            cpp, why = hkg_run(runner, program.bundle_dir, args.reps)
            if cpp is None:
                row["cpp_error"] = why
            else:
                row["cpp_us"] = cpp["median_us"]
                row["cpp_status"] = cpp["status"]
                row["ratio"] = row["python_us"] / cpp["median_us"]
        except Exception as e:  # noqa: BLE001 (reported per op)
            row["error"] = f"{type(e).__name__}: {e}"[:2000]
        rows.append(row)
        print(json.dumps(row), flush=True)
        torch.cuda.empty_cache()
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "python_ops.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "rows": rows}, f, indent=1)
    print("\n| op | check | hkg.ops (us) | hkg-run (us) | hkg.ops / hkg-run | interleaved: hkg.ops / bare launch (us) | back-to-back (us/call) | host (us/call) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        if "error" in r:
            print(f"| {r['op']} | error: {r['error'][:80]} | | | | | | |")
            continue
        print(f"| {r['op']} | {'ok' if r['ok'] else 'FAIL'} {r['err']:.1e} | "
              f"{r['python_us']:.1f} | {r.get('cpp_us', float('nan')):.1f} | "
              f"{r.get('ratio', float('nan')):.3f} | {r['interleaved_ops_us']:.1f} / "
              f"{r['interleaved_bare_us']:.1f} = {r['interleaved_ops_us'] / r['interleaved_bare_us']:.3f} | "
              f"{r['back_to_back_us']:.1f} | "
              f"{r['host_us']:.1f} |")
    return 0 if all(r.get("ok") and r.get("cpp_status") == "pass" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())

"""hkg vs PyTorch eager vs Inductor on the H200, in one process and one run.

    python3 utils/bench/bench.py --bundles DIR [--out DIR] [--ops softmax,gelu,...]

DIR holds one bundle per example (DIR/<op>/manifest.json, compiled here by
utils/bench/build_bundles.sh with hkg-compile --chip=sm_90). For every op:
fresh random inputs, outputs poisoned (NaN) before each checked run, all
three implementations checked against a float64 reference, then timed with
triton.testing.do_bench (device events, warm-up, median). The machine's copy
and bf16 GEMM ceilings are measured in the same run. Prints one markdown
table and writes bench.md + bench.json under --out.
"""
import argparse
import json
import math
import os
import platform
import sys
import time

import torch
import torch.nn.functional as F
import triton
import triton.testing

sys.path.insert(0, os.path.dirname(__file__))
import hkg_cuda  # noqa: E402

TOL = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1e-2}


def rel_err(out, ref):
    out = out.double()
    if torch.isnan(out).any():
        return float("nan")
    return (torch.linalg.vector_norm(out - ref) / torch.linalg.vector_norm(ref)).item()


def bench(fn):
    return triton.testing.do_bench(fn, warmup=25, rep=200, return_mode="median") * 1e-3  # s


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


def make_ops():
    ops = {}
    ops["softmax"] = dict(
        inputs=lambda: [_bf(8192, 8192)],
        eager=lambda x: torch.softmax(x, dim=-1),
        ref=lambda x: torch.softmax(x.double(), dim=-1),
        shape="8192x8192 bf16")
    ops["layernorm"] = dict(
        inputs=lambda: [_bf(8192, 8192), _bf(8192), _bf(8192)],
        eager=lambda x, w, b: F.layer_norm(x, (8192,), w, b, 1e-5),
        ref=lambda x, w, b: F.layer_norm(x.double(), (8192,), w.double(), b.double(), 1e-5),
        shape="8192x8192 bf16")
    ops["rmsnorm"] = dict(
        inputs=lambda: [_bf(8192, 8192), _bf(8192)],
        eager=lambda x, w: F.rms_norm(x, (8192,), w, 1e-6),
        ref=lambda x, w: F.rms_norm(x.double(), (8192,), w.double(), 1e-6),
        shape="8192x8192 bf16")
    ops["gelu"] = dict(
        inputs=lambda: [_bf(8192, 8192)],
        eager=gelu_tanh,
        ref=lambda x: gelu_tanh(x.double()),
        shape="8192x8192 bf16")
    ops["bias_gelu"] = dict(
        inputs=lambda: [_bf(8192, 8192), _bf(8192)],
        eager=lambda x, b: gelu_tanh(x + b),
        ref=lambda x, b: gelu_tanh(x.double() + b.double()),
        shape="8192x8192 bf16")
    ops["swiglu"] = dict(
        inputs=lambda: [_bf(8192, 8192), _bf(8192, 8192)],
        eager=lambda g, u: F.silu(g) * u,
        ref=lambda g, u: F.silu(g.double()) * u.double(),
        shape="8192x8192 bf16")

    ops["gemm"] = dict(
        inputs=lambda: [_bf(4096, 4096), _bf(4096, 4096)],
        eager=torch.matmul, ref=lambda a, b: a.double() @ b.double(),
        flops=2 * 4096**3, inductor=False, shape="4096^3 bf16")
    ops["gemm_decode"] = dict(
        inputs=lambda: [_bf(16, 4096), _bf(4096, 4096)],
        eager=lambda a, w: a @ w.t(), ref=lambda a, w: a.double() @ w.double().t(),
        flops=2 * 16 * 4096 * 4096, inductor=False, shape="16x4096x4096 bf16 (W as [N,K])")
    ops["qkv_proj"] = dict(
        inputs=lambda: [_bf(8192, 4096), _bf(12288, 4096) * 0.02, _bf(12288)],
        eager=F.linear, ref=lambda x, w, b: F.linear(x.double(), w.double(), b.double()),
        flops=2 * 8192 * 12288 * 4096, inductor=False, shape="8192x12288x4096 bf16 + bias")

    def rope_inputs():
        s, d2 = 4096, 64
        inv = 1.0 / (10000 ** (torch.arange(d2, device="cuda", dtype=torch.float64) / d2))
        ang = torch.arange(s, device="cuda", dtype=torch.float64)[:, None] * inv[None, :]
        return [_bf(8, 4096, 32, 128), ang.cos().float(), ang.sin().float()]
    def nucleus_check(logits, tok, p=0.9):
        """Fraction of rows whose token lies outside the p-nucleus (0 = all valid)."""
        probs = torch.softmax(logits.double(), dim=-1)
        sp, _ = torch.sort(probs, dim=-1, descending=True)
        cdf = torch.cumsum(sp, dim=-1)
        k = (cdf < p).sum(dim=-1, keepdim=True)  # index of the last kept token
        cutoff = torch.gather(sp, 1, k)
        t = tok.long().clamp(0, logits.shape[1] - 1)
        inside = (torch.gather(probs, 1, t[:, None]) >= cutoff * (1 - 1e-9)) & (tok.long() == t)
        return 1.0 - inside.double().mean().item()

    ops["top_p"] = dict(
        inputs=lambda: [torch.randn(64, 128256, device="cuda") * 4],
        eager=lambda x: top_p_torch(x, torch.rand(64, device="cuda")),
        check=nucleus_check,
        shape="64x128256 f32, p=0.9")
    ops["rope"] = dict(
        inputs=rope_inputs,
        eager=rope_neox,
        ref=lambda x, c, s: rope_neox(x.double(), c.double(), s.double()),
        shape="B8 S4096 H32 D128 bf16")
    return ops


def run(args):
    torch.manual_seed(0)
    dev = torch.cuda.get_device_name()
    copy_tbs, gemm_tflops = ceilings()
    print(f"device: {dev}; copy {copy_tbs:.2f} TB/s; bf16 GEMM 8192^3 {gemm_tflops:.0f} TFLOP/s", flush=True)
    ops = make_ops()
    selected = args.ops.split(",") if args.ops else list(ops)
    rows = []
    for name in selected:
        spec = ops[name]
        inputs = spec["inputs"]()
        if "check" in spec:
            out0 = spec["eager"](*inputs)
            nbytes = sum(t.numel() * t.element_size() for t in inputs) + out0.numel() * out0.element_size()

            def score(o, spec=spec, inputs=inputs):
                return spec["check"](inputs[0], o)
            tol = 0.0
        else:
            ref = spec["ref"](*inputs)
            nbytes = sum(t.numel() * t.element_size() for t in inputs) + ref.numel() * inputs[0].element_size()

            def score(o, ref=ref):
                return rel_err(o, ref)
            tol = TOL[inputs[0].dtype]
        row = dict(op=name, shape=spec["shape"], bytes=nbytes)
        impls = {"eager": spec["eager"]}
        if spec.get("inductor", True):
            impls["inductor"] = torch.compile(spec["eager"], mode="max-autotune-no-cudagraphs")
        variants = []  # (label, kernel) for the default and each swept schedule
        opdir = os.path.join(args.bundles, name)
        if os.path.isdir(opdir):
            for v in sorted(os.listdir(opdir), key=lambda v: (v != "default", int(v[1:]) if v[1:].isdigit() else 0)):
                if os.path.exists(os.path.join(opdir, v, "manifest.json")):
                    try:
                        variants.append((v, hkg_cuda.load_bundle(os.path.join(opdir, v))[1][0]))
                    except Exception as e:  # a kernel that fails to load is reported, not fatal
                        row.setdefault("load_errors", []).append(f"{v}: {e}")
        row["variants"] = []
        for label, k in variants:
            out = k.alloc("output")[0]
            # Poison: every element must be written (NaN, or -1 for token ids).
            out.fill_(-1 if out.dtype == torch.int32 else float("nan"))
            try:
                k(*inputs, out)
                torch.cuda.synchronize()
                err = score(out)
                ok = err <= tol
                t = bench(lambda: k(*inputs, out)) if ok else float("nan")
            except Exception as e:
                row["variants"].append(dict(label=label, error=str(e)))
                continue
            row["variants"].append(dict(label=label, schedule=k.meta.get("schedule"), us=t * 1e6, err=err, ok=ok,
                                        tflops=spec.get("flops", 0) / t / 1e12 if ok else 0,
                                        stats=k.meta.get("stats")))
        good = [v for v in row["variants"] if v.get("ok")]
        for key, pick in (("hkg", [v for v in good if v["label"] == "default"]),
                          ("hkg_best", sorted(good, key=lambda v: v["us"])[:1])):
            if pick:
                v = pick[0]
                row[key] = dict(us=v["us"], err=v["err"], ok=True, tbs=nbytes / v["us"] * 1e-6,
                                tflops=spec.get("flops", 0) / (v["us"] * 1e-6) / 1e12,
                                pct_copy=100 * nbytes / (v["us"] * 1e-6) / 1e12 / copy_tbs,
                                schedule=v["schedule"], label=v["label"])
        print(name, "hkg variants:", len(row["variants"]), "ok:", len(good),
              "default:", row.get("hkg"), "best:", row.get("hkg_best"), flush=True)
        for impl, fn in impls.items():
            try:
                o = fn(*inputs)
                torch.cuda.synchronize()
                err = score(o)
                ok = err <= tol
                t = bench(lambda: fn(*inputs))
                row[impl] = dict(us=t * 1e6, err=err, ok=ok, tbs=nbytes / t / 1e12,
                                 tflops=spec.get("flops", 0) / t / 1e12,
                                 pct_copy=100 * nbytes / t / 1e12 / copy_tbs)
            except Exception as e:  # report, carry on
                row[impl] = dict(error=f"{type(e).__name__}: {e}")
            print(name, impl, row[impl], flush=True)
        rows.append(row)
        if args.out:  # partial results survive a time-out
            with open(os.path.join(args.out, "bench.partial.json"), "w") as f:
                json.dump(rows, f, indent=1)
    return dict(device=dev, date=time.strftime("%Y-%m-%d"), torch=torch.__version__,
                triton=triton.__version__, host=platform.node(), copy_tbs=copy_tbs,
                gemm_tflops=gemm_tflops, rows=rows)


def markdown(res):
    lines = [f"Device: {res['device']}, torch {res['torch']}, triton {res['triton']}, {res['date']}.",
             f"Ceilings measured in this run: copy {res['copy_tbs']:.2f} TB/s, bf16 GEMM 8192^3 {res['gemm_tflops']:.0f} TFLOP/s.",
             "",
             "| op | shape | hkg default us (% copy) | hkg best us (% copy) | eager us (% copy) | inductor us (% copy) | best/eager | best/inductor | hkg rel err | schedules ok |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    ratios = []
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
    for r in res["rows"]:
        if "gemm" in r["op"] or "qkv" in r["op"]:
            continue
        def cell(k):
            v = r.get(k, {})
            if "us" not in v:
                return v.get("error", "—")[:60]
            bad = "" if v["ok"] else " WRONG"
            return f"{v['us']:.1f} ({v['pct_copy']:.0f}%){bad}"
        h, e, i = r.get("hkg_best", {}), r.get("eager", {}), r.get("inductor", {})
        re_ = f"{e['us'] / h['us']:.2f}x" if "us" in h and "us" in e else "—"
        ri = f"{i['us'] / h['us']:.2f}x" if "us" in h and "us" in i else "—"
        if "us" in h and "us" in i:
            ratios.append(i["us"] / h["us"])
        err = f"{h['err']:.1e}" if "err" in h else "—"
        nv = r.get("variants", [])
        okc = f"{sum(1 for v in nv if v.get('ok'))}/{len(nv)}"
        lines.append(f"| {r['op']} | {r['shape']} | {cell('hkg')} | {cell('hkg_best')} | {cell('eager')} | {cell('inductor')} | {re_} | {ri} | {err} | {okc} |")
    if ratios:
        g = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        lines.append("")
        lines.append(f"Geomean speedup of hkg's best swept schedule over Inductor: {g:.2f}x over {len(ratios)} ops.")
    lines.extend(gemm_lines)
    lines.append("")
    lines.append("Best schedules:")
    for r in res["rows"]:
        if "hkg_best" in r:
            lines.append(f"- {r['op']}: `{r['hkg_best']['schedule']}` ({r['hkg_best']['label']})")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bundles", required=True)
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--ops", default="")
    args = ap.parse_args()
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

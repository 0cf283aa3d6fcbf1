"""hkg attention vs PyTorch SDPA on the H200 (PERF.md: B4 H32 S4096 D128
causal bf16, SDPA's anchor 1040 us).

    python3 utils/bench/attention_bench.py --bundles DIR [--out DIR]

DIR holds one hkg-compile --chip=sm_90 bundle per variant (a directory with
manifest.json; `default` is the default schedule). Every variant and SDPA
(torch.nn.functional.scaled_dot_product_attention, is_causal, the backend
PyTorch picks: flash on the H200) runs on the same random inputs; each is
checked against a float64 reference on a sample of (batch, head) pairs
(all rows of each) and timed with bench.py's loop (device events, L2
flushed, median). Writes attention.md and attention.json under --out.
"""
import argparse
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(__file__))
import hkg_cuda  # noqa: E402
from bench import bench  # noqa: E402

HEADS = [(0, 0), (1, 7), (2, 19), (3, 31)]  # the (batch, head) pairs checked


def reference(q, k, v, causal, pairs):
    """float64 softmax(q k^T / sqrt(D) + mask) v for each (b, h) of pairs."""
    sq, skv = q.shape[2], k.shape[2]
    keep = None
    if causal:
        i = torch.arange(sq, device=q.device)[:, None]
        j = torch.arange(skv, device=q.device)[None, :]
        keep = j <= i + (skv - sq)
    group = q.shape[1] // k.shape[1]
    out = {}
    for b, h in pairs:
        qq, kk, vv = q[b, h].double(), k[b, h // group].double(), v[b, h // group].double()
        s = qq @ kk.T / q.shape[3] ** 0.5
        if keep is not None:
            s = s.masked_fill(~keep, float("-inf"))
        out[(b, h)] = torch.softmax(s, -1) @ vv
    return out


def errors(o, ref):
    """Largest |o - ref| / (|ref| + 1) and the norm-wise relative error over
    the checked heads."""
    worst, num, den = 0.0, 0.0, 0.0
    for (b, h), r in ref.items():
        d = o[b, h].double() - r
        if torch.isnan(d).any():
            return float("nan"), float("nan")
        worst = max(worst, (d.abs() / (r.abs() + 1)).max().item())
        num += d.square().sum().item()
        den += r.square().sum().item()
    return worst, (num / den) ** 0.5


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bundles", required=True)
    ap.add_argument("--out", default=".")
    ap.add_argument("--shape", default="4,32,4096,128")
    ap.add_argument("--tol", type=float, default=1.6e-2,
                    help="max |o - ref| / (|ref| + 1) (bf16 output rounding and P in bf16)")
    args = ap.parse_args()
    b, h, s, d = map(int, args.shape.split(","))
    torch.manual_seed(0)
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    ref = reference(q, k, v, True, HEADS)
    flops = 2.0 * b * h * (s * (s + 1) / 2) * (d + d)
    rows = []

    def record(label, fn, out, schedule=None, stats=None):
        out.fill_(float("nan"))
        fn()
        torch.cuda.synchronize()
        worst, rel = errors(out, ref)
        ok = worst <= args.tol
        us = bench(fn) * 1e6 if ok else float("nan")
        row = dict(label=label, us=us, tflops=flops / us / 1e6 if ok else None, max_err=worst, rel_err=rel,
                   ok=ok, schedule=schedule, stats=stats)
        rows.append(row)
        print(json.dumps(row), flush=True)

    sdpa_out = torch.empty_like(q)
    record("sdpa", lambda: sdpa_out.copy_(F.scaled_dot_product_attention(q, k, v, is_causal=True)), sdpa_out)
    for name in sorted(os.listdir(args.bundles), key=lambda n: (n != "default", n)):
        path = os.path.join(args.bundles, name)
        if not os.path.exists(os.path.join(path, "manifest.json")):
            continue
        try:
            kern = hkg_cuda.load_bundle(path)[1][0]
        except Exception as e:  # reported, not fatal
            rows.append(dict(label=name, error=str(e)))
            print(name, "load error:", e, flush=True)
            continue
        out = kern.alloc_outputs([q, k, v])[0]
        record(name, lambda kern=kern, out=out: kern(q, k, v, out), out, kern.meta.get("schedule"),
               kern.meta.get("stats"))
    sdpa_us = rows[0]["us"]
    lines = [f"# attention B{b} H{h} S{s} D{d} causal bf16 ({torch.cuda.get_device_name()}, torch {torch.__version__})",
             "", "| variant | us | TFLOP/s | vs SDPA | max err | rel err | schedule |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['label']} | load error: {r['error']} | | | | | |")
            continue
        ratio = sdpa_us / r["us"] if r["ok"] else float("nan")
        lines.append(f"| {r['label']} | {r['us']:.1f} | {r['tflops'] or float('nan'):.0f} | {ratio:.3f}x | "
                     f"{r['max_err']:.3g} | {r['rel_err']:.3g} | {r.get('schedule') or ''} |")
    md = "\n".join(lines) + "\n"
    print(md)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "attention.md"), "w") as f:
        f.write(md)
    with open(os.path.join(args.out, "attention.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()

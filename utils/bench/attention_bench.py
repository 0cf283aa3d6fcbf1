"""hkg attention vs PyTorch SDPA on the H200 (PERF.md: B4 H32 S4096 D128
causal bf16, SDPA's anchor 1040 us; issue 28's decode step: B32, 32 query /
8 key/value heads, 1 query over 8192 keys, D128 bf16, against the KV-read
floor).

    python3 utils/bench/attention_bench.py --bundles DIR [--out DIR]
        [--shape B,H,S,D | B,Hq,Hkv,Sq,Skv,D] [--causal | --no-causal]
        [--mask Bm,Hm,Sm,Km]

DIR holds one hkg-compile --chip=sm_90 bundle per variant (a directory with
manifest.json; `default` is the default schedule). Without --shape the
shape (and causal, from the op in the manifest's source, and the additive
mask's shape, its argument 3 if it has one) is the default bundle's; bhsd
layout only. A mask (bf16, [B|1, Hq|1, Sq|1, Skv|1]) holds random scores
in [-2, 2) with 1 key in 8 hidden (-inf; key 0 never, so that no row is
fully hidden: SDPA would give NaN); SDPA takes it as attn_mask (with
causal, both folded into one mask). Every variant and SDPA
(torch.nn.functional.scaled_dot_product_attention: the backend PyTorch
picks, then each of cuDNN, flash and efficient that takes the case; GQA
with enable_gqa; a causal mask bottom-right aligned as hkg's, so an
explicit mask where Sq != Skv) runs on the same random inputs; each is
checked against a float64 reference on a sample of (batch, head) pairs
(all rows of each) and timed with bench.py's loop (device events, L2
flushed, median). The floor is the bytes of Q, K, V and O (each read or
written once; K and V are all of it in decode) at the copy rate measured in
the same run (a 1 GiB device-to-device copy, bytes read + written), and
every row's "of floor" is floor / its time. Writes attention.md and
attention.json under --out.
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


def heads_checked(b, h):
    """HEADS within a B x H grid (the last pair's indices clamped)."""
    return sorted({(min(x, b - 1), min(y, h - 1)) for x, y in HEADS})


def reference(q, k, v, causal, pairs, mask=None):
    """float64 softmax(q k^T / sqrt(D) + mask) v for each (b, h) of pairs
    (mask: the additive mask, broadcast from [B|1, Hq|1, Sq|1, Skv|1])."""
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
        if mask is not None:
            s = s + mask[min(b, mask.shape[0] - 1), min(h, mask.shape[1] - 1)].double()
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


def shape_of_bundle(path):
    """(B, Hq, Hkv, Sq, Skv, D, causal, mask shape or None) of an hkg
    attention bundle (bhsd)."""
    with open(os.path.join(path, "manifest.json")) as f:
        meta = json.load(f)
    kernel = meta["kernels"][0] if "kernels" in meta else meta
    src = kernel.get("source", "") or meta.get("source", "")
    if "layout(bshd)" in src:
        raise SystemExit(f"{path}: a bshd attention; pass --shape (bhsd only)")
    q, k = kernel["args"][0]["shape"], kernel["args"][1]["shape"]
    mask = kernel["args"][3] if len(kernel["args"]) == 5 else None
    if mask and mask.get("dtype", "bf16") != "bf16":
        raise SystemExit(f"{path}: a {mask['dtype']} mask; the bench makes bf16 masks")
    return q[0], q[1], k[1], q[2], k[2], q[3], " causal" in src, mask and mask["shape"]


def sdpa_backends():
    """(label, context manager factory) for SDPA as PyTorch picks it and for
    each backend by itself."""
    out = [("sdpa", None)]
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError:
        return out
    for name in ("CUDNN_ATTENTION", "FLASH_ATTENTION", "EFFICIENT_ATTENTION"):
        if hasattr(SDPBackend, name):
            out.append(("sdpa_" + name.split("_")[0].lower(),
                        lambda be=getattr(SDPBackend, name): sdpa_kernel(be)))
    return out


def copy_rate():
    """TB/s of a 1 GiB device-to-device copy, bytes read + written."""
    n = 1 << 30
    src = torch.empty(n, dtype=torch.uint8, device="cuda").random_()
    dst = torch.empty_like(src)
    t = bench(lambda: dst.copy_(src))
    del src, dst
    return 2 * n / t / 1e12


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bundles", required=True)
    ap.add_argument("--out", default=".")
    ap.add_argument("--shape", default=None,
                    help="B,H,S,D (self-attention) or B,Hq,Hkv,Sq,Skv,D; default: the default bundle's")
    ap.add_argument("--causal", dest="causal", action="store_true", default=None)
    ap.add_argument("--no-causal", dest="causal", action="store_false")
    ap.add_argument("--mask", default=None,
                    help="Bm,Hm,Sm,Km: an additive mask of that shape; default: the default bundle's")
    ap.add_argument("--tol", type=float, default=1.6e-2,
                    help="max |o - ref| / (|ref| + 1) (bf16 output rounding and P in bf16)")
    args = ap.parse_args()
    causal = True
    mask_shape = None
    if args.shape:
        dims = list(map(int, args.shape.split(",")))
        if len(dims) == 4:
            b, hq, sq, d = dims
            hkv, skv = hq, sq
        else:
            b, hq, hkv, sq, skv, d = dims
    else:
        b, hq, hkv, sq, skv, d, causal, mask_shape = shape_of_bundle(
            os.path.join(args.bundles, "default"))
    if args.causal is not None:
        causal = args.causal
    if args.mask:
        mask_shape = list(map(int, args.mask.split(",")))
    torch.manual_seed(0)
    q = torch.randn(b, hq, sq, d, device="cuda", dtype=torch.bfloat16)
    k, v = (torch.randn(b, hkv, skv, d, device="cuda", dtype=torch.bfloat16) for _ in range(2))
    mask = None
    if mask_shape:
        mask = (torch.rand(mask_shape, device="cuda") * 4 - 2).to(torch.bfloat16)
        hidden = torch.rand(mask_shape, device="cuda") < 0.125
        hidden[..., 0] = False
        mask = mask.masked_fill(hidden, float("-inf"))
    ref = reference(q, k, v, causal, heads_checked(b, hq), mask)
    inputs = [q, k, v] + ([mask] if mask is not None else [])
    # Query i sees keys j <= i + Skv - Sq (bottom-right, as hkg and the
    # reference); SDPA's is_causal is top-left, the same only where Sq = Skv.
    pairs = sq * skv
    if causal:
        pairs = sq * (skv - sq + 1) + sq * (sq - 1) / 2
    flops = 2.0 * b * hq * pairs * (d + d)
    nbytes = 2 * (q.numel() * 2 + k.numel() + v.numel() + (mask.numel() if mask is not None else 0))
    copy_tbs = copy_rate()
    floor_us = nbytes / copy_tbs / 1e6
    print(json.dumps(dict(copy_tbs=copy_tbs, bytes=nbytes, floor_us=floor_us)), flush=True)
    sdpa_kw = dict(enable_gqa=True) if hq != hkv else {}
    if causal and sq == skv and mask is None:
        sdpa_kw["is_causal"] = True
    elif causal:
        i = torch.arange(sq, device="cuda")[:, None]
        j = torch.arange(skv, device="cuda")[None, :]
        sdpa_kw["attn_mask"] = j <= i + (skv - sq)
        if mask is not None:
            sdpa_kw["attn_mask"] = mask.masked_fill(~sdpa_kw["attn_mask"], float("-inf"))
    elif mask is not None:
        sdpa_kw["attn_mask"] = mask
    rows = []

    def record(label, fn, out, schedule=None, stats=None):
        out.fill_(float("nan"))
        fn()
        torch.cuda.synchronize()
        worst, rel = errors(out, ref)
        ok = worst <= args.tol
        us = bench(fn) * 1e6 if ok else float("nan")
        row = dict(label=label, us=us, tflops=flops / us / 1e6 if ok else None, max_err=worst, rel_err=rel,
                   ok=ok, of_floor=floor_us / us if ok else None, schedule=schedule, stats=stats)
        rows.append(row)
        print(json.dumps(row), flush=True)

    sdpa_out = torch.empty_like(q)
    for label, ctx in sdpa_backends():
        def run(ctx=ctx):
            if ctx is None:
                return sdpa_out.copy_(F.scaled_dot_product_attention(q, k, v, **sdpa_kw))
            with ctx():
                return sdpa_out.copy_(F.scaled_dot_product_attention(q, k, v, **sdpa_kw))
        try:
            record(label, run, sdpa_out)
        except Exception as e:  # a backend that does not take the case
            rows.append(dict(label=label, error=str(e).splitlines()[0][:120]))
            print(label, "error:", e, flush=True)
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
        if len(kern.meta["args"]) != len(inputs) + 1:
            raise SystemExit(f"{path}: the kernel takes {len(kern.meta['args'])} arguments, "
                             f"the bench gives {len(inputs) + 1} (a mask: --mask)")
        out = kern.alloc_outputs(inputs)[0]
        record(name, lambda kern=kern, out=out: kern(*inputs, out), out, kern.meta.get("schedule"),
               kern.meta.get("stats"))
    timed = [r for r in rows if "error" not in r and r["ok"] and r["label"].startswith("sdpa")]
    best = min(timed, key=lambda r: r["us"]) if timed else None
    title = (f"B{b} H{hq} S{sq} D{d}" if (hq, sq) == (hkv, skv) else
             f"B{b} Hq{hq} Hkv{hkv} Sq{sq} Skv{skv} D{d}")
    if mask is not None:
        title += f" mask {list(mask.shape)}"
    lines = [f"# attention {title} {'causal' if causal else 'non-causal'} bf16 "
             f"({torch.cuda.get_device_name()}, torch {torch.__version__})", "",
             f"Floor: {nbytes} bytes (Q, K, V, O{', mask' if mask is not None else ''}) at the copy rate {copy_tbs:.3f} TB/s = {floor_us:.1f} us.", "",
             f"| variant | us | TFLOP/s | of floor | vs fastest SDPA ({best['label'] if best else '-'}) "
             "| max err | rel err | schedule |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['label']} | error: {r['error']} | | | | | | |")
            continue
        ratio = best["us"] / r["us"] if r["ok"] and best else float("nan")
        lines.append(f"| {r['label']} | {r['us']:.1f} | {r['tflops'] or float('nan'):.0f} | "
                     f"{100 * (r['of_floor'] or float('nan')):.1f}% | {ratio:.3f}x | "
                     f"{r['max_err']:.3g} | {r['rel_err']:.3g} | {r.get('schedule') or ''} |")
    md = "\n".join(lines) + "\n"
    print(md)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "attention.md"), "w") as f:
        f.write(md)
    with open(os.path.join(args.out, "attention.json"), "w") as f:
        json.dump(dict(copy_tbs=copy_tbs, bytes=nbytes, floor_us=floor_us, rows=rows), f, indent=1)


if __name__ == "__main__":
    main()

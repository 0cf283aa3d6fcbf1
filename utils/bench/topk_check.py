"""hkg.topk on the GPU: exact against torch.topk on hard inputs, and timed.

    python3 utils/bench/topk_check.py BUNDLE_DIR [BUNDLE_DIR ...] [--out DIR] [--sizes N]

Each BUNDLE_DIR is one hkg-compile bundle of an hkg.topk function (sm_90);
k and axis are read from the kernel's source in manifest.json; the input's
shape from its args (a kernel with dynamic sizes runs at --sizes N). Every bundle
runs on six input sets: randn * 4, many ties (integers in [-3, 3]), 0.1% NaN,
all negative, and rows sorted ascending / descending along the axis. The
outputs are poisoned first; the values must equal torch.topk's (sorted,
largest first, NaN on top) exactly, the indices must be distinct, in range
and hold those values. On randn and ascending inputs the kernel and
torch.topk are timed with triton.testing.do_bench (median, warm-up 25 ms,
200 ms). bench.py times the PERF shapes with L2 flushed between runs; this
script is the correctness sweep over shapes, dtypes, axes and mappings.
Writes topk_check.json under --out (default $OUT).
"""
import argparse
import json
import os
import re
import sys

import torch
import triton.testing

sys.path.insert(0, os.path.dirname(__file__))
import hkg_cuda  # noqa: E402


def check(k, axis, x, values, indices):
    ref = torch.topk(x.float(), k, dim=axis, largest=True, sorted=True).values.to(x.dtype)
    same = (values == ref) | (torch.isnan(values) & torch.isnan(ref))
    picked = torch.gather(x, axis, indices.long().clamp(0, x.shape[axis] - 1))
    points = (picked == values) | (torch.isnan(picked) & torch.isnan(values))
    srt = torch.sort(indices.long(), dim=axis).values
    unique = k == 1 or bool((torch.diff(srt, dim=axis) != 0).all())
    inside = bool(((indices >= 0) & (indices < x.shape[axis])).all())
    return dict(values_exact=bool(same.all()), bad_values=int((~same).sum()),
                indices_point=bool(points.all()), unique=unique, inrange=inside)


def fill(x, dist, axis):
    torch.manual_seed(0)
    if dist == "randn":
        x.copy_(torch.randn(x.shape, device="cuda") * 4)
    elif dist == "ties":
        x.copy_(torch.randint(-3, 4, x.shape, device="cuda").float())
    elif dist == "nan":
        y = torch.randn(x.shape, device="cuda")
        y[torch.rand(x.shape, device="cuda") < 0.001] = float("nan")
        x.copy_(y)
    elif dist == "negative":
        x.copy_(-torch.rand(x.shape, device="cuda") - 1)
    else:
        x.copy_(torch.sort(torch.randn(x.shape, device="cuda"), dim=axis,
                           descending=dist == "descending").values)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bundles", nargs="+")
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--sizes", type=int, default=None,
                    help="for a kernel with dynamic sizes: every size parameter takes this value")
    args = ap.parse_args()
    results, failed = [], 0
    for d in args.bundles:
        _, kernels = hkg_cuda.load_bundle(d)
        kern = kernels[0]
        src = kern.meta["source"]
        k = int(re.search(r"k\((\d+)\)", src).group(1))
        axis = int(re.search(r"axis\((\d+)\)", src).group(1))
        x = kern.alloc("input", args.sizes if kern.dynamic else None)[0]
        for dist in ("randn", "ties", "nan", "negative", "ascending", "descending"):
            fill(x, dist, axis)
            outs = kern.alloc_outputs([x])
            outs[0].fill_(float("nan"))
            outs[1].fill_(-1)
            kern(x, *outs)
            torch.cuda.synchronize()
            r = check(k, axis, x, *outs)
            r.update(bundle=d, dist=dist, schedule=kern.meta.get("schedule"))
            ok = r["values_exact"] and r["indices_point"] and r["unique"] and r["inrange"]
            failed += not ok
            if dist in ("randn", "ascending"):
                r["hkg_us"] = triton.testing.do_bench(lambda: kern(x, *outs), warmup=25, rep=200) * 1e3
                r["torch_us"] = triton.testing.do_bench(lambda: torch.topk(x, k, dim=axis), warmup=25, rep=200) * 1e3
            results.append(r)
            print(json.dumps(r), flush=True)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "topk_check.json"), "w") as f:
        json.dump(results, f, indent=1)
    print(f"{len(results) - failed}/{len(results)} correct")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Launches hkg's kernels of one or more bundles of a row op or elementwise
op of PERF.md's table (default and variants) and Inductor's kernel for the
same op and inputs a few times each, for Nsight Compute to profile side by
side: see utils/device/profile_rowops.sh.

    profile_rowop.py CASE BUNDLE_DIR [BUNDLE_DIR ...]

CASE is a bench.py case (`rmsnorm`, `gelu`, ... or `<op>.<shape>`); the
inputs are bench.py's (make_case).
Inductor is compiled as bench.py does (max-autotune-no-cudagraphs); its
autotuning launches come first, then 3 timed-shape launches each. With
HKG_PROFILE_REF=eager the reference is PyTorch eager instead (GEMMs:
cuBLAS, no Inductor autotuning).
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
import hkg_cuda  # noqa: E402


def main():
    case, dirs = sys.argv[1], sys.argv[2:]
    kernels = [(d, hkg_cuda.load_bundle(d)[1][0]) for d in dirs]
    spec = bench.make_case(case)
    inputs = spec["inputs"]()
    out = kernels[0][1].alloc("output")[0]
    if os.environ.get("HKG_PROFILE_REF") == "eager":
        inductor = spec["eager"]
    else:
        inductor = torch.compile(spec["eager"], mode="max-autotune-no-cudagraphs", dynamic=False)
    inductor(*inputs)  # autotuning happens here
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push("profiled")
    for d, k in kernels:
        for _ in range(3):
            k(*inputs, out)
    for _ in range(3):
        inductor(*inputs)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
    print("launched", [d for d, _ in kernels], "and", os.environ.get("HKG_PROFILE_REF", "inductor"))


if __name__ == "__main__":
    main()

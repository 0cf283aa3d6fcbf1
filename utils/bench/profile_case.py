#!/usr/bin/env python3
"""Launches hkg's kernels of one or more bundles, and the reference's, on
bench.py's inputs for one case, for a profiler (Nsight Compute) to attach
to: see utils/device/profile.sh.

    profile_case.py CASE [BUNDLE_DIR ...]

CASE is a bench.py case (`rmsnorm`, `top_p`, `gemm`, ... or `<op>.<shape>`);
the inputs are bench.py's (make_case). Each bundle's kernel runs 3 times
inside the NVTX range "hkg". HKG_PROFILE_REF picks the reference: `inductor`
(the default; compiled as bench.py does, max-autotune-no-cudagraphs, its
autotuning before the range), `eager` (PyTorch; cuBLAS for the GEMMs) or
`none`; it runs once inside the NVTX range "reference".
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
    ref_kind = os.environ.get("HKG_PROFILE_REF", "inductor")
    ref = None
    if ref_kind == "eager":
        ref = spec["eager"]
    elif ref_kind == "inductor":
        ref = torch.compile(spec["eager"], mode="max-autotune-no-cudagraphs", dynamic=False)
    if ref is not None:
        ref(*inputs)  # Inductor's autotuning happens here
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push("hkg")
    for d, k in kernels:
        out = k.alloc_outputs(inputs)[0]
        for _ in range(3):
            k(*inputs, out)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
    if ref is not None:
        torch.cuda.nvtx.range_push("reference")
        ref(*inputs)
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
    print("launched", [d for d, _ in kernels], "and", ref_kind)


if __name__ == "__main__":
    main()

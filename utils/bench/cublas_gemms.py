#!/usr/bin/env python3
"""cuBLAS (torch.matmul / F.linear) on the GEMMs of examples/, timed like
bench.py (device events, L2 flushed, median), so that hkg-tune's times of
those ops in the same device call have their cuBLAS counterparts:

    python3 utils/bench/cublas_gemms.py > cublas.md

gemm: 4096^3 A @ B (B as [K, N]); gemm8192: 8192^3 likewise; gemm_decode:
16x4096 @ W^T (W as [N, K]); qkv_proj: F.linear(x [8192, 4096], W [12288,
4096], bias). bf16 in, bf16 out, f32 accumulation (cuBLAS's default)."""
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import bench  # noqa: E402


def main():
    torch.manual_seed(0)
    bf = dict(device="cuda", dtype=torch.bfloat16)
    cases = []
    for name, n in (("gemm", 4096), ("gemm8192", 8192)):
        a, b = torch.randn(n, n, **bf), torch.randn(n, n, **bf)
        cases.append((name, f"{n}^3, B as [K, N]", 2 * n**3, lambda a=a, b=b: torch.matmul(a, b)))
    a, w = torch.randn(16, 4096, **bf), torch.randn(4096, 4096, **bf)
    cases.append(("gemm_decode", "16x4096x4096, W as [N, K]", 2 * 16 * 4096 * 4096,
                  lambda: F.linear(a, w)))
    x, wq, bias = torch.randn(8192, 4096, **bf), torch.randn(12288, 4096, **bf), torch.randn(12288, **bf)
    cases.append(("qkv_proj", "8192x12288x4096 + bias", 2 * 8192 * 12288 * 4096,
                  lambda: F.linear(x, wq, bias)))
    print(f"Device: {torch.cuda.get_device_name()}, torch {torch.__version__}\n")
    print("| op | shape | cuBLAS us | TFLOP/s |")
    print("|---|---|---|---|")
    for name, shape, flops, fn in cases:
        t = bench(fn)
        print(f"| {name} | {shape} | {t * 1e6:.1f} | {flops / t / 1e12:.0f} |")


if __name__ == "__main__":
    main()

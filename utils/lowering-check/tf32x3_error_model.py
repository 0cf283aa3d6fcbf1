"""A numerical model of 3xTF32's error (docs/Matmul.md, "NVIDIA 3xTF32"):
an f32 GEMM whose operands are split into tf32 terms (big = rna(x), small =
rna(x - big)) and multiplied as three m16n8k8 MMAs per k8 step, with the
tensor core's addition into the accumulator modelled as exact products
summed and then rounded to f32 either to nearest or toward zero (the
truncation Fasi, Higham, Mikaitis and Pranesh measured on NVIDIA tensor
cores). Also the candidate fix: each K step of `--step` into a zeroed
accumulator, added to the running sum in f32 (round to nearest). Prints
max |C - ref| / max |ref| against float64, as bench.py does. Runs here
(numpy; the venv has it), no GPU:

    .venv/bin/python utils/lowering-check/tf32x3_error_model.py [--k 4096] [--step 16]
"""
import argparse

import numpy as np


def tf32_rna(x):
    """x rounded to 10 fraction bits, to nearest, ties away (finite x)."""
    b = x.view(np.uint32).astype(np.uint64)
    return ((b + 0x1000) & 0xFFFFE000).astype(np.uint32).view(np.float32)


def to_f32(x64, toward_zero):
    f = x64.astype(np.float32)
    if toward_zero:
        over = np.abs(f.astype(np.float64)) > np.abs(x64)
        f[over] = np.nextafter(f[over], np.float32(0))
    return f


def tf32x3(a, b, toward_zero, step=None):
    """C = A B as 3xTF32 MMAs (k8 each); with `step`, every `step` of K is
    accumulated from zero and added to the running f32 sum to nearest."""
    ab, bb = tf32_rna(a), tf32_rna(b)
    asm, bsm = tf32_rna(a - ab), tf32_rna(b - bb)
    k = a.shape[1]
    total = np.zeros((a.shape[0], b.shape[1]), np.float32)
    acc = np.zeros_like(total)
    for k0 in range(0, k, 8):
        for x, y in ((asm, bb), (ab, bsm), (ab, bb)):
            s = acc.astype(np.float64) + x[:, k0:k0 + 8].astype(np.float64) @ y[k0:k0 + 8].astype(np.float64)
            acc = to_f32(s, toward_zero)
        if step and (k0 + 8) % step == 0:
            total = (total.astype(np.float64) + acc.astype(np.float64)).astype(np.float32)
            acc = np.zeros_like(acc)
    return total + acc if step else acc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--k", type=int, default=4096)
    ap.add_argument("--mn", type=int, default=32, help="rows and columns of C modelled")
    ap.add_argument("--step", type=int, default=16, help="K per zeroed accumulator (the fix)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    a = rng.standard_normal((args.mn, args.k)).astype(np.float32)
    b = rng.standard_normal((args.k, args.mn)).astype(np.float32)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    err = lambda c: np.abs(c.astype(np.float64) - ref).max() / np.abs(ref).max()
    print(f"K = {args.k}, {args.mn} x {args.mn} of C, randn operands")
    print(f"3xTF32, additions rounded to nearest:       {err(tf32x3(a, b, False)):.2e}")
    print(f"3xTF32, additions truncated:                {err(tf32x3(a, b, True)):.2e}")
    print(f"3xTF32, truncated, zeroed every {args.step:<4d} of K: {err(tf32x3(a, b, True, args.step)):.2e}")


if __name__ == "__main__":
    main()

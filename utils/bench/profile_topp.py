#!/usr/bin/env python3
"""Launches the top-p kernel of a bundle a few times on the bench's inputs
(randn * 4 logits), for a profiler (ncu) to attach to: see
utils/device/topp_check.sh."""
import sys

import torch

import hkg_cuda

_, kernels = hkg_cuda.load_bundle(sys.argv[1])
k = kernels[0]
shape = k.args()[0]["shape"]
torch.manual_seed(0)
x = torch.randn(*shape, device="cuda") * 4
out = torch.empty(shape[0], dtype=torch.int32, device="cuda")
for _ in range(3):
    k(x, out)
torch.cuda.synchronize()
print("tokens", out[:8].tolist())

"""First contact with the GPU machine: versions, ceilings, and one hkg-style
PTX kernel launched from PyTorch through the CUDA driver (utils/bench/hkg_cuda.py)."""
import os
import sys

import torch
import triton

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))
import bench  # noqa: E402
import hkg_cuda  # noqa: E402

print("torch", torch.__version__, "triton", triton.__version__, torch.cuda.get_device_name())
_, ks = hkg_cuda.load_bundle(sys.argv[1])
k = ks[0]
a, b = (torch.randn(1048576, device="cuda") for _ in range(2))
c = torch.full_like(a, float("nan"))
k(a, b, c)
torch.cuda.synchronize()
print("add max abs err", (c - (a + b)).abs().max().item())
print("ceilings copy TB/s, bf16 TFLOP/s:", bench.ceilings())

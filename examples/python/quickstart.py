"""The README's Python quick start, as written there (docs/Python.md)."""
import torch
import torch.nn.functional as F

import hkg

x = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
w = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16) / 64
b = torch.randn(4096, device="cuda", dtype=torch.bfloat16)

# One op, one kernel: compiled for this GPU on first use, cached on disk.
y = hkg.ops.softmax(x, dim=-1)

# A matmul with its epilogue traced from Python: bias + GELU in one kernel.
h = hkg.ops.matmul(x, w, bias=b, epilogue=lambda acc: hkg.math.gelu(acc, "tanh"))

# Any elementwise function of scalars becomes a kernel; inputs broadcast as in torch.
swiglu = hkg.elementwise(lambda g, u: hkg.math.silu(g) * u)
z = swiglu(x, h)

# A whole model through torch.compile: what hkg cannot compile runs in eager.
mlp = torch.nn.Sequential(torch.nn.Linear(4096, 4096), torch.nn.GELU(),
                          torch.nn.Linear(4096, 4096)).cuda().to(torch.bfloat16)
fast = torch.compile(mlp, backend="hkg")
with torch.no_grad():
    out = fast(x)
    print(hkg.explain(mlp, x))        # which aten ops ran in hkg kernels, and why not

ref = F.gelu(x.float() @ w.float() + b.float(), approximate="tanh")
print("softmax ok:", torch.allclose(y.float(), torch.softmax(x.float(), -1), atol=1e-2))
print("matmul+bias+gelu rel err:", ((h.float() - ref).norm() / ref.norm()).item())
with torch.no_grad():
    print("mlp rel err:", ((out.float() - mlp(x).float()).norm() / mlp(x).float().norm()).item())

"""utils/bench/hkg_cuda.py on the fake CUDA driver (test/Runtime/FakeCuda),
without PyTorch or a GPU: a stand-in `torch` module whose "cuda" tensors are
host buffers, so the fake's host kernels compute on them. Prints what
hkg-cuda-sizes.test checks.

    python3 hkg_cuda_sizes.py <utils/bench> <bundle>    (HKG_CUDA_LIBRARY set)
"""
import ctypes
import math
import sys
import types


class Tensor:
    """A dense f32 tensor in host memory, as much of torch.Tensor as
    hkg_cuda uses."""

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), dtype
        self.buf = (ctypes.c_float * max(1, math.prod(self.shape)))()

    def data_ptr(self):
        return ctypes.addressof(self.buf)

    def is_contiguous(self):
        return True


torch = types.ModuleType("torch")
torch.float32, torch.float16, torch.bfloat16, torch.int32, torch.int64 = (
    "float32", "float16", "bfloat16", "int32", "int64")
torch.empty = lambda shape, dtype, device: Tensor(shape, dtype)
torch.zeros = lambda *shape, device: Tensor(shape, torch.float32)
torch.cuda = types.SimpleNamespace(init=lambda: None,
                                   current_stream=lambda: types.SimpleNamespace(cuda_stream=0))
sys.modules["torch"] = torch
sys.path.insert(0, sys.argv[1])
import hkg_cuda  # noqa: E402

_, kernels = hkg_cuda.load_bundle(sys.argv[2])
k = {kern.meta["name"]: kern for kern in kernels}
sized, wide, static = k["k_sized"], k["k_wide"], k["k_static"]
print("dynamic:", sized.dynamic, static.dynamic)
print("shapes at 5:", sized.shapes(5))
print("grid at 5, 9, 0:", sized.launch_grid(5), sized.launch_grid([9]), sized.launch_grid(0))


def attempt(what, fn):
    try:
        fn()
        print(what, "accepted")
    except ValueError as e:
        print(what, "ValueError:", e)


# A launch at 5 rows: the fake kernel reads 5 from the int64 after the
# pointers and writes a softmax of each of the 5 rows.
x = sized.alloc("input", 5)[0]
for i in range(5 * 16):
    x.buf[i] = (i % 7) * 0.5
y = sized.alloc_outputs([x])[0]
for i in range(5 * 16):
    y.buf[i] = float("nan")
print("outputs for", x.shape, "->", y.shape)
sized(x, y)
print("row sums:", [round(sum(y.buf[r * 16:(r + 1) * 16]), 5) for r in range(5)])
# Empty tensors: nothing launched.
x0, y0 = sized.alloc("input", 0)[0], sized.alloc("output", [0])[0]
sized(x0, y0)
print("empty: done")
# The sizes are read from the output; the input must agree.
attempt("5 rows into 4:", lambda: sized(x, sized.alloc("output", 4)[0]))
attempt("rank 1 output:", lambda: sized(x, Tensor([80], torch.float32)))
attempt("wide at 5:", lambda: wide(x, y))
attempt("alloc without sizes:", lambda: sized.alloc("input"))
attempt("negative size:", lambda: sized.shapes(-1))
attempt("two values for one size:", lambda: sized.shapes([1, 2]))
attempt("static with sizes:", lambda: static.alloc("input", 4))
# A static kernel launches as before.
xs = static.alloc("input")[0]
ys = static.alloc_outputs([xs])[0]
static(xs, ys)
print("static: done", ys.shape)

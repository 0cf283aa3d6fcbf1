"""Launch hkg kernels from a bundle inside a PyTorch process (CUDA driver API).

The bundle is what `hkg-compile --chip=sm_90` writes: manifest.json plus one
PTX (or cubin) per kernel. Kernels take bare device pointers in manifest
order (docs/ABI.md), so PyTorch tensors' data pointers are passed directly and
the launch goes on PyTorch's current stream: hkg kernels, eager PyTorch and
Inductor are timed by the same events in the same process.

    manifest, kernels = load_bundle("out/softmax")
    k = kernels[0]
    x = torch.randn(*k.shapes()[0], ...)    # or k.alloc("input")
    y = k.alloc_outputs([x])
    k(x, y)                                  # inputs, then outputs

Kernels with dynamic sizes (docs/ABI.md: the manifest's `sizes` and
`grid_x`, shape entries `{"size": i}`) serve every size with one binary.
Calling one reads size i from the tensors (dim `dim` of arg `arg` of the
`sizes` entry i), checks every tensor against `args` with the sizes filled
in (a mismatch is a ValueError naming the arg), passes the sizes as int64
scalars after the pointers, and launches on grid x = ceil(N * mul / div) *
times, N the product of the sizes; when N == 0 (empty tensors) nothing is
launched. Where the tensors are still to be made, give the sizes:
`shapes(sizes)`, `alloc(role, sizes)` (an int gives every size parameter
that value, as hkg-run's --sizes; a list gives one value per parameter), or
`alloc_outputs(inputs)`, which reads them from the inputs.

`bind(*tensors)` does the checks and builds the parameters once and returns
a function that launches them: what timing loops call. HKG_CUDA_LIBRARY
names another libcuda (a path), as for hkg-run.
"""
import ctypes
import json
import math
import os

import torch

_DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
           "i32": torch.int32, "i64": torch.int64}
# 8-bit operands (issue 30), where this torch has the types.
_DTYPES.update({name: getattr(torch, t) for name, t in (
    ("i8", "int8"), ("f8E4M3FN", "float8_e4m3fn"), ("f8E5M2", "float8_e5m2"))
    if hasattr(torch, t)})
# The launch limit of grid x (CUDA and HIP).
MAX_GRID_X = 2**31 - 1


class CudaError(RuntimeError):
    pass


class _Driver:
    def __init__(self):
        self.lib = ctypes.CDLL(os.environ.get("HKG_CUDA_LIBRARY") or "libcuda.so.1")
        self.lib.cuGetErrorString.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]

    def check(self, rc, what):
        if rc != 0:
            s = ctypes.c_char_p()
            self.lib.cuGetErrorString(rc, ctypes.byref(s))
            raise CudaError(f"{what} failed: {rc} {s.value.decode() if s.value else ''}")


_driver = None


def driver():
    global _driver
    if _driver is None:
        torch.cuda.init()
        torch.zeros(1, device="cuda")  # make the primary context current
        _driver = _Driver()
    return _driver


class Kernel:
    """One kernel of a bundle, launchable on PyTorch tensors."""

    def __init__(self, bundle_dir, entry):
        d = driver()
        self.meta = entry
        self.grid = tuple(entry["grid"])  # x is None with dynamic sizes
        self.block = tuple(entry["block"])
        self.sizes = entry.get("sizes", [])
        with open(os.path.join(bundle_dir, entry["binary"]), "rb") as f:
            image = f.read()
        if entry["binary"].endswith(".ptx") and not image.endswith(b"\0"):
            image += b"\0"
        self._image = ctypes.create_string_buffer(image, len(image))
        self.module = ctypes.c_void_p()
        d.check(d.lib.cuModuleLoadData(ctypes.byref(self.module), self._image),
                f"cuModuleLoadData({entry['binary']})")
        self.func = ctypes.c_void_p()
        d.check(d.lib.cuModuleGetFunction(ctypes.byref(self.func), self.module,
                                          entry["entry"].encode()),
                f"cuModuleGetFunction({entry['entry']})")
        # Dynamic shared memory (docs/ABI.md): above 48 KiB the kernel must
        # opt in (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8).
        self.dynamic_lds = int(entry.get("dynamic_lds_bytes", 0))
        if self.dynamic_lds > 48 * 1024:
            d.check(d.lib.cuFuncSetAttribute(self.func, ctypes.c_int(8), ctypes.c_int(self.dynamic_lds)),
                    f"cuFuncSetAttribute({entry['entry']}, MAX_DYNAMIC_SHARED_SIZE_BYTES, {self.dynamic_lds})")

    @property
    def dynamic(self):
        """Whether the kernel has dynamic sizes (size parameters)."""
        return bool(self.sizes)

    def args(self):
        return self.meta["args"]

    def size_values(self, sizes):
        """One value per size parameter: `sizes` is an int (every parameter
        takes it) or a sequence (one each); None and [] for a static
        kernel."""
        name = self.meta["name"]
        if not self.dynamic:
            if sizes:
                raise ValueError(f"{name}: a kernel without dynamic sizes takes no sizes, got {sizes}")
            return []
        if sizes is None:
            raise ValueError(f"{name} has dynamic sizes: give their values (sizes=)")
        values = [sizes] * len(self.sizes) if isinstance(sizes, int) else [int(v) for v in sizes]
        if len(values) != len(self.sizes) or any(v < 0 for v in values):
            raise ValueError(f"{name}: expected {len(self.sizes)} non-negative size value(s), got {sizes}")
        return values

    def shapes(self, sizes=None):
        """Every arg's shape, the dims `{"size": i}` taking size i's value."""
        values = self.size_values(sizes)
        return [[values[d["size"]] if isinstance(d, dict) else d for d in a["shape"]]
                for a in self.meta["args"]]

    def launch_grid(self, sizes=None):
        """The grid to launch with: grid x by the grid_x rule for a kernel
        with dynamic sizes, 0 when the sizes make the tensors empty."""
        values = self.size_values(sizes)
        if not self.dynamic:
            return self.grid
        n = math.prod(values)
        rule = self.meta["grid_x"]
        x = -(-n * rule["mul"] // rule["div"]) * rule["times"]
        if x > MAX_GRID_X:
            raise ValueError(f"{self.meta['name']}: grid x {x} for sizes {values} is above 2^31 - 1")
        return (x,) + self.grid[1:]

    def alloc(self, role, sizes=None):
        """Uninitialised tensors for the args of `role` ("input" or
        "output"), at `sizes` for a kernel with dynamic sizes."""
        return [torch.empty(shape, dtype=_DTYPES[a["dtype"]], device="cuda")
                for a, shape in zip(self.meta["args"], self.shapes(sizes)) if a["role"] == role]

    def input_sizes(self, inputs):
        """The size values as the inputs have them: size i from the first
        input dim that is `{"size": i}` (None for a static kernel)."""
        if not self.dynamic:
            return None
        values = [None] * len(self.sizes)
        ins = [a for a in self.meta["args"] if a["role"] == "input"]
        for i, (t, a) in enumerate(zip(inputs, ins)):
            if len(t.shape) != len(a["shape"]):
                raise ValueError(f"{self.meta['name']}: arg {i} (input): tensor {tuple(t.shape)} "
                                 f"is not of rank {len(a['shape'])}")
            for extent, d in zip(t.shape, a["shape"]):
                if isinstance(d, dict) and values[d["size"]] is None:
                    values[d["size"]] = int(extent)
        if None in values:
            raise ValueError(f"{self.meta['name']}: size {values.index(None)} is not a dim of an input; "
                             "give the sizes")
        return values

    def alloc_outputs(self, inputs):
        """Uninitialised outputs for `inputs` (their sizes, for a kernel
        with dynamic sizes)."""
        return self.alloc("output", self.input_sizes(inputs))

    def bind(self, *tensors):
        """Checks `tensors` (one per arg: inputs, then outputs) against the
        manifest and builds the launch once; returns a function launching it
        on the current stream (one that launches nothing when the tensors
        are empty)."""
        name, metas = self.meta["name"], self.meta["args"]
        if len(tensors) != len(metas):
            raise ValueError(f"{name}: expected {len(metas)} tensors, got {len(tensors)}")
        for i, (t, a) in enumerate(zip(tensors, metas)):
            if len(t.shape) != len(a["shape"]):
                raise ValueError(f"{name}: arg {i} ({a['role']}): tensor {tuple(t.shape)} "
                                 f"is not of rank {len(a['shape'])}")
        values = [int(tensors[s["arg"]].shape[s["dim"]]) for s in self.sizes]
        for i, (t, a, shape) in enumerate(zip(tensors, metas, self.shapes(values or None))):
            if list(t.shape) != shape or t.dtype != _DTYPES[a["dtype"]] or not t.is_contiguous():
                raise ValueError(f"{name}: arg {i} ({a['role']}): tensor {tuple(t.shape)} {t.dtype} "
                                 f"does not match {a['dtype']} {shape}" + (f" (sizes {values})" if values else ""))
        grid = self.launch_grid(values or None)
        if grid[0] == 0:
            return lambda: None
        # kernelParams: a pointer to each value, the pointers then the sizes.
        args = [ctypes.c_void_p(t.data_ptr()) for t in tensors] + [ctypes.c_int64(v) for v in values]
        params = (ctypes.c_void_p * len(args))(*[ctypes.cast(ctypes.byref(a), ctypes.c_void_p) for a in args])
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        d = driver()
        dims = [ctypes.c_uint(x) for x in grid + self.block]
        lds = ctypes.c_uint(self.dynamic_lds)

        def launch():
            rc = d.lib.cuLaunchKernel(self.func, *dims, lds, stream, params, None)
            if rc != 0:
                d.check(rc, f"cuLaunchKernel({name})")
            return args  # kept alive with the closure
        return launch

    def __call__(self, *tensors):
        self.bind(*tensors)()


def load_bundle(bundle_dir):
    with open(os.path.join(bundle_dir, "manifest.json")) as f:
        manifest = json.load(f)
    return manifest, [Kernel(bundle_dir, k) for k in manifest["kernels"]]

"""Launch hkg kernels from a bundle inside a PyTorch process (CUDA driver API).

The bundle is what `hkg-compile --chip=sm_90` writes: manifest.json plus one
PTX (or cubin) per kernel. Kernels take bare device pointers in manifest
order (docs/ABI.md), so PyTorch tensors' data pointers are passed directly and
the launch goes on PyTorch's current stream: hkg kernels, eager PyTorch and
Inductor are timed by the same events in the same process.
"""
import ctypes
import json
import os

import torch

_DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
           "i32": torch.int32, "i64": torch.int64}


class CudaError(RuntimeError):
    pass


class _Driver:
    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")
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
        self.grid = tuple(entry["grid"])
        self.block = tuple(entry["block"])
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

    def args(self):
        return self.meta["args"]

    def alloc(self, role):
        return [torch.empty(a["shape"], dtype=_DTYPES[a["dtype"]], device="cuda")
                for a in self.meta["args"] if a["role"] == role]

    def __call__(self, *tensors):
        metas = self.meta["args"]
        if len(tensors) != len(metas):
            raise ValueError(f"{self.meta['name']}: expected {len(metas)} tensors, got {len(tensors)}")
        for t, a in zip(tensors, metas):
            if list(t.shape) != list(a["shape"]) or t.dtype != _DTYPES[a["dtype"]] or not t.is_contiguous():
                raise ValueError(f"{self.meta['name']}: tensor {tuple(t.shape)} {t.dtype} does not match {a}")
        ptrs = [ctypes.c_void_p(t.data_ptr()) for t in tensors]
        params = (ctypes.c_void_p * len(ptrs))(*[ctypes.cast(ctypes.byref(p), ctypes.c_void_p) for p in ptrs])
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        d = driver()
        d.check(d.lib.cuLaunchKernel(self.func, *[ctypes.c_uint(x) for x in self.grid],
                                     *[ctypes.c_uint(x) for x in self.block],
                                     ctypes.c_uint(self.dynamic_lds), stream, params, None),
                f"cuLaunchKernel({self.meta['name']})")


def load_bundle(bundle_dir):
    with open(os.path.join(bundle_dir, "manifest.json")) as f:
        manifest = json.load(f)
    return manifest, [Kernel(bundle_dir, k) for k in manifest["kernels"]]

#!/usr/bin/env python3
"""Runs utils/tuning/measure.py without a GPU, to check it before the one
device call: torch on the CPU, stand-ins for triton and for the CUDA driver.

    python3 utils/tuning/test_measure_cpu.py --tuning .carry/tuning --out /tmp/m [measure.py args]

The stand-in "kernel" writes the float64 reference rounded to the output type
(so `ok`), except: every 7th candidate writes garbage (`wrong`), every 11th
leaves its output unwritten (`wrong`: poison), and the candidate named by
--fault raises a launch error (a `fault`, then exit 75 as on a dead context).
The inputs, references, records, resume and restart logic are measure.py's own.
"""
import os
import sys
import time
import types

import torch

HERE = os.path.dirname(os.path.abspath(__file__))

# triton stand-in: times fn() on the host.
triton = types.ModuleType("triton")
testing = types.ModuleType("triton.testing")


def do_bench(fn, warmup=25, rep=100, return_mode="mean", quantiles=None):
    ts = []
    for _ in range(5):
        t = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t) * 1e3)
    if quantiles:
        s = sorted(ts)
        return [s[int(q * (len(s) - 1))] for q in quantiles]
    assert return_mode in ("min", "max", "mean", "median", "all")
    return ts if return_mode == "all" else sorted(ts)[len(ts) // 2]


testing.do_bench = do_bench
triton.testing = testing
triton.__version__ = "stand-in"
sys.modules["triton"] = triton
sys.modules["triton.testing"] = testing

torch.cuda.synchronize = lambda: None
torch.cuda.empty_cache = lambda: None
torch.cuda.get_device_name = lambda: "CPU stand-in"
torch.cuda.current_stream = lambda: types.SimpleNamespace(cuda_stream=0)

FAULT = None
if "--fault" in sys.argv:
    i = sys.argv.index("--fault")
    FAULT = sys.argv[i + 1]
    del sys.argv[i:i + 2]

sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "bench"))
import hkg_cuda  # noqa: E402  (imports torch only)
import measure  # noqa: E402

measure.DEVICE = "cpu"
LAST = {}
_make_case = measure.make_case


def make_case(g, gen):
    r = _make_case(g, gen)
    LAST["ref"] = r[1]
    return r


measure.make_case = make_case


class FakeKernel:
    count = 0

    def __init__(self, bundle_dir, meta):
        if not os.path.exists(os.path.join(bundle_dir, meta["binary"])):
            raise hkg_cuda.CudaError("cuModuleLoadData: no such binary")
        self.meta, self.grid, self.block = meta, tuple(meta["grid"]), tuple(meta["block"])
        self.module = self.func = None


class FakeDriver:
    lib = types.SimpleNamespace(cuModuleUnload=lambda m: 0)


hkg_cuda.Kernel = FakeKernel
hkg_cuda.driver = lambda: FakeDriver()


def bind(self, tensors):
    FakeKernel.count += 1
    n = FakeKernel.count
    out = tensors[-1]
    name = self.k.meta["name"]

    def run():
        if FAULT and FAULT in CURRENT["id"]:
            raise hkg_cuda.CudaError("cuLaunchKernel failed: 700 an illegal memory access was encountered")
        if n % 11 == 0:
            return
        if n % 7 == 0:
            out.copy_(torch.randn(out.shape).to(out.dtype))
            return
        out.copy_(LAST["ref"].to(out.dtype))
    run.__name__ = name
    return run


measure.Loaded.bind = bind
CURRENT = {"id": ""}
_set_pending = measure.Writer.set_pending


def set_pending(self, cid, reason="died while measuring"):
    CURRENT["id"] = cid
    _set_pending(self, cid, reason)


measure.Writer.set_pending = set_pending

if __name__ == "__main__":
    sys.exit(measure.main())

#!/usr/bin/env python3
"""Runs one function of IREE modules (.vmfb) on the same random inputs with
IREE's runtime, compares their outputs with the first module's and times
each (docs/IREE.md).

    run_vmfb.py --device=cuda --function=mlp iree_alone.vmfb with_hkg.vmfb

The inputs follow the function's signature (its `iree.abi.declaration`):
floats drawn from N(0, 1) times --scale, integers from [0, 8). Each module
is timed over --reps calls after --warmup, inputs already on the device; a
call of a `sync` function returns when its work is done. Prints one line per
module: median and minimum milliseconds, and for the second module on its
largest difference from the first (absolute, and relative to the first's
largest magnitude). Exit status 1 when a difference exceeds --tolerance.
"""

import argparse
import re
import statistics
import sys
import time

import numpy as np

try:
    import iree.runtime as rt
    import ml_dtypes
except ImportError as e:  # pragma: no cover - depends on the environment
    sys.exit(f"run_vmfb.py: {e}: install iree-base-runtime and ml_dtypes "
             "(utils/frontend/requirements.txt)")

DTYPES = {
    "f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16,
    "f64": np.float64, "i64": np.int64, "i32": np.int32, "i8": np.int8,
    "i1": np.bool_,
}


def parse_inputs(declaration):
    """[(shape, dtype name)] of the function's tensor inputs."""
    args = declaration.split("->", 1)[0]
    inputs = []
    for m in re.finditer(r"tensor<([^>]*)>", args):
        *dims, dtype = m.group(1).split("x")
        if any(not d.isdigit() for d in dims):
            sys.exit(f"run_vmfb.py: dynamic or unknown shape: {m.group(0)}")
        inputs.append(([int(d) for d in dims], dtype))
    return inputs


def make_inputs(specs, scale, seed):
    rng = np.random.default_rng(seed)
    arrays = []
    for shape, dtype in specs:
        if dtype not in DTYPES:
            sys.exit(f"run_vmfb.py: no random inputs of type {dtype}")
        if dtype.startswith("f") or dtype == "bf16":
            a = (rng.standard_normal(shape) * scale).astype(np.float32)
        else:
            a = rng.integers(0, 8, size=shape)
        arrays.append(a.astype(DTYPES[dtype]))
    return arrays


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("vmfbs", nargs="+")
    p.add_argument("--function", required=True)
    p.add_argument("--device", default="local-task",
                   help="IREE driver: cuda, hip, local-task, ...")
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--scale", type=float, default=0.1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--tolerance", type=float, default=2e-2,
                   help="largest relative difference from the first module")
    a = p.parse_args()

    config = rt.Config(a.device)
    device = config.device
    inputs = None
    first = None
    bad = False
    for path in a.vmfbs:
        ctx = rt.SystemContext(config=config)
        vm_module = rt.VmModule.mmap(config.vm_instance, path)
        ctx.add_vm_module(vm_module)
        fn = ctx.modules[vm_module.name][a.function]
        if inputs is None:
            decl = vm_module.lookup_function(a.function).reflection[
                "iree.abi.declaration"]
            host = make_inputs(parse_inputs(decl), a.scale, a.seed)
            inputs = [rt.asdevicearray(device, x) for x in host]
        for _ in range(a.warmup):
            fn(*inputs)
        times = []
        for _ in range(a.reps):
            t = time.perf_counter()
            out = fn(*inputs)
            times.append((time.perf_counter() - t) * 1e3)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        outs = [np.asarray(o.to_host()).astype(np.float64) for o in outs]
        line = (f"{path}: {a.function} median {statistics.median(times):.3f} "
                f"ms, min {min(times):.3f} ms")
        if first is None:
            first = outs
        else:
            for i, (x, ref) in enumerate(zip(outs, first)):
                diff = float(np.max(np.abs(x - ref))) if x.size else 0.0
                peak = float(np.max(np.abs(ref))) if ref.size else 0.0
                rel = diff / peak if peak else diff
                ok = np.isfinite(x).all() and rel <= a.tolerance
                bad |= not ok
                line += (f"; output {i}: max |diff| {diff:.4g} ({rel:.3g} of "
                         f"max |ref| {peak:.4g}){'' if ok else ' MISMATCH'}")
        print(line, flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

"""Whole PyTorch programs: hkg's bundle against eager and Inductor, one run.

For each program of utils/frontend/torch_import.py (its SPECS) that has a
bundle in BUNDLES/<name> (`hkg-compile test/Inputs/torch/<name>.mlir
--chip=sm_90 -o BUNDLES/<name>`), on the same seeded random inputs and
weights:

- the float64 reference: the module and its inputs in float64, on the GPU;
- eager: the module as built; Inductor: `torch.compile(mode=
  "max-autotune-no-cudagraphs")`;
- hkg: the manifest's launch plan (docs/ABI.md, "Launch plan") launched with
  hkg_cuda on the same tensors (the function's arguments are the module's
  inputs, then its parameters in `named_parameters()` order; intermediates
  live in one arena at the plan's offsets), and each of its kernels alone on
  the same buffers (the sum says what the plan adds).

Outputs are poisoned (NaN) before hkg runs. Errors are max |out - ref| /
max |ref| against the float64 reference; hkg passes when its error is at
most twice eager's or within the output dtype's tolerance (bench.TOL),
whichever is larger. Times are bench.bench's (median of device events, L2
flushed before each call). Writes OUT/NAME.md (the table) and
OUT/NAME.json.

    python3 utils/bench/torch_programs.py BUNDLES [--programs mlp,...] \
        [--out DIR] [--name torch_programs] [--no-inductor]

With `--backend=hkg` (BUNDLES unused: pass -) hkg is the Python package's
`torch.compile(module, backend="hkg")` instead of a bundle (the aten graph
mapped to hkg ops in Python, docs/Python.md), on the same inputs, and the
row also says: the first call's wall time (dynamo, AOT tracing, hkg's
mapping and compiling, or the disk cache's bundles), the part of it inside
the backend, the disk cache's misses (compilations), and the share of the
call's GPU time in hkg kernels (torch.profiler: kernels named hkg_*). Run it
twice on one HKG_CACHE_DIR for a cold and a warm start.

The machine needs torch (and Triton for Inductor and bench.bench); no
torch-mlir: the modules are only built here, not imported.
"""
import argparse
import copy
import json
import math
import os
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "frontend"))
import hkg_cuda  # noqa: E402
from bench import TOL, bench  # noqa: E402
import torch_import  # noqa: E402

_DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
           "i32": torch.int32, "i64": torch.int64, "f64": torch.float64}


def make_program(spec, seed):
    """The module (random weights, seeded) and its example inputs (random
    values of the import's shapes and dtypes)."""
    torch.manual_seed(seed)
    module, named_inputs = spec.build()
    module = module.cuda().eval()
    with torch.no_grad():
        for p in module.parameters():
            if p.dtype.is_floating_point:
                # Weights scaled like an initialized layer's: the outputs stay
                # O(1) through matmuls of thousands of terms.
                fan_in = p.shape[-1] if p.dim() > 1 else 1
                p.copy_(torch.randn_like(p, dtype=torch.float32).mul_(
                    1.0 / math.sqrt(fan_in)).to(p.dtype) if p.dim() > 1
                    else (1.0 + 0.1 * torch.randn_like(p, dtype=torch.float32)).to(p.dtype))
    inputs = []
    for _, t in named_inputs:
        if t.dtype.is_floating_point:
            inputs.append(torch.randn(t.shape, dtype=t.dtype, device="cuda"))
        else:
            inputs.append(torch.randint(0, t.shape[-1] if t.dim() else 2, t.shape,
                                        dtype=t.dtype, device="cuda"))
    return module, inputs


def reference(module, inputs):
    """The module run in float64 (a copy), on float64 inputs."""
    m64 = copy.deepcopy(module).double()
    args = [x.double() if x.dtype.is_floating_point else x for x in inputs]
    with torch.no_grad():
        return m64(*args)


class Plan:
    """A manifest plan bound to tensors: launch() runs its steps in order."""

    def __init__(self, bundle, plan, args):
        manifest, kernels = hkg_cuda.load_bundle(bundle)
        by_name = {k.meta["name"]: k for k in kernels}
        self.plan = plan
        if len(args) != len(plan["inputs"]):
            raise ValueError(f"plan {plan['function']}: {len(plan['inputs'])} inputs, "
                             f"got {len(args)} tensors")
        t = {}
        for a, meta in zip(args, plan["inputs"]):
            want = (list(meta["shape"]), _DTYPES[meta["dtype"]])
            if (list(a.shape), a.dtype) != want:
                raise ValueError(f"{meta['name']}: {tuple(a.shape)} {a.dtype}, plan wants {want}")
            t[meta["name"]] = a.contiguous()
        self.arena = torch.empty(max(int(plan.get("arena_bytes", 0)), 1), dtype=torch.uint8,
                                 device="cuda")
        self.outputs = {}
        for b in plan["buffers"]:
            dtype, shape = _DTYPES[b["dtype"]], list(b["shape"])
            if b["kind"] == "intermediate":
                n = math.prod(shape) * torch.tensor([], dtype=dtype).element_size()
                off = int(b["offset"])
                t[b["name"]] = self.arena[off:off + n].view(dtype).view(shape)
            else:
                t[b["name"]] = torch.empty(shape, dtype=dtype, device="cuda")
                self.outputs[b["name"]] = t[b["name"]]
        for v in plan.get("views", []):
            t[v["name"]] = t[v["of"]].view(list(v["shape"]))
        self.tensors = t
        self.steps = []
        for s in plan["steps"]:
            k = by_name[s["kernel"]]
            self.steps.append((s["kernel"], k.bind(*[t[a] for a in s["args"]])))

    def launch(self):
        for _, f in self.steps:
            f()

    def results(self):
        return [self.tensors[o["value"]] for o in self.plan["outputs"]]

    def poison(self):
        for o in self.outputs.values():
            if o.dtype.is_floating_point:
                o.fill_(float("nan"))


def rel_err(out, ref):
    ref = ref.double()
    out = out.double()
    scale = ref.abs().max().item() or 1.0
    return (out - ref).abs().max().item() / scale


def run_program(spec, bundle, args, log):
    module, inputs = make_program(spec, args.seed)
    params = [p.detach() for p in module.parameters()]
    with open(os.path.join(bundle, "manifest.json")) as f:
        manifest = json.load(f)
    plans = [p for p in manifest.get("plans", []) if "steps" in p]
    if not plans:
        raise RuntimeError(f"{bundle}: no launch plan ({manifest.get('plans')})")
    plan = Plan(bundle, plans[0], inputs + params)
    ref = reference(module, inputs)
    with torch.no_grad():
        eager_out = module(*inputs)
    plan.poison()
    plan.launch()
    torch.cuda.synchronize()
    hkg_out = plan.results()[0]
    err_hkg, err_eager = rel_err(hkg_out, ref), rel_err(eager_out, ref)
    tol = max(2 * err_eager, TOL.get(hkg_out.dtype, 1e-2))
    ok = math.isfinite(err_hkg) and err_hkg <= tol
    row = {"program": spec.name, "kernels": len(plan.steps), "err_hkg": err_hkg,
           "err_eager": err_eager, "ok": ok}
    with torch.no_grad():
        row["eager_us"] = bench(lambda: module(*inputs)) * 1e6
        row["hkg_us"] = bench(plan.launch) * 1e6
        row["kernels_us"] = sum(bench(f) * 1e6 for _, f in plan.steps)
        if not args.no_inductor:
            compiled = torch.compile(module, mode="max-autotune-no-cudagraphs")
            compiled(*inputs)
            ind_out = compiled(*inputs)
            row["err_inductor"] = rel_err(ind_out, ref)
            row["inductor_us"] = bench(lambda: compiled(*inputs)) * 1e6
    log(json.dumps(row))
    return row


def run_hkg_backend(spec, args, log):
    import hkg
    module, inputs = make_program(spec, args.seed)
    ref = reference(module, inputs)
    with torch.no_grad():
        eager_out = module(*inputs)
    backend_s = []

    def timed_backend(gm, example_inputs):
        start = time.perf_counter()
        compiled_fn = hkg.backend(gm, example_inputs)
        backend_s.append(time.perf_counter() - start)
        return compiled_fn

    misses = hkg.cache.stats()["misses"]
    compiled = torch.compile(module, backend=timed_backend, dynamic=False)
    with torch.no_grad():
        start = time.perf_counter()
        out = compiled(*inputs)
        torch.cuda.synchronize()
        first_call_s = time.perf_counter() - start
        out = compiled(*inputs)
        torch.cuda.synchronize()
    report = hkg.backend.last_report()
    err_hkg, err_eager = rel_err(out, ref), rel_err(eager_out, ref)
    tol = max(2 * err_eager, TOL.get(out.dtype, 1e-2))
    row = {"program": spec.name, "backend": "hkg", "err_hkg": err_hkg,
           "err_eager": err_eager, "ok": math.isfinite(err_hkg) and err_hkg <= tol,
           "first_call_s": first_call_s, "backend_s": sum(backend_s),
           "compilations": hkg.cache.stats()["misses"] - misses,
           "stats": report.stats if report is not None else None}
    with torch.no_grad():
        # GPU time by kernel name over one call.
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            compiled(*inputs)
            torch.cuda.synchronize()
        total = hkg_time = 0.0
        kernels = 0
        for e in prof.key_averages():
            t = getattr(e, "device_time_total", None) or getattr(e, "cuda_time_total", 0)
            if t <= 0 or e.key.startswith("cudaMemcpy") or e.key.startswith("Memcpy"):
                continue
            total += t
            if e.key.startswith("hkg_"):
                hkg_time += t
                kernels += e.count
        row["kernels"] = kernels
        row["hkg_kernel_share"] = hkg_time / total if total else float("nan")
        row["eager_us"] = bench(lambda: module(*inputs)) * 1e6
        row["hkg_us"] = bench(lambda: compiled(*inputs)) * 1e6
        row["kernels_us"] = hkg_time  # one call's hkg kernels, by the profiler
        if not args.no_inductor:
            ind = torch.compile(module, mode="max-autotune-no-cudagraphs")
            ind(*inputs)
            row["err_inductor"] = rel_err(ind(*inputs), ref)
            row["inductor_us"] = bench(lambda: ind(*inputs)) * 1e6
    log(json.dumps(row))
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bundles")
    ap.add_argument("--programs", default=",".join(s.name for s in torch_import.SPECS))
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--name", default="torch_programs")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-inductor", action="store_true")
    ap.add_argument("--backend", choices=["bundle", "hkg"], default="bundle")
    args = ap.parse_args()
    specs = {s.name: s for s in torch_import.SPECS}
    rows, failures = [], 0
    log = lambda s: print(s, flush=True)  # noqa: E731
    log(f"{torch.cuda.get_device_name()} torch {torch.__version__}")
    for name in args.programs.split(","):
        bundle = os.path.join(args.bundles, name)
        if args.backend == "bundle" and not os.path.exists(os.path.join(bundle, "manifest.json")):
            log(f"{name}: no bundle at {bundle}, skipped")
            continue
        start = time.time()
        try:
            row = (run_hkg_backend(specs[name], args, log) if args.backend == "hkg"
                   else run_program(specs[name], bundle, args, log))
        except Exception as e:  # one program's failure is reported, the rest run
            log(f"{name}: FAILED: {type(e).__name__}: {e}")
            rows.append({"program": name, "ok": False, "error": str(e)})
            failures += 1
            continue
        failures += 0 if row["ok"] else 1
        rows.append(row)
        log(f"{name}: {time.time() - start:.1f} s")
    lines = [f"{torch.cuda.get_device_name()}, torch {torch.__version__}, seed {args.seed}, "
             f"hkg: {'torch.compile(backend=hkg)' if args.backend == 'hkg' else 'bundle plans'}", "",
             "| program | kernels | hkg us | sum of kernels us | plan / sum | eager us | Inductor us "
             "| hkg / eager | hkg / Inductor | err hkg | err eager | err Inductor | ok |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "hkg_us" not in r:
            lines.append(f"| {r['program']} | | | | | | | | | | | | FAILED: {r.get('error', '')} |")
            continue
        ind = r.get("inductor_us")
        lines.append(
            f"| {r['program']} | {r['kernels']} | {r['hkg_us']:.1f} | {r['kernels_us']:.1f} "
            f"| {r['hkg_us'] / r['kernels_us']:.3f} | {r['eager_us']:.1f} "
            f"| {ind:.1f} | {r['eager_us'] / r['hkg_us']:.2f}x | {ind / r['hkg_us']:.2f}x "
            if ind else
            f"| {r['program']} | {r['kernels']} | {r['hkg_us']:.1f} | {r['kernels_us']:.1f} "
            f"| {r['hkg_us'] / r['kernels_us']:.3f} | {r['eager_us']:.1f} | | "
            f"{r['eager_us'] / r['hkg_us']:.2f}x | ")
        lines[-1] += (f"| {r['err_hkg']:.2e} | {r['err_eager']:.2e} "
                      f"| {r.get('err_inductor', float('nan')):.2e} | {'yes' if r['ok'] else 'NO'} |")
    if args.backend == "hkg":
        lines += ["", "| program | first call s | in the backend s | compilations | hkg kernel share of GPU time |",
                  "|---|---|---|---|---|"]
        for r in rows:
            if "first_call_s" in r:
                lines.append(f"| {r['program']} | {r['first_call_s']:.2f} | {r['backend_s']:.2f} "
                             f"| {r['compilations']} | {r['hkg_kernel_share']:.3f} |")
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, args.name + ".md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(args.out, args.name + ".json"), "w") as f:
        json.dump(rows, f, indent=1)
    print("\n".join(lines))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

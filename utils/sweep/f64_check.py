"""The f64 cases of the sweep (bundle ew_f64 of utils/sweep/make_sweep.py) checked through PyTorch, on the
GPU: hkg-run refuses every manifest with an f64 argument (lib/Runtime/Bundle.cpp, readArg: 'expected one
of f32, f16, bf16, f64, ... got 'f64'', exit 3; docs/perf/README.md, 2026-12-05), so until that is fixed
these kernels are launched here (utils/bench/hkg_cuda.py) on fresh random inputs in [-3, 3), outputs
poisoned with NaN, against float64 references in PyTorch, with hkg-run's norm-wise tolerances
(docs/Runtime.md).
    python3 utils/sweep/f64_check.py SWEEP_DIR [OUT_JSON]
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))
import hkg_cuda  # noqa: E402

hkg_cuda._DTYPES["f64"] = torch.float64
NORM_TOL = {"f64": 1e-12, "f32": 1e-5, "f16": 1e-3, "bf16": 1e-2}
REFS = {  # kernel name prefix (make_sweep.py's ew_f64_cases) -> float64 reference
    "exp_f64_to_f32": lambda x: torch.exp(x),
    "exp_f64": lambda x: torch.exp(x),
    "rowscale_f32_f64": lambda x, s: x * s[:, None],
}


def main():
    sweep, out = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
    index = [e for e in json.load(open(os.path.join(sweep, "index.json"))) if e["family"] == "ew_f64"]
    manifest, kernels = hkg_cuda.load_bundle(os.path.join(sweep, "ew_f64"))
    assert len(index) == len(kernels), (len(index), len(kernels))
    gen = torch.Generator(device="cuda").manual_seed(0)
    results, failed = [], 0
    for e, k in zip(index, kernels):
        ref_fn = next(f for p, f in REFS.items() if e["kernel"].startswith(p))
        ins = [(torch.rand(a["shape"], generator=gen, device="cuda", dtype=torch.float64) * 6 - 3)
               .to(hkg_cuda._DTYPES[a["dtype"]]) for a in k.args() if a["role"] == "input"]
        outs = k.alloc("output")
        for o in outs:
            o.fill_(float("nan"))
        k(*ins, *outs)
        torch.cuda.synchronize()
        ref = ref_fn(*[x.double() for x in ins])
        got = outs[0].double()
        dtype = [a["dtype"] for a in k.args() if a["role"] == "output"][0]
        nans = int(torch.isnan(got).sum())
        err = float(torch.linalg.vector_norm(got.nan_to_num(0) - ref) / torch.linalg.vector_norm(ref))
        ok = nans == 0 and err <= NORM_TOL[dtype]
        failed += not ok
        results.append(dict(kernel=e["kernel"], name=k.meta["name"], dtype=dtype, norm_rel_error=err, nans=nans,
                            status="pass" if ok else "fail", schedule=k.meta.get("schedule", {})))
        print(f"{e['kernel']:40s} {k.meta['name']:22s} {dtype:4s} {'PASS' if ok else 'FAIL'} "
              f"err {err:.2e} (tol {NORM_TOL[dtype]:.0e}) nan {nans}", flush=True)
    print(f"{len(results) - failed} of {len(results)} f64 kernel(s) passed")
    if out:
        json.dump(results, open(out, "w"), indent=0)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

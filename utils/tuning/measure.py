#!/usr/bin/env python3
"""Measure the tuning-dataset candidates on the GPU (runs on the H200 machine).

    python3 utils/tuning/measure.py --tuning .carry/tuning --out DIR
        [--deadline UNIX_SECONDS] [--warmup-ms 5] [--rep-ms 20]
        [--candidate-timeout 30] [--limit N]

Reads TUNING/index.json (written by make_candidates.py) and the bundles under
TUNING/bundles. For each shape group: fresh random inputs (never zeros) and a
float64 torch reference, made once and shared by the group's candidates. For
each candidate: load its cubin, fill the output with NaN (poison), launch,
check against the reference (norm-wise relative error, utils/bench/bench.py's
tolerances; NaN or unwritten elements fail), then time it with
triton.testing.do_bench (cold L2, device events; the median of the timings,
as return_mode="median" computes it).

Writes DIR/records.jsonl, one `hkg-tune import` record per candidate, and
DIR/progress.jsonl (candidate id, status, message). Both are appended and
flushed per candidate, so nothing measured is lost; a second run with the same
DIR resumes after the last candidate done. A candidate that kills the process
(segfault) or hangs past --candidate-timeout is recorded as fault / timeout
by the next run (DIR/pending.json). A CUDA error that may have poisoned the
context ends the process with exit code 75 after recording the candidate:
run again (utils/device/sweep.sh dataset loops) to continue with a fresh context.
Exit 0: every candidate done, or the deadline reached.
"""
import argparse
import json
import math
import os
import sys
import threading
import time

import torch
import torch.nn.functional as F
import triton
import triton.testing

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
import hkg_cuda  # noqa: E402

# utils/bench/bench.py's norm-wise tolerances, by element type of the output.
TOL = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1e-2}
DT = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
RESTART = 75
DEVICE = "cuda"  # utils/tuning/test_measure_cpu.py swaps it


def now_iso():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


# ---------------------------------------------------------------------------
# Inputs and float64 references per group.
# ---------------------------------------------------------------------------

def gelu64(v):
    return 0.5 * v * (1 + torch.tanh(0.7978845608 * (v + 0.044715 * v ** 3)))


def make_case(g, gen):
    """(inputs, reference as float64, output dtype, output shape)."""
    dt = DT[g["dtype"]]
    shape = g["shape"]

    def randn(*s, scale=1.0, shift=0.0):
        x = torch.randn(*s, device=DEVICE, dtype=torch.float32, generator=gen) * scale + shift
        return x.to(dt)

    def unif(lo, hi, *s, dtype=None):
        x = torch.rand(*s, device=DEVICE, dtype=torch.float32, generator=gen) * (hi - lo) + lo
        return x.to(dtype or dt)

    k = g["kind"]
    if k == "elementwise":
        b = g["body"]
        if b == "gelu":
            x = unif(-3, 3, *shape)
            return [x], gelu64(x.double()), dt, shape
        if b == "bias_gelu":
            x, bias = unif(-3, 3, *shape), unif(-1, 1, shape[-1])
            return [x, bias], gelu64(x.double() + bias.double()), dt, shape
        if b == "swiglu":
            gt, up = unif(-3, 3, *shape), unif(-3, 3, *shape)
            g64 = gt.double()
            return [gt, up], g64 / (1 + torch.exp(-g64)) * up.double(), dt, shape
    if k == "softmax":
        x = unif(-6, 6, *shape)
        return [x], torch.softmax(x.double(), dim=-1), dt, shape
    if k == "layernorm":
        c = shape[-1]
        x, w, b = unif(-1.5, 2.5, *shape), unif(0.5, 1.5, c), unif(-0.5, 0.5, c)
        return [x, w, b], F.layer_norm(x.double(), (c,), w.double(), b.double(), 1e-5), dt, shape
    if k == "rmsnorm":
        c = shape[-1]
        x, w = unif(-1, 1, *shape), unif(0.5, 1.5, c)
        x64 = x.double()
        ref = x64 * torch.rsqrt(x64.pow(2).mean(-1, keepdim=True) + 1e-6) * w.double()
        return [x, w], ref, dt, shape
    if k == "rope":
        bsz, s, h, d = shape
        d2 = d // 2
        inv = 1.0 / (10000 ** (torch.arange(d2, device=DEVICE, dtype=torch.float64) / d2))
        ang = torch.arange(s, device=DEVICE, dtype=torch.float64)[:, None] * inv[None, :]
        cos, sin = ang.cos().float(), ang.sin().float()
        x = unif(-1, 1, *shape)
        x64 = x.double()
        x1, x2 = x64[..., :d2], x64[..., d2:]
        c, sn = cos.double()[None, :, None, :], sin.double()[None, :, None, :]
        ref = torch.cat([x1 * c - x2 * sn, x2 * c + x1 * sn], dim=-1)
        return [x, cos, sin], ref, dt, shape
    if k == "reduce":
        if g["combiner"] == "sum":
            # Mean 0.5: no catastrophic cancellation, so the f32 bound holds
            # for a correctly accumulated sum.
            x = unif(-0.5, 1.5, *shape)
            return [x], x.double().sum(-1), dt, shape[:1]
        x = unif(-4, 4, *shape)
        return [x], x.double().amax(-1), dt, shape[:1]
    raise ValueError(f"unknown group kind {k}")


def rel_err(out, ref):
    o = out.double()
    if torch.isnan(o).any():
        return float("nan")
    return (torch.linalg.vector_norm(o - ref) / torch.linalg.vector_norm(ref)).item()


# ---------------------------------------------------------------------------
# Launching (hkg_cuda: bare pointers in manifest order, then any sizes) with
# prebuilt parameters.
# ---------------------------------------------------------------------------

class Loaded:
    def __init__(self, bundle_dir, meta):
        # cuModuleLoadData + cuModuleGetFunction on the cubin; should the
        # driver refuse it, the PTX next to it (JIT-compiled by the driver).
        try:
            self.k = hkg_cuda.Kernel(bundle_dir, meta)
            self.jit = False
        except hkg_cuda.CudaError:
            ptx = meta["name"] + ".ptx"
            if not meta["binary"].endswith(".cubin") or not os.path.exists(os.path.join(bundle_dir, ptx)):
                raise
            self.k = hkg_cuda.Kernel(bundle_dir, dict(meta, binary=ptx))
            self.jit = True

    def bind(self, tensors):
        """A function launching the kernel on `tensors` (hkg_cuda's bind:
        checked against the manifest, parameters built once)."""
        return self.k.bind(*tensors)

    def unload(self):
        hkg_cuda.driver().lib.cuModuleUnload(self.k.module)


def time_us(fn, warmup_ms, rep_ms):
    """(median, spread) in microseconds; spread = (p90 - p10) / median."""
    try:
        times = triton.testing.do_bench(fn, warmup=warmup_ms, rep=rep_ms, return_mode="all")
        t = torch.tensor(times, dtype=torch.float64)
        med = torch.median(t).item()
        p10, p90 = torch.quantile(t, 0.1).item(), torch.quantile(t, 0.9).item()
    except (TypeError, ValueError, AssertionError):  # a triton without return_mode="all"
        p10, med, p90 = triton.testing.do_bench(fn, warmup=warmup_ms, rep=rep_ms, quantiles=[0.1, 0.5, 0.9])
    return med * 1e3, (p90 - p10) / med if med > 0 else float("nan")


# ---------------------------------------------------------------------------

class Writer:
    def __init__(self, out, index):
        self.out = out
        self.index = index
        self.records = open(os.path.join(out, "records.jsonl"), "a")
        self.progress = open(os.path.join(out, "progress.jsonl"), "a")
        self.pending = os.path.join(out, "pending.json")

    def done_ids(self):
        ids = set()
        p = os.path.join(self.out, "progress.jsonl")
        if os.path.exists(p):
            for line in open(p):
                try:
                    ids.add(json.loads(line)["id"])
                except (ValueError, KeyError):
                    pass  # a line cut by a kill
        return ids

    def record(self, g, c, status, median_us=None, spread=None, err=None, message=""):
        def num(x):
            return None if x is None or (isinstance(x, float) and not math.isfinite(x)) else x
        rec = {"op": g["op"], "signature": g["signature"], "target": self.index["target"],
               "schedule": c["schedule"], "status": status, "median_us": num(median_us),
               "spread": num(spread), "max_rel_err": num(err),
               "stats": {k: v for k, v in c.get("stats", {}).items() if isinstance(v, (int, float))},
               "hkg_version": self.index["hkg_version"], "date": now_iso()}
        self.records.write(json.dumps(rec, sort_keys=True) + "\n")
        self.records.flush()
        self.progress.write(json.dumps({"id": c["id"], "status": status, "median_us": num(median_us),
                                        "err": num(err), "message": message[:300]}) + "\n")
        self.progress.flush()
        os.fsync(self.records.fileno())
        os.fsync(self.progress.fileno())

    def set_pending(self, cid, reason="died while measuring"):
        with open(self.pending, "w") as f:
            json.dump({"id": cid, "reason": reason}, f)
            f.flush()
            os.fsync(f.fileno())

    def clear_pending(self):
        if os.path.exists(self.pending):
            os.remove(self.pending)


class Watchdog:
    """Ends the process when one candidate runs past its deadline."""

    def __init__(self, writer, seconds):
        self.writer, self.seconds = writer, seconds
        self.cid, self.t = None, 0.0
        self.lock = threading.Lock()
        threading.Thread(target=self.loop, daemon=True).start()

    def arm(self, cid):
        with self.lock:
            self.cid, self.t = cid, time.time()

    def disarm(self):
        with self.lock:
            self.cid = None

    def loop(self):
        while True:
            time.sleep(0.5)
            with self.lock:
                if self.cid and time.time() - self.t > self.seconds:
                    self.writer.set_pending(self.cid, "timeout")
                    print(f"timeout: {self.cid} ran past {self.seconds}s; restarting", flush=True)
                    os._exit(RESTART)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tuning", default=".carry/tuning")
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--deadline", type=float, default=0, help="unix time to stop at (0: none)")
    ap.add_argument("--warmup-ms", type=float, default=5)
    ap.add_argument("--rep-ms", type=float, default=20)
    ap.add_argument("--candidate-timeout", type=float, default=30)
    ap.add_argument("--limit", type=int, default=0, help="measure at most N candidates (testing)")
    args = ap.parse_args()

    index = json.load(open(os.path.join(args.tuning, "index.json")))
    os.makedirs(args.out, exist_ok=True)
    w = Writer(args.out, index)
    cands = {c["id"]: c for c in index["candidates"]}
    groups = index["groups"]
    gid = {cid: g for g in groups for cid in g["candidates"]}
    done = w.done_ids()

    # A candidate that took the previous process down.
    if os.path.exists(w.pending):
        try:
            p = json.load(open(w.pending))
            if p["id"] not in done:
                st = "timeout" if p.get("reason") == "timeout" else "fault"
                w.record(gid[p["id"]], cands[p["id"]], st, message=p.get("reason", ""))
                done.add(p["id"])
                print(f"recorded {p['id']} as {st} (previous process)", flush=True)
        except (ValueError, KeyError):
            pass
        w.clear_pending()

    todo = [cid for g in groups for cid in g["candidates"] if cid not in done]
    print(f"{len(cands)} candidates, {len(done)} done before, {len(todo)} to measure; "
          f"torch {torch.__version__}, triton {triton.__version__}, {torch.cuda.get_device_name()}", flush=True)
    # Compile errors from make_candidates.py need no GPU.
    for cid in list(todo):
        c = cands[cid]
        if "compile_error" in c:
            w.record(gid[cid], c, "compile_error", message=c["compile_error"])
            todo.remove(cid)

    hkg_cuda.driver()
    dog = Watchdog(w, args.candidate_timeout)
    manifests = {}
    case_of = None
    case = None
    t0 = time.time()
    n = 0
    for cid in todo:
        if args.deadline and time.time() > args.deadline:
            print(f"deadline reached with {len(todo) - n} candidates left", flush=True)
            return 0
        if args.limit and n >= args.limit:
            break
        c, g = cands[cid], gid[cid]
        if case_of != g["name"]:
            case = None
            torch.cuda.empty_cache()
            gen = torch.Generator(device=DEVICE)
            gen.manual_seed(1000 + groups.index(g))
            inputs, ref, odt, oshape = make_case(g, gen)
            out = torch.empty(oshape, device=DEVICE, dtype=odt)
            case, case_of = (inputs, ref, odt, out), g["name"]
        inputs, ref, odt, out = case
        bdir = os.path.join(args.tuning, "bundles", c["bundle"])
        if bdir not in manifests:
            manifests = {bdir: {k["name"]: k for k in json.load(open(os.path.join(bdir, "manifest.json")))["kernels"]}}
        meta = manifests[bdir][c["kernel"]]
        w.set_pending(cid)
        dog.arm(cid)
        n += 1
        try:
            k = Loaded(bdir, meta)
        except Exception as e:  # the cubin does not load: not the context's fault
            dog.disarm()
            w.record(g, c, "compile_error", message=f"load: {e}")
            w.clear_pending()
            continue
        try:
            fn = k.bind(inputs + [out])
            out.fill_(float("nan"))  # poison
            fn()
            torch.cuda.synchronize()
            err = rel_err(out, ref)
            if not (err <= TOL[odt]):
                status, med, spread, msg = "wrong", None, None, f"rel err {err:.3g} > {TOL[odt]:g}"
            else:
                med, spread = time_us(fn, args.warmup_ms, args.rep_ms)
                status, msg = "ok", ""
        except Exception as e:  # launch failure or worse: the context may be gone
            dog.disarm()
            w.record(g, c, "fault", message=f"{type(e).__name__}: {e}")
            w.clear_pending()
            print(f"fault: {cid}: {e}; restarting with a fresh context", flush=True)
            sys.stdout.flush()
            os._exit(RESTART)
        dog.disarm()
        k.unload()
        w.record(g, c, status, med, spread, err, msg)
        w.clear_pending()
        if n % 100 == 0 or n == len(todo):
            el = time.time() - t0
            print(f"  {n}/{len(todo)} in {el:.0f}s ({el / n:.3f} s/candidate); last {cid}: {status} "
                  f"{'' if med is None else f'{med:.1f} us'}", flush=True)
    print(f"measured {n} candidates in {time.time() - t0:.0f}s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

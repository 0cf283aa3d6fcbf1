#!/usr/bin/env python3
"""IREE alone, IREE with hkg's dispatches, PyTorch eager and Inductor on the
same programs and the same values: outputs checked, times side by side, and
the dispatch-level table (issue 27; docs/IREE.md, "Running on the GPU
machine").

    bench_iree.py BUILD_DIR [--out DIR] [--name iree] [--programs mlp,...]
        [--device cuda|local-task] [--inductor MODE|none] [--reps 50] ...

BUILD_DIR is what utils/iree/build_vmfbs.sh writes (config.json, and per
program <p>.mlir, iree.vmfb, hkg.vmfb, <build>.dispatches.txt,
dispatch/<build>/*.vmfb). Every other `<p>/*.vmfb` is run as one more build
and checked alike (the tests plant a wrong one that way).

The values: utils/iree/programs.py builds the PyTorch module of each program
(the import's module, at the build's size); its weights and inputs are drawn
here from --seed, on the device, as utils/bench/torch_programs.py draws them
(2-D weights N(0, 1) / sqrt(fan in), 1-D weights 1 + 0.1 N(0, 1), inputs
N(0, 1)) except that `cos` and `sin` are RoPE's tables. The same arrays go to
every build: IREE's function takes the module's inputs, then its parameters
in named_parameters() order (torch_import.py), copied to the device once.

The check: the reference is the module and its inputs in float64 (RMSNorm
still computes in float32, as the module says). A build's error is max
|out - ref| / max |ref|; it passes when finite and at most max(2 x eager's
error, the dtype's tolerance: bf16 1e-2, f16 2e-3, f32 1e-5), the rule of
torch_programs.py. Each program also checks the check: a copy of IREE
alone's output with one element moved by 5% of max |ref| must fail
("control" rows). The largest difference from eager is reported too.

Times (ms): each call from the host, synchronized, one at a time: an IREE
`sync` function returns when its work is done; a PyTorch call is followed by
torch.cuda.synchronize(). Median and minimum of --reps calls after --warmup;
on CUDA the L2 is flushed (a 256 MB write) before every call, outside the
timed region. This includes each call's host overhead (IREE: the VM call and
argument marshalling; PyTorch: dispatch and launches), the same way for all.
On CUDA the GPU time of a call is measured too: torch.profiler (CUPTI, which
sees every kernel in the process, IREE's included) over --profile-calls
calls, kernel durations summed per call.

The dispatch-level table (per op of the program: hkg's kernels against IREE's
dispatches for the same op) has two columns per side: "in program" (CUPTI
durations of the kernels in the whole-program runs above, by kernel name;
CUDA only) and "alone" (the standalone benchmark modules of
build_vmfbs.sh: f(n) runs the dispatch n times; CUDA: CUPTI's mean kernel
duration, CPU: (wall(n) - wall(1)) / (n - 1); their buffers are IREE's own,
not initialized: timing only). Dispatches are assigned to ops in program
order by the OPS table below; what it does not place is listed as
"unplaced".

Writes OUT/NAME.md (tables) and OUT/NAME.json (everything), rewritten after
every phase so that a run cut short leaves what it measured. Phases: the
checks and whole-program times of the IREE builds and eager, each build
first run once on zeros by iree-run-module in a process of its own (a build
that faults is reported and left out: a CUDA fault would take this process's
context, PyTorch's too, with it); the dispatch modules, in a child process
for the same reason; the CUPTI profiles; Inductor (last: max-autotune
compiles for minutes). With CALL_START (seconds since the epoch) and CALL_S in the
environment (utils/device/lib.sh) a phase that would not fit is skipped.
Exit status 1 when a build fails its check or a control passes.
"""
import argparse
import copy
import json
import math
import os
import platform
import re
import signal
import statistics
import subprocess
import sys
import time
import traceback

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import programs  # noqa: E402  (imports torch_import, which imports torch)
import torch  # noqa: E402

try:
    import iree.runtime as rt
    import ml_dtypes
except ImportError as e:  # pragma: no cover - depends on the environment
    sys.exit(f"bench_iree.py: {e}: install iree-base-runtime and ml_dtypes "
             "(utils/device/iree.sh does on the GPU machine)")

TOL = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1e-2}
CONTROL_SHIFT = 0.05  # the control's one wrong element: 5% of max |ref|

# The ops of each program, in program order, for the dispatch-level table:
# (label, hkg kernel pattern, hkg kernel count, IREE dispatch pattern, IREE
# dispatch count or None for "every consecutive match"). Patterns are
# searched in the dispatch's entry name (hkg: hkg_<op>_<n>; IREE:
# <function>_dispatch_<n>_<root op>_<shape>...). The counts hold for both
# sizes of build_vmfbs.sh (IREE forms the same dispatches at both).
MATMUL = r"(?<!batch)_matmul_"
OPS = {
    "mlp": [
        ("fc1 + GELU", r"hkg_matmul_", 1, MATMUL, 1),
        ("fc2 + bias", r"hkg_matmul_", 1, MATMUL, 1),
    ],
    "decoder_layer": [
        ("input RMSNorm", r"hkg_rmsnorm_", 1, r"_reduction_\d+x\d+_f32$", 1),
        ("QKV projection", r"hkg_matmul_", 1, MATMUL, 1),
        # IREE fuses RoPE into its attention's operands (k's into the GQA
        # expansion to f32, q's into the QK^T dispatch): one row.
        # IREE: the q, k, v split copies, k and v expanded to every head in
        # f32, QK^T, the mask, softmax, PV, all in f32.
        ("RoPE of q, k + causal GQA attention",
         r"hkg_(rope|attention)_", 3,
         r"_slow_memcpy|_elementwise_|_batch_matmul_|_reduction_\d+x\d+_f32xi1|_softmax_", None),
        ("o_proj + residual", r"hkg_matmul_", 1, MATMUL, 1),
        ("post-attention RMSNorm", r"hkg_rmsnorm_", 1, r"_reduction_\d+x\d+_f32$", 1),
        ("gate, up projections + SwiGLU", r"hkg_matmul_", 2, MATMUL, 2),
        ("down projection + residual", r"hkg_matmul_", 1, MATMUL, 1),
    ],
}


def log(*a):
    print(*a, flush=True)


# ===----------------------------------------------------------------------===#
# Values, reference, checks.
# ===----------------------------------------------------------------------===#


def rope_tables(seq, dim, dtype, device, base=10000.0):
    inv = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float64, device=device) / dim))
    freqs = torch.outer(torch.arange(seq, dtype=torch.float64, device=device), inv)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos().to(dtype), emb.sin().to(dtype)


def make_program(spec, seed, device):
    """The module (seeded weights) and its inputs, on `device`."""
    torch.manual_seed(seed)
    module, named_inputs = spec.build()
    module = module.to(device).eval()
    gen = torch.Generator(device=device).manual_seed(seed)
    with torch.no_grad():
        for p in module.parameters():
            r = torch.randn(p.shape, generator=gen, device=device, dtype=torch.float32)
            if p.dim() > 1:
                p.copy_((r / math.sqrt(p.shape[-1])).to(p.dtype))
            else:
                p.copy_((1.0 + 0.1 * r).to(p.dtype))
    inputs, tables = [], {}
    for name, t in named_inputs:
        if name in ("cos", "sin"):
            if not tables:
                tables = dict(zip(("cos", "sin"), rope_tables(t.shape[0], t.shape[1], t.dtype, device)))
            inputs.append(tables[name])
        elif t.dtype.is_floating_point:
            inputs.append(torch.randn(t.shape, generator=gen, device=device,
                                      dtype=torch.float32).to(t.dtype))
        else:
            inputs.append(torch.randint(0, max(t.shape[-1], 2) if t.dim() else 2, t.shape,
                                        generator=gen, device=device, dtype=t.dtype))
    return module, inputs


def reference(module, inputs):
    """The module and its inputs in float64 (a copy)."""
    m64 = copy.deepcopy(module).double()
    args = [x.double() if x.dtype.is_floating_point else x for x in inputs]
    with torch.no_grad():
        out = m64(*args)
    del m64
    return out


def rel_err(out, ref):
    out, ref = out.double(), ref.double()
    if out.shape != ref.shape:
        return float("inf")
    scale = ref.abs().max().item() or 1.0
    return (out - ref).abs().max().item() / scale


def check(out, ref, eager_out, err_eager, dtype):
    """The check of one output: error against the float64 reference, the
    tolerance, pass/fail, and the largest difference from eager."""
    err = rel_err(out, ref)
    tol = max(2 * err_eager, TOL.get(dtype, 1e-2))
    return {"err": err, "tol": tol, "ok": bool(math.isfinite(err) and err <= tol),
            "diff_eager": rel_err(out, eager_out)}


def control(out, ref, eager_out, err_eager, dtype):
    """The check applied to `out` with one element moved by CONTROL_SHIFT of
    max |ref|: must fail."""
    bad = out.clone()
    flat = bad.view(-1)
    i = flat.numel() // 3
    flat[i] = (flat[i].double() + CONTROL_SHIFT * ref.double().abs().max()).to(flat.dtype)
    c = check(bad, ref, eager_out, err_eager, dtype)
    c["caught"] = not c["ok"]
    return c


# ===----------------------------------------------------------------------===#
# IREE.
# ===----------------------------------------------------------------------===#


def to_numpy(t):
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(ml_dtypes.bfloat16)
    return t.numpy()


def to_torch(a, device):
    a = np.asarray(a)
    if a.dtype == ml_dtypes.bfloat16:
        return torch.from_numpy(a.view(np.int16).copy()).view(torch.bfloat16).to(device)
    return torch.from_numpy(np.array(a)).to(device)


_IREE_DT = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32,
            "f64": torch.float64, "i64": torch.int64, "i32": torch.int32}


def declared_inputs(declaration):
    args = declaration.split("->", 1)[0]
    out = []
    for m in re.finditer(r"tensor<([^>]*)>", args):
        *dims, dt = m.group(1).split("x")
        out.append(([int(d) for d in dims], dt))
    return out


class IreeBuild:
    """One .vmfb's function, bound to device copies of the arguments."""

    def __init__(self, config, path, function, host_args):
        self.path = path
        self.ctx = rt.SystemContext(config=config)
        self.module = rt.VmModule.mmap(config.vm_instance, path)
        self.ctx.add_vm_module(self.module)
        self.fn = self.ctx.modules[self.module.name][function]
        decl = self.module.lookup_function(function).reflection.get("iree.abi.declaration", "")
        want = declared_inputs(decl)
        got = [(list(a.shape), a.dtype) for a in host_args]
        if len(want) != len(got) or any(
                s != gs or _IREE_DT.get(d) != gd for (s, d), (gs, gd) in zip(want, got)):
            raise ValueError(f"{path}: @{function} takes {want}, the module's values are {got}")
        self.args = [rt.asdevicearray(config.device, to_numpy(a)) for a in host_args]
        self.out = None

    def __call__(self):
        self.out = self.fn(*self.args)
        return self.out

    def result(self, device):
        out = self.out if isinstance(self.out, (tuple, list)) else (self.out,)
        return to_torch(out[0].to_host(), device)


def dispatch_entries(path):
    """`@exe::@entry` lines of a build's dispatches.txt -> [entry] in order."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.strip().split("::@", 1)[1] for line in f if "::@" in line]


# ===----------------------------------------------------------------------===#
# Timing and profiling.
# ===----------------------------------------------------------------------===#


class Clock:
    def __init__(self, device, flush, deadline):
        self.cuda = device == "cuda"
        self.deadline = deadline
        self.flush_buf = (torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
                          if self.cuda and flush else None)

    def left(self):
        return self.deadline - time.time() if self.deadline else float("inf")

    def sync(self):
        if self.cuda:
            torch.cuda.synchronize()

    def time(self, fn, reps, warmup):
        """Milliseconds of `reps` synchronized calls after `warmup`."""
        for _ in range(warmup):
            fn()
        self.sync()
        ts = []
        for _ in range(reps):
            if self.flush_buf is not None:
                self.flush_buf.zero_()
                self.sync()
            t = time.perf_counter()
            fn()
            self.sync()
            ts.append((time.perf_counter() - t) * 1e3)
        return {"median_ms": statistics.median(ts), "min_ms": min(ts), "reps": reps,
                "times_ms": ts}


def device_kernels(fn, calls, clock):
    """[(name, us)] of the device activity (kernels, copies, sets) during
    `calls` calls of fn, by torch.profiler (CUPTI); None off CUDA."""
    if not clock.cuda:
        return None
    from torch.profiler import ProfilerActivity, profile
    clock.sync()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        clock.sync()
    out = []
    for e in prof.events():
        dt = getattr(e, "device_type", None)
        if dt is None or "CUDA" not in str(dt):
            continue
        out.append((e.name, float(e.time_range.elapsed_us())))
    return out


def per_call(events, calls):
    """{name: {"launches": per call, "us": mean per launch}} and the summed
    device time per call, from device_kernels' list. A ValueError when there
    is none: CUPTI saw nothing, which is not a call of no time."""
    if not events:
        raise ValueError("no device activity recorded")
    agg = {}
    for name, us in events:
        a = agg.setdefault(name, [0, 0.0])
        a[0] += 1
        a[1] += us
    table = {n: {"launches": c / calls, "us": t / c} for n, (c, t) in agg.items()}
    return table, sum(t for _, (c, t) in agg.items()) / calls


def bench_dispatch_module(config, path, entries, clock, target_s=0.02, reps=5):
    """{entry: {"us": per dispatch, "method": ...}} of one standalone
    benchmark module (its functions f(n): n dispatches)."""
    ctx = rt.SystemContext(config=config)
    module = rt.VmModule.mmap(config.vm_instance, path)
    ctx.add_vm_module(module)
    out = {}
    for fname in module.function_names:
        if module.lookup_function(fname).reflection.get("iree.benchmark") != "dispatch":
            continue
        entry = next((e for e in sorted(entries, key=len, reverse=True)
                      if fname.endswith("_" + e)), fname)
        f = ctx.modules[module.name][fname]
        f(1)
        one = min(_wall(lambda: f(1)) for _ in range(3))
        n = int(min(max(target_s / max(one, 1e-6), 8), 2000))
        f(n)
        t1 = statistics.median(_wall(lambda: f(1)) for _ in range(reps))
        tn = statistics.median(_wall(lambda: f(n)) for _ in range(reps))
        r = {"us": max(tn - t1, 0.0) / (n - 1) * 1e6, "method": f"wall (f({n}) - f(1)) / {n - 1}",
             "n": n}
        ev = device_kernels(lambda: f(n), 1, clock)
        if ev:
            ks = [us for name, us in ev if name == entry]
            if ks:
                r.update(us=statistics.mean(ks), method=f"CUPTI mean of {len(ks)} launches",
                         wall_us=r["us"])
        out[entry] = r
    return out


def _wall(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


# ===----------------------------------------------------------------------===#
# The dispatch-level table.
# ===----------------------------------------------------------------------===#


def place(seq, rows, side):
    """Assigns the entries of `seq` (program order) to `rows` (OPS): row i
    takes its count of consecutive matches of its pattern (all of them when
    the count is None). Returns ([[entries] per row], [unplaced])."""
    pat_i, cnt_i = (1, 2) if side == "hkg" else (3, 4)
    seq = [e for e in seq if not e.startswith("_initializer")]
    placed, unplaced, i = [], [], 0
    for row in rows:
        pat, cnt = re.compile(row[pat_i]), row[cnt_i]
        got = []
        while i < len(seq) and (cnt is None or len(got) < cnt):
            if pat.search(seq[i]):
                got.append(seq[i])
                i += 1
            elif got and cnt is None:
                break
            else:
                unplaced.append(seq[i])
                i += 1
        placed.append(got)
    unplaced += seq[i:]
    return placed, unplaced


def dispatch_table(program, seqs, inprog, alone):
    """Rows of the dispatch-level table of one program. seqs: {build: [entry]};
    inprog: {build: per_call table or None}; alone: {build: {entry: {"us"}}}."""
    rows = OPS.get(program, [])
    placed = {b: place(seqs.get(b, []), rows, b) for b in ("hkg", "iree")}
    table = []

    def total(build, entries, source):
        src = (inprog if source == "inprog" else alone).get(build) or {}
        if not entries or any(e not in src for e in entries):
            return None
        return sum(src[e]["us"] for e in entries)

    labels = [r[0] for r in rows] + ["unplaced"]
    for k, label in enumerate(labels):
        row = {"op": label}
        for b in ("hkg", "iree"):
            ents = placed[b][0][k] if k < len(rows) else placed[b][1]
            row[b] = ents
            row[b + "_inprog_us"] = total(b, ents, "inprog")
            row[b + "_alone_us"] = total(b, ents, "alone")
        if label == "unplaced" and not row["hkg"] and not row["iree"]:
            continue
        table.append(row)
    return table


# ===----------------------------------------------------------------------===#
# The report.
# ===----------------------------------------------------------------------===#


def short_name(entry):
    """d<n> for IREE's <function>_dispatch_<n>_..., the name otherwise."""
    m = re.match(r"^.*_dispatch_(\d+)_", entry)
    return f"d{m.group(1)}" if m else entry


def fmt(x, spec=".3f"):
    return "" if x is None else format(x, spec)


def ordered(builds):
    """(name, result) of the builds: IREE alone, with hkg, the others, eager,
    Inductor."""
    first, last = ["iree", "hkg"], ["eager", "inductor"]
    keys = ([b for b in first if b in builds] + sorted(b for b in builds if b not in first + last)
            + [b for b in last if b in builds])
    return [(b, builds[b]) for b in keys]


def write_report(state, out_dir, name):
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, name + ".json"), "w") as f:
        json.dump(state, f, indent=1, default=str)
    h = state["header"]
    lines = [f"# IREE alone, IREE with hkg, eager, Inductor ({h['device_name']})", "",
             f"{h['device_name']}; torch {h['torch']}; IREE runtime {h['iree_runtime']}; "
             f"builds: {h['config'].get('iree_compile', '')}, hkg {h['config'].get('hkg_commit')}, "
             f"size {h['config'].get('size')}; IREE alone: `{' '.join(h['config'].get('iree_flags', []))}`"
             + (f"; IREE with hkg: hkg's {h['config']['hkg_chip']} kernels, IREE target "
                f"{h['config'].get('hkg_iree_target')}" if h["config"].get("hkg_chip") else "")
             + f"; Inductor mode {h['inductor']}; seed {h['seed']}.",
             "",
             "Times: median (min) ms of synchronized calls from the host"
             + (", L2 flushed before each" if h["flush"] else "")
             + "; GPU ms: the call's device activity summed (CUPTI). err: max |out - ref| / "
             "max |ref| against the float64 module; tol: max(2 x eager's err, dtype tolerance); "
             "diff eager: the same against eager's output. IREE alone / this, eager / this: "
             "the median's speed-up (> 1: faster).", ""]
    lines += ["| program | build | median ms | min ms | GPU ms | kernels | IREE alone / this "
              "| eager / this | err | tol | diff eager | ok |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for p, ps in state["programs"].items():
        if "error" in ps:
            lines.append(f"| {p} | | | | | | | | | | | FAILED: {ps['error']} |")
        base = ps.get("builds", {}).get("iree", {}).get("time", {}).get("median_ms")
        eager = ps.get("builds", {}).get("eager", {}).get("time", {}).get("median_ms")
        for b, r in ordered(ps.get("builds", {})):
            t = r.get("time", {})
            m = t.get("median_ms")
            c = r.get("check", {})
            gpu = r.get("gpu_ms")
            status = ("yes" if c.get("ok") else "NO") if c else ""
            if r.get("error"):
                status = "FAILED: " + str(r["error"]).replace("|", "/")
            lines.append(
                f"| {p} | {b} | {fmt(m)} | {fmt(t.get('min_ms'))} | {fmt(gpu)} "
                f"| {fmt(r.get('kernels_per_call'), '.0f')} "
                f"| {fmt(base / m if base and m else None, '.2f')} "
                f"| {fmt(eager / m if eager and m else None, '.2f')} "
                f"| {fmt(c.get('err'), '.2e')} | {fmt(c.get('tol'), '.1e')} "
                f"| {fmt(c.get('diff_eager'), '.2e')} | {status} |")
        c = ps.get("control")
        if c:
            lines.append(f"| {p} | control: IREE alone, one element +{CONTROL_SHIFT:g} max ref "
                         f"| | | | | | | {fmt(c['err'], '.2e')} | {fmt(c['tol'], '.1e')} | | "
                         f"{'caught' if c['caught'] else 'NOT CAUGHT'} |")
    for p, ps in state["programs"].items():
        t = ps.get("dispatch_table")
        if not t:
            continue
        lines += ["", f"## {p}: per op, hkg's kernels against IREE's dispatches (us)", "",
                  "In program: CUPTI, mean kernel duration in the whole-program runs, summed "
                  "over the op's launches; alone: the standalone benchmark module per "
                  "dispatch (" + ps.get("alone_method", "") + ").", "",
                  "| op | hkg kernels | hkg in program | hkg alone | IREE dispatches "
                  "| IREE in program | IREE alone | IREE / hkg |",
                  "|---|---|---|---|---|---|---|---|"]
        for r in t:
            hk = r["hkg_inprog_us"] if r["hkg_inprog_us"] is not None else r["hkg_alone_us"]
            ir = r["iree_inprog_us"] if r["iree_inprog_us"] is not None else r["iree_alone_us"]
            short = lambda es: ", ".join(short_name(e) for e in es)  # noqa: E731
            lines.append(
                f"| {r['op']} | {short(r['hkg'])} | {fmt(r['hkg_inprog_us'], '.1f')} "
                f"| {fmt(r['hkg_alone_us'], '.1f')} | {short(r['iree'])} "
                f"| {fmt(r['iree_inprog_us'], '.1f')} | {fmt(r['iree_alone_us'], '.1f')} "
                f"| {fmt(ir / hk if ir and hk else None, '.2f')} |")
        names = sorted({e for r in t for e in r["iree"]})
        if names:
            lines += ["", "IREE's dispatches: " + "; ".join(
                f"{short_name(e)} = `{e}`" for e in names)]
    for p, ps in state["programs"].items():
        for b, r in ordered(ps.get("builds", {})):
            k = r.get("kernels")
            if not k:
                continue
            top = sorted(k.items(), key=lambda kv: -kv[1]["us"] * kv[1]["launches"])[:12]
            lines += ["", f"{p} / {b}: device activity per call (CUPTI), largest first: " + "; ".join(
                f"`{n[:60]}` {v['launches']:g} x {v['us']:.1f} us" for n, v in top)]
    if state.get("notes"):
        lines += ["", "Notes:", ""] + [f"- {n}" for n in state["notes"]]
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out_dir, name + ".md"), "w") as f:
        f.write(text)
    return text


# ===----------------------------------------------------------------------===#
# The run.
# ===----------------------------------------------------------------------===#


def show_ops(build_dir, progs):
    """Prints the placement of each build's dispatches; 1 when one is unplaced
    or an op has none."""
    bad = 0
    for p in progs:
        rows = OPS.get(p, [])
        for b in ("hkg", "iree"):
            seq = dispatch_entries(os.path.join(build_dir, p, b + ".dispatches.txt"))
            if not seq:
                continue
            placed, unplaced = place(seq, rows, b)
            print(f"{p} / {b}:")
            for row, got in zip(rows, placed):
                want = row[2] if b == "hkg" else row[4]
                ok = got and (want is None or len(got) == want)
                bad += 0 if ok else 1
                print(f"  {row[0]}: {', '.join(got) or '(none)'}{'' if ok else '  <- WRONG'}")
            if unplaced:
                bad += 1
                print(f"  unplaced: {', '.join(unplaced)}")
    return 1 if bad else 0


def dispatch_phase(build_dir, progs, iree_config, clock, out_path):
    """Times every standalone dispatch module of the builds; writes
    {program: {"alone": {build: {entry: result}}, "alone_method": ...}} to
    out_path after each module (a fault leaves what was measured)."""
    res = {}
    for p in progs:
        ps = res[p] = {"alone": {}}
        for b in ("hkg", "iree"):
            ddir = os.path.join(build_dir, p, "dispatch", b)
            if not os.path.isdir(ddir):
                continue
            entries = dispatch_entries(os.path.join(build_dir, p, b + ".dispatches.txt"))
            got = ps["alone"][b] = {}
            for f in sorted(os.listdir(ddir)):
                try:
                    got.update(bench_dispatch_module(iree_config, os.path.join(ddir, f),
                                                     entries, clock))
                except Exception as e:
                    got[f] = {"error": f"{type(e).__name__}: {e}"}
                    log(f"{p} {b} {f}: FAILED {got[f]['error']}")
                with open(out_path, "w") as fh:
                    json.dump(res, fh)
            methods = sorted({r.get("method", "").split(" ")[0] for r in got.values()})
            ps["alone_method"] = ", ".join(m for m in methods if m)
            log(f"{p} {b}: {len(got)} dispatches timed alone")
    with open(out_path, "w") as fh:
        json.dump(res, fh)
    return 0


def runner():
    """IREE's iree-run-module (the runtime wheel's tools)."""
    import iree._runtime_libs as libs
    path = os.path.join(os.path.dirname(libs.__file__), "iree-run-module")
    if not os.access(path, os.X_OK):  # a wheel unpacked without pip loses the mode
        os.chmod(path, 0o755)
    return path


def smoke(path, function, device, timeout=120):
    """Runs `function` of the .vmfb once on zeros in its own process
    (iree-run-module): None when it ran, else what it said."""
    try:
        module = rt.VmModule.mmap(rt.VmInstance(), path)
        decl = module.lookup_function(function).reflection.get("iree.abi.declaration", "")
    except Exception as e:
        return f"no @{function} in {path}: {type(e).__name__}: {e}"
    inputs = ["--input=" + "x".join([str(d) for d in shape] + [dt])
              for shape, dt in declared_inputs(decl)]
    cmd = [runner(), f"--device={device}", f"--module={path}", f"--function={function}",
           *inputs, "--output="]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"iree-run-module on zeros: no answer in {timeout} s"
    if proc.returncode:
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-6:]
        return f"iree-run-module on zeros exited {proc.returncode}: " + " / ".join(tail)
    return None


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build_dir")
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--name", default="iree")
    ap.add_argument("--programs", help="default: the build's (config.json)")
    ap.add_argument("--device", help="IREE driver (default: the build's: cuda or local-task)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--reps", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--profile-calls", type=int, default=5)
    ap.add_argument("--inductor", default="max-autotune-no-cudagraphs",
                    help="torch.compile mode, or none")
    ap.add_argument("--no-flush", action="store_true", help="no L2 flush before each call")
    ap.add_argument("--no-dispatch", action="store_true", help="skip the dispatch modules")
    ap.add_argument("--inductor-min-s", type=float, default=60,
                    help="skip Inductor when fewer seconds are left (CALL_START/CALL_S)")
    ap.add_argument("--dispatch-only", metavar="JSON",
                    help="time the dispatch modules only, into JSON (the child process)")
    ap.add_argument("--show-ops", action="store_true",
                    help="print how each build's dispatches are placed in the ops "
                         "(OPS) and exit; runs nothing")
    args = ap.parse_args(argv)

    with open(os.path.join(args.build_dir, "config.json")) as f:
        config = json.load(f)
    if args.show_ops:
        return show_ops(args.build_dir, (args.programs or ",".join(config["programs"])).split(","))
    device_name = args.device or config.get("device", "local-task")
    tdev = "cuda" if device_name == "cuda" else "cpu"
    progs = (args.programs or ",".join(config["programs"])).split(",")
    deadline = None
    if os.environ.get("CALL_START"):
        deadline = int(os.environ["CALL_START"]) + int(os.environ.get("CALL_S", "570")) - 15
    clock = Clock(tdev, not (args.no_flush or args.dispatch_only), deadline)
    iree_config = rt.Config(device_name)
    if args.dispatch_only:
        return dispatch_phase(args.build_dir, progs, iree_config, clock, args.dispatch_only)
    from importlib import metadata
    try:
        iree_version = metadata.version("iree-base-runtime")
    except metadata.PackageNotFoundError:
        iree_version = "?"
    state = {"header": {
        "device_name": torch.cuda.get_device_name() if tdev == "cuda"
        else f"CPU ({platform.processor() or platform.machine()}, {os.cpu_count()} threads)",
        "iree_device": device_name, "torch": torch.__version__, "iree_runtime": iree_version,
        "config": config, "seed": args.seed, "reps": args.reps, "warmup": args.warmup,
        "flush": clock.flush_buf is not None, "inductor": args.inductor},
        "programs": {}, "notes": []}
    if tdev == "cuda" and config.get("target") == "cuda":
        state["notes"].append(
            "IREE alone is IREE 3.13's sm_80 code (it has no sm_90 codegen): mma.sync, no "
            "wgmma or TMA; hkg's kernels are sm_90a PTX.")
    log(f"{state['header']['device_name']}, torch {torch.__version__}, IREE runtime "
        f"{iree_version}, device {device_name}")
    live = {}
    failures = 0

    def save():
        write_report(state, args.out, args.name)

    # Phase 1: values, reference, eager; each IREE build checked and timed.
    for p in progs:
        ps = state["programs"][p] = {"builds": {}}
        pdir = os.path.join(args.build_dir, p)
        try:
            start = time.time()
            spec = programs.spec(p, config.get("size", "full"))
            module, inputs = make_program(spec, args.seed, tdev)
            params = [q.detach() for q in module.parameters()]
            ref = reference(module, inputs)
            with torch.no_grad():
                eager_out = module(*inputs)
            clock.sync()
            err_eager = rel_err(eager_out, ref)
            dtype = eager_out.dtype
            ps["output"] = {"shape": list(eager_out.shape), "dtype": str(dtype)}
            ps["builds"]["eager"] = {"check": {"err": err_eager, "tol": None, "ok": True,
                                               "diff_eager": 0.0}}
            live[p] = {"module": module, "inputs": inputs, "ref": ref, "eager_out": eager_out,
                       "err_eager": err_eager, "dtype": dtype, "iree": {}}
            vmfbs = sorted(f[:-5] for f in os.listdir(pdir) if f.endswith(".vmfb"))
            vmfbs = ([b for b in ("iree", "hkg") if b in vmfbs]
                     + [b for b in vmfbs if b not in ("iree", "hkg")])
            for b in vmfbs:
                r = ps["builds"][b] = {}
                t0 = time.time()
                said = smoke(os.path.join(pdir, b + ".vmfb"), p, device_name)
                r["smoke_s"] = time.time() - t0
                if said:
                    r["error"] = said
                    failures += 1
                    log(f"{p} {b}: FAILED {said}")
                    continue
                try:
                    build = IreeBuild(iree_config, os.path.join(pdir, b + ".vmfb"), p,
                                      list(inputs) + params)
                    t0 = time.time()
                    build()
                    r["first_call_s"] = time.time() - t0
                    out = build.result(tdev)
                    r["check"] = check(out, ref, eager_out, err_eager, dtype)
                    if b == "iree":
                        ps["control"] = control(out, ref, eager_out, err_eager, dtype)
                        failures += 0 if ps["control"]["caught"] else 1
                    r["time"] = clock.time(build, args.reps, args.warmup)
                    live[p]["iree"][b] = build
                    failures += 0 if r["check"]["ok"] else 1
                    log(f"{p} {b}: err {r['check']['err']:.2e} (tol {r['check']['tol']:.1e}) "
                        f"{'ok' if r['check']['ok'] else 'MISMATCH'}, "
                        f"median {r['time']['median_ms']:.3f} ms")
                except Exception as e:  # one build's failure is reported, the rest run
                    r["error"] = f"{type(e).__name__}: {e}"
                    failures += 1
                    log(f"{p} {b}: FAILED {r['error']}")
                    traceback.print_exc()
            with torch.no_grad():
                ps["builds"]["eager"]["time"] = clock.time(lambda: module(*inputs), args.reps,
                                                           args.warmup)
            log(f"{p} eager: err {err_eager:.2e}, median "
                f"{ps['builds']['eager']['time']['median_ms']:.3f} ms ({time.time() - start:.1f} s)")
        except Exception as e:
            ps["error"] = f"{type(e).__name__}: {e}"
            failures += 1
            log(f"{p}: FAILED {ps['error']}")
            traceback.print_exc()
        save()

    # Phase 2: the standalone dispatch modules, in a child process (a module
    # that faults cannot take this process's CUDA context with it).
    if not args.no_dispatch and any(
            os.path.isdir(os.path.join(args.build_dir, p, "dispatch")) for p in progs):
        left = clock.left()
        if left < 45:
            state["notes"].append(f"dispatch modules skipped ({left:.0f} s left in the call)")
        else:
            res_path = os.path.join(args.out, args.name + "-dispatch.json")
            cmd = [sys.executable, os.path.abspath(__file__), args.build_dir, "--device",
                   device_name, "--programs", ",".join(progs), "--dispatch-only", res_path]
            try:
                proc = subprocess.run(cmd, timeout=None if left == float("inf") else left - 30)
                with open(res_path) as f:
                    alone = json.load(f)
                os.unlink(res_path)
                for p in progs:
                    state["programs"][p].update(alone.get(p, {}))
                if proc.returncode:
                    state["notes"].append(f"the dispatch modules' process exited {proc.returncode}")
            except (subprocess.TimeoutExpired, OSError, ValueError) as e:
                state["notes"].append(f"the dispatch modules: {type(e).__name__}: {e}")
        save()

    # Phase 3: device activity per call (CUDA).
    for p in progs:
        if p not in live or tdev != "cuda":
            continue
        ps, lv = state["programs"][p], live[p]
        calls = [(b, build) for b, build in lv["iree"].items()]
        calls.append(("eager", lambda: lv["module"](*lv["inputs"])))
        for b, fn in calls:
            try:
                with torch.no_grad():
                    ev = device_kernels(fn, args.profile_calls, clock)
                table, us = per_call(ev, args.profile_calls)
                r = ps["builds"][b]
                r["kernels"], r["gpu_ms"] = table, us / 1e3
                r["kernels_per_call"] = sum(v["launches"] for v in table.values())
            except Exception as e:
                ps["builds"][b]["profile_error"] = f"{type(e).__name__}: {e}"
                log(f"{p} {b}: profile FAILED {e}")
        save()

    def tabulate():
        for p in progs:
            ps = state["programs"][p]
            seqs = {b: dispatch_entries(os.path.join(args.build_dir, p, b + ".dispatches.txt"))
                    for b in ("hkg", "iree")}
            inprog = {b: ps["builds"].get(b, {}).get("kernels") for b in ("hkg", "iree")}
            ps["dispatch_table"] = dispatch_table(p, seqs, inprog, ps.get("alone", {}))
        save()

    tabulate()

    # Phase 4: Inductor.
    if args.inductor != "none":
        signal.signal(signal.SIGALRM, _alarm)
        for p in progs:
            if p not in live:
                continue
            ps, lv = state["programs"][p], live[p]
            r = ps["builds"]["inductor"] = {}
            left = clock.left()
            if left < args.inductor_min_s:
                r["error"] = f"skipped: {left:.0f} s left"
                state["notes"].append(f"{p}: Inductor skipped ({left:.0f} s left in the call)")
                continue
            try:
                if left != float("inf"):
                    signal.alarm(int(left))
                t0 = time.time()
                compiled = torch.compile(lv["module"], mode=args.inductor)
                with torch.no_grad():
                    compiled(*lv["inputs"])
                    out = compiled(*lv["inputs"])
                clock.sync()
                r["compile_s"] = time.time() - t0
                signal.alarm(0)
                r["check"] = check(out, lv["ref"], lv["eager_out"], lv["err_eager"], lv["dtype"])
                failures += 0 if r["check"]["ok"] else 1
                with torch.no_grad():
                    r["time"] = clock.time(lambda: compiled(*lv["inputs"]), args.reps, args.warmup)
                    if tdev == "cuda":
                        table, us = per_call(device_kernels(lambda: compiled(*lv["inputs"]),
                                                            args.profile_calls, clock),
                                             args.profile_calls)
                        r["kernels"], r["gpu_ms"] = table, us / 1e3
                        r["kernels_per_call"] = sum(v["launches"] for v in table.values())
                log(f"{p} inductor: compiled in {r['compile_s']:.1f} s, err {r['check']['err']:.2e}, "
                    f"median {r['time']['median_ms']:.3f} ms")
            except Timeout:
                r["error"] = "out of time while compiling"
                log(f"{p} inductor: out of time")
            except Exception as e:
                signal.alarm(0)
                r["error"] = f"{type(e).__name__}: {e}"
                failures += 1
                log(f"{p} inductor: FAILED {r['error']}")
                traceback.print_exc()
            save()

    print(write_report(state, args.out, args.name))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""hkg as a torch.compile backend, `hkg.compile` and `hkg.explain`.

    import hkg
    m = torch.compile(model, backend="hkg")       # falls back to eager per node
    f = hkg.compile(model, (x,))                  # strict: every node in hkg
    print(hkg.explain(model, x))                  # where each aten node runs

Design. aten is mapped to hkg ops directly, in Python (hkg/fx/), not
through the Torch-MLIR importer in process: the GPU machines users run on
(Python 3.12, torch 2.11, no package index) have no torch-mlir, whose wheel
is ~300 MB unpacked and pinned to another torch; mapping at the FX level
also partitions per node for free. (utils/frontend/torch_import.py still
writes the committed Torch-MLIR imports the linalg frontend is tested on.)

Flow:
1. dynamo's graph: whole-graph fallbacks first (training, dynamic shapes,
   CPU tensors: each recorded with its reason), then
   F.scaled_dot_product_attention without dropout becomes
   torch.ops.hkg.attention (hkg/fx/library.py) so AOT tracing keeps it one
   op whatever kernel torch would pick; its attn_mask (float, or bool made
   0 / -inf) is hkg.attention's mask, viewed as rank 4 (SDPA with both
   attn_mask and is_causal is left to torch, which raises on it);
2. AOT autograd (inference) with a small decomposition table: core-ish
   aten, softmax, layer_norm, gelu/silu and attention left whole;
3. compositions fused into one node each (hkg/fx/patterns.py): RMSNorm ->
   hkg.rmsnorm, RoPE's rotate-half -> hkg.rope;
4. `CapabilityBasedPartitioner` with the predicate of hkg/fx/lowerings.py
   (which aten ops map and when); views at a partition's edge are left to
   torch (they are free there), partitions of views only too;
5. each partition becomes one func.func of hkg ops (hkg/fx/emit.py:
   chains of pointwise ops are one hkg.elementwise; transposes are folded
   into their readers), compiled by `compile_mlir` for the tensors' GPU
   (hkg-fuse then puts maps after a matmul into its epilogue), replaced by
   a module running the `Program`. A partition that does not compile runs
   in eager, recorded with the compiler's message.

`hkg.backend` (the package attribute) is the backend function below; this
module is `sys.modules["hkg.backend"]`.

Backend options (`torch.compile(m, backend="hkg", options={...})`):
`target` (a chip, default the tensors' GPU), and, as a testing aid,
`reference=True` (or HKG_BACKEND_REFERENCE=1): partitions run
`Program.reference` (the float64 host reference of the compiled plan, on
CPU tensors, no GPU needed; target defaults to sm_90) instead of the GPU
kernels, so the whole compiled graph can be checked against eager on a
machine without a GPU.
"""

import operator
import os

import torch

from .compiler import compile_mlir
from .dtypes import from_torch, to_torch
from .errors import CompileError, DeviceError, HkgError, UnsupportedError
from .fx.report import Explanation

_last = {"report": None}


def last_report():
    """The GraphReport of the graph the backend compiled last (its `stats`:
    partitions, kernels, nodes in eager)."""
    return _last["report"]


def _decompositions():
    """Composites decomposed to ops hkg maps; softmax, layer_norm, gelu,
    silu and attention are kept whole (hkg has ops for them)."""
    from torch._decomp import get_decompositions
    aten = torch.ops.aten
    wanted = []
    for name in ("addcmul", "addcdiv", "hardtanh", "hardsigmoid", "hardswish",
                 "leaky_relu", "elu", "softplus", "mish", "lerp", "logit",
                 "square"):
        if hasattr(aten, name):
            wanted.append(getattr(aten, name))
    return get_decompositions(wanted)


class Options:
    def __init__(self, target=None, reference=None, strict=False, explain=False,
                 tune=False):
        if reference is None:
            reference = os.environ.get("HKG_BACKEND_REFERENCE", "") not in ("", "0")
        self.target = target
        # compile_mlir's `tune`: False, True, or tune_mlir's options.
        self.tune = tune
        self.reference = bool(reference)
        self.strict = strict
        self.explain = explain

    @classmethod
    def parse(cls, options):
        options = dict(options or {})
        known = {"target", "reference", "tune"}
        unknown = set(options) - known
        if unknown:
            raise UnsupportedError(
                f"unknown hkg backend option(s) {', '.join(sorted(unknown))}; "
                f"expected {', '.join(sorted(known))}")
        return cls(**options)


class _Partition(torch.nn.Module):
    """Runs one compiled partition: the Program on the GPU, its host
    reference in reference mode, or the partition's own graph in eager
    (explain)."""

    def __init__(self, eager, program, outputs, tuple_result, mode):
        super().__init__()
        self.eager = eager
        self.program = program
        self.outputs = outputs  # [(torch dtype, permutation or None)]
        self.tuple_result = tuple_result
        self.mode = mode

    def forward(self, *args):
        if self.mode == "eager":
            return self.eager(*args)
        if self.mode == "reference":
            res = self.program.reference(*args)
        else:
            # torch lets a 0-dim CPU tensor (a constant) meet GPU tensors.
            dev = next((a.device for a in args if a.device.type == "cuda"), None)
            if dev is not None:
                args = [a if a.device == dev else a.to(dev) for a in args]
            res = self.program(*args)
        if not isinstance(res, tuple):
            res = (res,)
        out = []
        for t, (dtype, perm) in zip(res, self.outputs):
            if t.dtype != dtype:
                t = t.to(dtype)
            if perm is not None:
                t = t.permute(perm)
            out.append(t)
        return tuple(out) if self.tuple_result else out[0]


class Compiler:
    """The backend proper: one instance per configuration; called by dynamo
    once per graph."""

    def __init__(self, options=None, report=None):
        self.options = options or Options()
        self.report = report

    # -- dynamo's graph ------------------------------------------------------
    def __call__(self, gm, example_inputs):
        from torch._dynamo.backends.common import aot_autograd
        from .fx.patterns import rewrite_sdpa

        report = (self.report or Explanation()).new_graph()
        _last["report"] = report
        opts = self.options
        tensors = [t for t in example_inputs if isinstance(t, torch.Tensor)]

        why = None
        if torch.is_grad_enabled() and any(t.requires_grad for t in tensors):
            why = ("training (inputs that require grad): hkg's backend compiles "
                   "inference graphs; run under torch.no_grad() or inference_mode()")
        elif any(isinstance(t, torch.SymInt) for t in example_inputs) or any(
                not all(type(d) is int for d in t.shape) for t in tensors):
            why = ("dynamic shapes: hkg's backend compiles static shapes "
                   "(torch.compile(..., dynamic=False))")
        if why is None and not (opts.reference or opts.explain):
            # 0-dim CPU tensors may meet GPU tensors (torch allows it).
            cpu = [t for t in tensors if t.device.type != "cuda"
                   and (t.dim() > 0 or not any(u.device.type == "cuda" for u in tensors))]
            if cpu:
                if opts.strict:
                    raise DeviceError(
                        f"hkg.compile: an input is on '{cpu[0].device}'; hkg "
                        "kernels run on GPU tensors (move them with .cuda())")
                why = (f"inputs on '{cpu[0].device}': hkg runs on GPU tensors, "
                       "so the graph runs in eager")
        target = opts.target
        if target is None:
            cuda = [t for t in tensors if t.device.type == "cuda"]
            if cuda:
                from .runtime import target_of
                target = target_of(cuda[0].device)
            else:
                target = "sm_90"
        report.target = target
        if why is not None:
            if opts.strict:
                raise UnsupportedError(f"hkg.compile: {why}")
            report.reason = why
            _eager_rows(gm, report, why)
            return gm.forward

        rewrite_sdpa(gm)

        def fw_compiler(fw_gm, fw_inputs):
            if opts.strict:
                return self.compile_aten(fw_gm, target, report)
            try:
                return self.compile_aten(fw_gm, target, report)
            except Exception as e:  # noqa: BLE001 (torch.compile must still run)
                first = (str(e).strip().splitlines() or [""])[0]
                report.reason = f"hkg backend error ({type(e).__name__}): {first}"
                report.nodes.clear()
                report.partitions.clear()
                _eager_rows(fw_gm, report, report.reason)
                return fw_gm

        return aot_autograd(fw_compiler=fw_compiler,
                            decompositions=_decompositions())(gm, example_inputs)

    # -- the aten graph ------------------------------------------------------
    def compile_aten(self, gm, target, report):
        from .fx.emit import FuncBuilder
        from .fx.lowerings import is_view, lowering_of, op_name
        from .fx.patterns import fuse_compositions
        from .fx.report import NodeReport, PartitionReport

        opts = self.options
        fuse_compositions(gm)
        partitions, unsupported = _partition(gm)

        rows = {}
        for n in gm.graph.nodes:
            if n.op != "call_function":
                continue
            r = NodeReport(n.name, op_name(n), view=is_view(n),
                           fused=n.meta.get("hkg_fused"))
            low = lowering_of(n)
            if r.view:
                r.hkg_op = "view"
            elif n.target is operator.getitem:
                r.hkg_op = f"result {n.args[1]} of {n.args[0].name}"
            elif low is not None:
                r.hkg_op = low.op
            r.reason = unsupported.get(n, "")
            rows[n] = r
            report.nodes.append(r)

        strict_missing = [(n, why) for n, why in unsupported.items()
                          if n.target is not operator.getitem
                          and (not is_view(n) or lowering_of(n) is None)]
        if opts.strict and strict_missing:
            raise UnsupportedError(
                "hkg.compile: these nodes have no hkg lowering (pass fallback=True "
                "to run them in eager):\n" + "\n".join(
                    f"  {n.name} ({op_name(n)}): {why}" for n, why in strict_missing))

        names = [dict.fromkeys(p) for p in partitions]
        if partitions:
            from torch.fx.passes.utils.fuser_utils import fuse_by_partitions
            gm = fuse_by_partitions(gm, names, prefix="hkg_partition_")
        mode = "eager" if opts.explain else ("reference" if opts.reference else "gpu")
        for i, nodes in enumerate(names):
            pr = PartitionReport(i, [n.name for n in nodes])
            report.partitions.append(pr)
            sub_name = f"hkg_partition_{i}"
            sub = getattr(gm, sub_name)
            try:
                fb = FuncBuilder(f"hkg_g{report.index}_p{i}")
                program, outputs, tuple_result = _build(fb, sub, lowering_of, target,
                                                        opts.tune and not opts.reference)
                pr.mlir = program.mlir
            except Exception as e:  # noqa: BLE001 (a partition never breaks the model)
                if opts.strict:
                    raise
                msg = str(e).strip().splitlines()
                first = msg[0] if msg else type(e).__name__
                if isinstance(e, CompileError):
                    pr.reason = "did not compile: " + first
                elif isinstance(e, HkgError):
                    pr.reason = "not lowered: " + first
                else:
                    pr.reason = f"hkg backend error ({type(e).__name__}): {first}"
                pr.mlir = getattr(e, "hkg_mlir", None)
                for n in nodes:
                    rows[n].reason = f"partition {i} {pr.reason}"
                continue
            pr.program = program
            pr.kernels = list(program.kernel_names)
            for n in nodes:
                rows[n].where = "hkg"
                rows[n].partition = i
            setattr(gm, sub_name, _Partition(sub, program, outputs, tuple_result, mode))
        gm.recompile()
        return gm


def _eager_rows(gm, report, why):
    from .fx.report import NodeReport
    for n in gm.graph.nodes:
        if n.op in ("call_function", "call_method", "call_module"):
            r = NodeReport(n.name, str(getattr(n.target, "__name__", n.target)))
            r.reason = why
            report.nodes.append(r)


def _partition(gm):
    """The partitions of hkg nodes (lists of nodes) and, for every node left
    out, why."""
    from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
    from torch.fx.passes.operator_support import OperatorSupportBase
    from .fx.lowerings import is_view, lowering_of, op_name

    unsupported = {}
    for n in gm.graph.nodes:
        if n.op != "call_function":
            continue
        low = lowering_of(n)
        if low is None:
            unsupported[n] = f"no hkg mapping for {op_name(n)}"
            continue
        why = low.check(n)
        if why:
            unsupported[n] = why

    def supported(n):
        if n.op != "call_function" or n in unsupported:
            return False
        if n.target is operator.getitem:
            return supported(n.args[0])
        return True

    class Support(OperatorSupportBase):
        def is_node_supported(self, submodules, node):
            return supported(node)

    edge = "a view at the edge of an hkg partition: left to torch (free there)"
    while True:
        parts = CapabilityBasedPartitioner(
            gm, Support(), allows_single_node_partition=True).propose_partitions()
        changed = False
        for p in parts:
            for n in p.nodes:
                if is_view(n) and any(u not in p.nodes for u in n.users):
                    victim = n.args[0] if n.target is operator.getitem else n
                    if victim not in unsupported:
                        unsupported[victim] = edge
                        changed = True
        if not changed:
            break
    keep = []
    order = {n: i for i, n in enumerate(gm.graph.nodes)}
    parts.sort(key=lambda p: min(order[n] for n in p.nodes))
    for p in parts:
        nodes = sorted(p.nodes, key=order.__getitem__)
        if all(is_view(n) for n in nodes):
            for n in nodes:
                unsupported[n] = "views only: left to torch"
            continue
        keep.append(nodes)
    for n in gm.graph.nodes:
        if n.op == "call_function" and n.target is operator.getitem and \
                n not in unsupported and not supported(n):
            unsupported[n] = unsupported.get(n.args[0], "reads a node in eager")
    return keep, unsupported


def _build(fb, sub, lowering_of, target, tune=False):
    """Writes partition `sub` (a GraphModule) as one func.func of hkg ops,
    compiles it; returns (Program, [(dtype, perm)], tuple_result)."""
    from .fx.lowerings import meta
    values = {}
    results = None
    for n in sub.graph.nodes:
        if n.op == "placeholder":
            t = meta(n)
            if not isinstance(t, torch.Tensor):
                raise UnsupportedError(f"partition input {n.name} is not a tensor")
            values[n] = fb.arg(tuple(t.shape), from_torch(t.dtype))
        elif n.op == "call_function":
            v = values[n] = lowering_of(n).emit(fb, n, values)
            if hasattr(v, "name"):
                # A view of the same SSA value (permute, clone) passes its
                # one use on to its own readers.
                fb.uses[v.name] = fb.uses.get(v.name, 1) - 1 + len(n.users)
        elif n.op == "output":
            results = n.args[0]
    tuple_result = isinstance(results, (tuple, list))
    outs = list(results) if tuple_result else [results]
    returned, specs = [], []
    for o in outs:
        v, perm = fb.for_return(values[o])
        returned.append(v)
        specs.append((to_torch(v.dtype),
                      None if perm == tuple(range(len(perm))) else list(perm)))
    text = fb.text(returned)
    try:
        program = (compile_mlir(text, target, tune=tune) if tune
                   else compile_mlir(text, target))
    except CompileError as e:
        e.hkg_mlir = text
        raise
    program.mlir = text
    return program, specs, tuple_result


def backend(gm, example_inputs, options=None, mode=None, **_):
    """torch.compile's backend "hkg" (registered when hkg is imported):
    torch.compile(model, backend="hkg", options={"target": ..., "reference": ...}).
    Nodes hkg does not map, and partitions that do not compile, run in
    eager; `hkg.explain` says which and why."""
    return Compiler(Options.parse(options))(gm, example_inputs)


backend.last_report = last_report


def _unwrap(e):
    seen = set()
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, HkgError):
            return e
        e = getattr(e, "inner_exception", None) or e.__cause__
    return None


class CompiledFunction:
    """What `hkg.compile` returns: calls the compiled function under
    torch.no_grad(); `report` is its Explanation."""

    def __init__(self, compiled, report):
        self._compiled = compiled
        self.report = report

    def __call__(self, *args, **kwargs):
        with torch.no_grad():
            return self._compiled(*args, **kwargs)


def compile(fn, example_inputs, target=None, fallback=False, reference=None,
            tune=False):
    """Compiles `fn` (a function or nn.Module, or MLIR text: then this is
    compile_mlir for the inputs' GPU) for inference on tensors like
    `example_inputs`, every aten node in hkg kernels; tracing runs `fn` once
    on them. `tune` (True, or hkg.tune_mlir's options) tunes every kernel on
    the device first (docs/Python.md, "Tuning"). Raises DeviceError for CPU inputs (unless `reference`, the
    backend's testing aid) and UnsupportedError naming the nodes hkg cannot
    lower; with `fallback=True` those run in eager instead (as with
    torch.compile(backend="hkg")). A partition that does not compile raises
    CompileError."""
    if isinstance(fn, str):
        from .runtime import target_of
        if target is None:
            devices = [t.device for t in example_inputs if isinstance(t, torch.Tensor)]
            if not devices or devices[0].type != "cuda":
                raise DeviceError("hkg.compile: MLIR text needs a target, or GPU "
                                  "example inputs to take it from")
            target = target_of(devices[0])
        return compile_mlir(fn, target, tune=tune)
    import torch._dynamo as _dynamo  # noqa: F401 (binds no local `torch`)
    opts = Options(target=target, reference=reference, strict=not fallback,
                   tune=tune)
    report = Explanation(target)
    if not opts.reference:
        for t in example_inputs:
            if isinstance(t, torch.Tensor) and t.device.type != "cuda":
                raise DeviceError(
                    f"hkg.compile: an input is on '{t.device}'; hkg kernels run "
                    "on GPU tensors (move them with .cuda())")
    compiled = torch.compile(fn, backend=Compiler(opts, report), dynamic=False,
                             fullgraph=not fallback)
    try:
        with torch.no_grad():
            compiled(*example_inputs)
    except Exception as e:  # dynamo wraps what the backend raises
        inner = _unwrap(e)
        if inner is not None and inner is not e:
            raise inner from None
        raise
    return CompiledFunction(compiled, report)


def explain(fn, *example_inputs, target=None):
    """Where each aten node of `fn(*example_inputs)` runs with
    torch.compile(backend="hkg"), and why: a report whose str() is a table
    (per node: the hkg op it became and its partition, or eager and the
    reason; per partition: its kernels). Runs `fn` once (in eager, under
    torch.no_grad()); kernels are compiled for `target`, by default the
    inputs' GPU, or sm_90 for CPU inputs (no GPU needed)."""
    report = Explanation(target)
    compiled = torch.compile(fn, backend=Compiler(Options(target=target, explain=True),
                                                  report), dynamic=False)
    with torch.no_grad():
        compiled(*example_inputs)
    return report


def register():
    """Registers "hkg" with torch._dynamo (done when hkg is imported)."""
    from torch._dynamo.backends.registry import list_backends, register_backend
    if "hkg" not in list_backends(exclude_tags=()):
        register_backend(compiler_fn=backend, name="hkg")

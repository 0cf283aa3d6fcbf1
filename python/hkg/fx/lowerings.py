"""Which aten ops become which hkg ops.

Each entry of `LOWERINGS` (keyed by the aten OpOverload) says whether a
node can be lowered (`check`: None, or the reason it cannot) and writes it
(`emit`: the node's Val, or a tuple of them for ops of several results)
into a `FuncBuilder`. `check` only looks at the node, its arguments and its
users: the partitioner asks it of every node before any MLIR is written.

`kind` is "view" for ops that write no kernel (reshapes, transposes,
slices) and "compute" for the rest; `op` names the hkg op for explain.
"""

import math
import operator

import torch
from torch.fx.operator_schemas import normalize_function

from .. import trace as hm
from ..dtypes import from_torch
from ..errors import DTypeError, UnsupportedError
from . import library  # noqa: F401  (torch.ops.hkg.attention)
from .emit import Val

aten = torch.ops.aten
prims = torch.ops.prims

FLOATS = ("f32", "f16", "bf16")
ELEMENTWISE_TYPES = ("f64", "f32", "f16", "bf16", "i64", "i32", "i8", "i1")


class Lowering:
    def __init__(self, kind, op, emit, check=None, types=FLOATS):
        self.kind = kind
        self.op = op
        self._emit = emit
        self._check = check
        self.types = types

    def check(self, node):
        why = _check_tensors(node, self.types)
        if why is None and self._check is not None:
            why = self._check(node, arguments(node))
        return why

    def emit(self, fb, node, values):
        a = arguments(node)
        a = {k: _lookup(v, values) for k, v in a.items()}
        return self._emit(fb, node, a)


def arguments(node):
    """The node's arguments by schema name ('input' for 'self'), defaults
    filled in."""
    if not isinstance(node.target, torch._ops.OpOverload):
        return dict(enumerate(node.args))
    r = normalize_function(node.target, node.args, node.kwargs,
                           normalize_to_only_use_kwargs=True)
    if r is None:
        raise UnsupportedError(f"cannot read the arguments of {node.target}")
    return dict(r.kwargs)


def _lookup(v, values):
    if isinstance(v, torch.fx.Node):
        return values[v]
    if isinstance(v, (list, tuple)):
        return type(v)(_lookup(x, values) for x in v)
    return v


def meta(node):
    return node.meta.get("val") if isinstance(node, torch.fx.Node) else None


def _is_static(shape):
    return all(type(d) is int for d in shape)


def _check_tensors(node, types):
    """None, or why the tensors the node reads or writes rule it out."""
    val = meta(node)
    if val is None:
        return "no shape information on the node"
    outs = val if isinstance(val, (tuple, list)) else [val]
    ins = [meta(a) for a in node.all_input_nodes]
    for t in list(outs) + ins:
        if not isinstance(t, torch.Tensor):
            continue
        if not _is_static(t.shape):
            return "dynamic shape (hkg's torch.compile backend compiles static shapes)"
        if t.numel() == 0:
            return "an empty tensor"
    for t in list(outs)[:1] + ins:
        if not isinstance(t, torch.Tensor):
            continue
        try:
            name = from_torch(t.dtype)
        except DTypeError:
            return f"dtype {t.dtype}"
        if name not in types:
            return f"dtype {t.dtype} (this op takes {', '.join(types)})"
    return None


def out_type(node):
    """(shape, element type) of the node's (first) result."""
    t = meta(node)
    if isinstance(t, (tuple, list)):
        t = t[0]
    return tuple(int(d) for d in t.shape), from_torch(t.dtype)


# ===----------------------------------------------------------------------===#
# Pointwise ops: one hkg.elementwise each (hkg-fuse joins them).
# ===----------------------------------------------------------------------===#

def _pointwise(names, f, types=ELEMENTWISE_TYPES, common=False):
    """An elementwise lowering: `f(a, *operands)` with the operands named
    `names` as traced scalars (tensors) or Python numbers; `a` holds the
    other arguments. `common`: the tensor operands are first converted to
    torch's result type of the operands, as torch's comparisons compute (a
    bf16 tensor compared with an f32 0-dim one compares in bf16)."""

    def emit(fb, node, a):
        operands = [a[n] for n in names]
        tensors = [v for v in operands if isinstance(v, Val)]
        if not tensors:
            raise UnsupportedError(f"{node.target}: no tensor operand")
        to = None
        if common:
            raw = arguments(node)
            to = from_torch(torch.result_type(*[
                meta(raw[n]) if isinstance(raw[n], torch.fx.Node) else raw[n]
                for n in names]))

        def body(*scalars):
            it = iter(scalars)
            xs = [next(it) if isinstance(v, Val) else v for v in operands]
            if to is not None:
                xs = [hm.widen(hm.cast(x, to)) if isinstance(x, hm.Scalar) and
                      x.storage != to else x for x in xs]
            return f(a, *xs)

        shape, dtype = out_type(node)
        return fb.elementwise(tensors, body, shape, dtype)

    def check(node, a):
        for n in names:
            v = a.get(n)
            if not isinstance(v, (torch.fx.Node, int, float, bool)):
                return f"operand '{n}' is a {type(v).__name__}"
        return None

    return Lowering("compute", "hkg.elementwise", emit, check, types)


def _scaled(x, s):
    return x if s == 1 else x * s


def _cast_check(node, a):
    dev = a.get("device")
    if dev is not None and torch.device(dev) != meta(node.args[0]).device:
        return "a copy to another device"
    if a.get("layout") not in (None, torch.strided):
        return f"layout {a.get('layout')}"
    return None


def _gelu(a, x):
    approx = a.get("approximate", "none")
    return hm.gelu(x, approximate=approx)


def _gelu_check(node, a):
    if a.get("approximate", "none") not in ("none", "tanh"):
        return f"gelu approximate={a.get('approximate')!r}"
    return None


def _pow_check(node, a):
    e = a.get("exponent")
    if isinstance(e, bool) or not isinstance(e, (int, float)):
        return "a tensor exponent"
    return None


def _clamp(a, x):
    """torch.clamp: min(max(x, min), max), so max wins where min > max."""
    lo, hi = a.get("min"), a.get("max")
    if lo is not None:
        x = hm.maximum(x, lo)
    if hi is not None:
        x = hm.minimum(x, hi)
    return x


def _clamp_check(node, a):
    for k in ("min", "max"):
        if isinstance(a.get(k), torch.fx.Node):
            return f"a tensor {k}"
    return None


_POINTWISE = {
    aten.add.Tensor: (("input", "other"), lambda a, x, y: x + _scaled(y, a["alpha"])),
    aten.add.Scalar: (("input", "other"), lambda a, x, y: x + _scaled(y, a["alpha"])),
    aten.sub.Tensor: (("input", "other"), lambda a, x, y: x - _scaled(y, a["alpha"])),
    aten.sub.Scalar: (("input", "other"), lambda a, x, y: x - _scaled(y, a["alpha"])),
    aten.rsub.Scalar: (("input", "other"), lambda a, x, y: y - _scaled(x, a["alpha"])),
    aten.rsub.Tensor: (("input", "other"), lambda a, x, y: y - _scaled(x, a["alpha"])),
    aten.mul.Tensor: (("input", "other"), lambda a, x, y: x * y),
    aten.mul.Scalar: (("input", "other"), lambda a, x, y: x * y),
    aten.div.Tensor: (("input", "other"), lambda a, x, y: x / y),
    aten.div.Scalar: (("input", "other"), lambda a, x, y: x / y),
    aten.maximum.default: (("input", "other"), lambda a, x, y: hm.maximum(x, y)),
    aten.minimum.default: (("input", "other"), lambda a, x, y: hm.minimum(x, y)),
    aten.where.self: (("condition", "input", "other"), lambda a, c, x, y: hm.where(c, x, y)),
    aten.where.ScalarSelf: (("condition", "input", "other"), lambda a, c, x, y: hm.where(c, x, y)),
    aten.where.ScalarOther: (("condition", "input", "other"), lambda a, c, x, y: hm.where(c, x, y)),
    aten.eq.Tensor: (("input", "other"), lambda a, x, y: x == y),
    aten.eq.Scalar: (("input", "other"), lambda a, x, y: x == y),
    aten.ne.Tensor: (("input", "other"), lambda a, x, y: x != y),
    aten.ne.Scalar: (("input", "other"), lambda a, x, y: x != y),
    aten.lt.Tensor: (("input", "other"), lambda a, x, y: x < y),
    aten.lt.Scalar: (("input", "other"), lambda a, x, y: x < y),
    aten.le.Tensor: (("input", "other"), lambda a, x, y: x <= y),
    aten.le.Scalar: (("input", "other"), lambda a, x, y: x <= y),
    aten.gt.Tensor: (("input", "other"), lambda a, x, y: x > y),
    aten.gt.Scalar: (("input", "other"), lambda a, x, y: x > y),
    aten.ge.Tensor: (("input", "other"), lambda a, x, y: x >= y),
    aten.ge.Scalar: (("input", "other"), lambda a, x, y: x >= y),
    aten.neg.default: (("input",), lambda a, x: -x),
    aten.abs.default: (("input",), lambda a, x: abs(x)),
    aten.exp.default: (("input",), lambda a, x: hm.exp(x)),
    aten.log.default: (("input",), lambda a, x: hm.log(x)),
    aten.tanh.default: (("input",), lambda a, x: hm.tanh(x)),
    aten.erf.default: (("input",), lambda a, x: hm.erf(x)),
    aten.sin.default: (("input",), lambda a, x: hm.sin(x)),
    aten.cos.default: (("input",), lambda a, x: hm.cos(x)),
    aten.sqrt.default: (("input",), lambda a, x: hm.sqrt(x)),
    aten.rsqrt.default: (("input",), lambda a, x: hm.rsqrt(x)),
    aten.reciprocal.default: (("input",), lambda a, x: 1.0 / x),
    aten.sigmoid.default: (("input",), lambda a, x: hm.sigmoid(x)),
    aten.silu.default: (("input",), lambda a, x: hm.silu(x)),
    aten.relu.default: (("input",), lambda a, x: hm.relu(x)),
    aten._to_copy.default: (("input",), lambda a, x: x),
    prims.convert_element_type.default: (("a",), lambda a, x: x),
}

_POINTWISE_CHECKS = {
    aten.gelu.default: _gelu_check,
    aten.pow.Tensor_Scalar: _pow_check,
    aten.clamp.default: _clamp_check,
    aten._to_copy.default: _cast_check,
}

_COMPARISONS = {aten.eq.Tensor, aten.ne.Tensor, aten.lt.Tensor, aten.le.Tensor,
                aten.gt.Tensor, aten.ge.Tensor}

LOWERINGS = {}
for _op, (_names, _f) in _POINTWISE.items():
    LOWERINGS[_op] = _pointwise(_names, _f, common=_op in _COMPARISONS)
LOWERINGS[aten.gelu.default] = _pointwise(("input",), _gelu)
LOWERINGS[aten.pow.Tensor_Scalar] = _pointwise(("input",), lambda a, x: x ** a["exponent"])
LOWERINGS[aten.clamp.default] = _pointwise(("input",), _clamp)
for _op, _c in _POINTWISE_CHECKS.items():
    _base = LOWERINGS[_op]._check

    def _both(node, a, _base=_base, _c=_c):
        return _base(node, a) or _c(node, a)
    LOWERINGS[_op]._check = _both


def _expand(fb, node, a):
    """torch's expand: the input broadcast to the result's shape, as an
    elementwise copy that a pointwise reader takes into its own body (no
    kernel then)."""
    shape, dtype = out_type(node)
    return fb.elementwise([a["input"]], lambda x: x, shape, dtype)


LOWERINGS[aten.expand.default] = Lowering("compute", "hkg.elementwise (broadcast)",
                                          _expand, None, ELEMENTWISE_TYPES)


# ===----------------------------------------------------------------------===#
# Reductions, softmax, layernorm.
# ===----------------------------------------------------------------------===#

def _reduce_dims(node):
    a = arguments(node)
    rank = meta(a["input"]).dim()
    dims = a.get("dim")
    if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
        dims = list(range(rank))
    elif isinstance(dims, int):
        dims = [dims]
    return sorted(d % rank for d in dims) if rank else []


def _reduce_check(node, a):
    if meta(a["input"]).dim() == 0:
        return "a rank-0 input"
    dims = _reduce_dims(node)
    if dims != list(range(dims[0], dims[0] + len(dims))):
        return f"reduced dims {dims} are not adjacent"
    if a.get("dtype") is not None and a["dtype"] != meta(node).dtype:
        return "a dtype argument"
    return None


def _reduce(kind, mean=False):
    def emit(fb, node, a):
        dims = _reduce_dims(node)
        _, dtype = out_type(node)
        epilogue = None
        if mean:
            n = math.prod(a["input"].logical[d] for d in dims)
            epilogue = lambda s: s / float(n)  # noqa: E731
        return fb.reduce(a["input"], kind, dims, a.get("keepdim", False), dtype, epilogue)
    return Lowering("compute", f"hkg.reduce {kind}", emit, _reduce_check)


LOWERINGS[aten.sum.dim_IntList] = _reduce("sum")
LOWERINGS[aten.sum.default] = _reduce("sum")
LOWERINGS[aten.mean.dim] = _reduce("sum", mean=True)
LOWERINGS[aten.mean.default] = _reduce("sum", mean=True)
LOWERINGS[aten.amax.default] = _reduce("maximum")
LOWERINGS[aten.amin.default] = _reduce("minimum")
LOWERINGS[aten.mean.dim].op = "hkg.reduce sum (mean)"
LOWERINGS[aten.mean.default].op = "hkg.reduce sum (mean)"


def _softmax_check(node, a):
    if a.get("half_to_float"):
        return "half_to_float"
    return None


def _softmax(log):
    def emit(fb, node, a):
        _, dtype = out_type(node)
        return fb.softmax(a["input"], a["dim"], log, dtype)
    return Lowering("compute", "hkg.softmax log" if log else "hkg.softmax", emit,
                    _softmax_check)


LOWERINGS[aten._softmax.default] = _softmax(False)
LOWERINGS[aten._log_softmax.default] = _softmax(True)


def _only_first_result_used(node):
    for u in node.users:
        if u.target is not operator.getitem or u.args[1] != 0:
            return f"result {u.args[1] if u.target is operator.getitem else '?'} is used"
    return None


def _layer_norm_check(node, a):
    why = _only_first_result_used(node)
    if why:
        return why + " (hkg.layernorm writes the normalized tensor only)"
    return None


def _layer_norm(fb, node, a):
    x = a["input"]
    k = len(a["normalized_shape"])
    axes = list(range(x.rank - k, x.rank))
    _, dtype = out_type(node)
    out = fb.norm("layernorm", x, axes, a["eps"], dtype, a.get("weight"), a.get("bias"))
    return (out, None, None)


LOWERINGS[aten.native_layer_norm.default] = Lowering(
    "compute", "hkg.layernorm", _layer_norm, _layer_norm_check)


# ===----------------------------------------------------------------------===#
# Matmul.
# ===----------------------------------------------------------------------===#

def _mm_check(node, a):
    x, y = meta(a["input"]), meta(a["mat2"])
    if x.dtype != y.dtype:
        return f"operands of {x.dtype} and {y.dtype}"
    return None


def _mm(fb, node, a):
    _, dtype = out_type(node)
    return fb.matmul(a["input"], a["mat2"], dtype)


def _addmm_check(node, a):
    if isinstance(a["input"], torch.fx.Node) is False:
        return "a scalar bias"
    x, y = meta(a["mat1"]), meta(a["mat2"])
    if x.dtype != y.dtype:
        return f"operands of {x.dtype} and {y.dtype}"
    return None


def _addmm(fb, node, a):
    """beta * input + alpha * (mat1 @ mat2); with beta 0 torch ignores the
    input (its NaN and inf too), so it is not read."""
    _, dtype = out_type(node)
    beta, alpha = a.get("beta", 1), a.get("alpha", 1)
    if beta == 0:
        return fb.matmul(a["mat1"], a["mat2"], dtype,
                         epilogue=None if alpha == 1 else lambda acc: _scaled(acc, alpha))
    return fb.matmul(a["mat1"], a["mat2"], dtype,
                     epilogue=lambda acc, b: _scaled(acc, alpha) + _scaled(b, beta),
                     epilogue_inputs=[a["input"]])


LOWERINGS[aten.mm.default] = Lowering("compute", "hkg.matmul", _mm, _mm_check)
LOWERINGS[aten.bmm.default] = Lowering("compute", "hkg.matmul", _mm, _mm_check)
LOWERINGS[aten.addmm.default] = Lowering("compute", "hkg.matmul (bias epilogue)",
                                         _addmm, _addmm_check)


# ===----------------------------------------------------------------------===#
# Attention: torch.ops.hkg.attention (what the backend makes of
# F.scaled_dot_product_attention) and the aten SDPA ops.
# ===----------------------------------------------------------------------===#

def _sdpa_ops():
    """The ops whose mask means SDPA's attn_mask: float added to the scaled
    scores, bool True where a query attends (a kernel's own op, its
    `attn_bias` or the CPU flash kernel's `attn_mask`, takes float only)."""
    return (torch.ops.hkg.attention.default, aten.scaled_dot_product_attention.default)


def _attention_mask(a):
    """The mask argument of an attention node (attn_mask or attn_bias), and
    its name."""
    for name in ("attn_mask", "attn_bias"):
        if a.get(name) is not None:
            return a[name], name
    return None, None


def _mask_check(node, a, q, k):
    """None, or why the node's mask rules it out. The mask must broadcast to
    [B, Hq, Sq, Skv] with its dims aligned at the right, each full or 1
    (what hkg.attention's mask takes once viewed as rank 4)."""
    m, name = _attention_mask(a)
    if m is None:
        return None
    if not isinstance(m, torch.fx.Node):
        return f"an {name} that is not a tensor of the graph"
    mm = meta(m)
    if mm.dtype == torch.bool:
        if node.target not in _sdpa_ops():
            return f"a bool {name} ({op_name(node)} takes a float one)"
    elif from_torch(mm.dtype) not in FLOATS:
        return f"an {name} of dtype {mm.dtype}"
    if a.get("is_causal") and node.target in _sdpa_ops():
        return f"is_causal with an {name} (torch raises on both)"
    full = (q.shape[0], q.shape[1], q.shape[2], k.shape[2])
    shape = tuple(mm.shape)
    ok = len(shape) <= 4 and all(
        d in (1, f) for d, f in zip(shape, full[4 - len(shape):]))
    if not ok:
        return (f"an {name} of shape {list(shape)}, which does not broadcast "
                f"to [B, Hq, Sq, Skv] = {list(full)} (each dim full or 1)")
    return None


def _attention_check(node, a):
    q, k, v = meta(a["query"]), meta(a["key"]), meta(a["value"])
    if a.get("dropout_p", 0.0) != 0.0:
        return "dropout"
    if q.dim() != 4 or k.dim() != 4 or v.dim() != 4:
        return "q, k, v not of rank 4 ([B, H, S, D])"
    if q.shape[1] % k.shape[1] or k.shape[1] != v.shape[1]:
        return f"{q.shape[1]} query heads over {k.shape[1]} key/value heads"
    if q.shape[0] != k.shape[0] or q.shape[3] != k.shape[3] or k.shape[2] != v.shape[2]:
        return "q, k, v shapes do not agree"
    if a.get("is_causal") and q.shape[2] != k.shape[2]:
        return ("causal with Sq != Skv (torch aligns the mask top-left, "
                "hkg.attention bottom-right)")
    if q.shape[1] != k.shape[1] and not a.get("enable_gqa", True):
        return "different head counts without enable_gqa"
    if not (q.dtype == k.dtype == v.dtype):
        return "q, k, v of different dtypes"
    if from_torch(q.dtype) not in FLOATS:
        return f"q, k, v of dtype {q.dtype}"
    why = _mask_check(node, a, q, k)
    if why:
        return why
    if node.target is not torch.ops.hkg.attention.default and \
            isinstance(meta(node), (tuple, list)):
        return _only_first_result_used(node)
    return None


def _mask_operand(fb, m, dtype):
    """The [B, Hq, Sq, Skv]-broadcastable mask `m` (rank <= 4) as the rank-4
    float additive mask hkg.attention reads: viewed with leading 1s; a bool
    one (True: attend) becomes select(m, 0, -inf) in `dtype`."""
    shape = (1,) * (4 - m.rank) + m.logical
    if m.dtype == "i1":
        return fb.elementwise([m], lambda x: hm.where(x, 0.0, -math.inf), shape, dtype)
    if m.rank == 0:
        return fb.elementwise([m], lambda x: x, shape, m.dtype)
    return fb.reshape(m, shape)


def _attention(fb, node, a):
    _, dtype = out_type(node)
    m, _ = _attention_mask(a)
    mask = None if m is None else _mask_operand(fb, m, dtype)
    out = fb.attention(a["query"], a["key"], a["value"], bool(a.get("is_causal")),
                       a.get("scale"), dtype, mask=mask)
    if isinstance(meta(node), (tuple, list)):
        return (out,) + (None,) * (len(meta(node)) - 1)
    return out


def _register_attention():
    ops = list(_sdpa_ops())
    for name in ("_scaled_dot_product_flash_attention",
                 "_scaled_dot_product_efficient_attention",
                 "_scaled_dot_product_flash_attention_for_cpu",
                 "_scaled_dot_product_cudnn_attention"):
        if hasattr(aten, name):
            ops.append(getattr(aten, name).default)
    for op in ops:
        # i1 for a bool mask; q, k, v are checked to be floats.
        LOWERINGS[op] = Lowering("compute", "hkg.attention", _attention, _attention_check,
                                 FLOATS + ("i1",))


_register_attention()


# ===----------------------------------------------------------------------===#
# Views: no kernel.
# ===----------------------------------------------------------------------===#

def _reshape(fb, node, a):
    shape, _ = out_type(node)
    return fb.reshape(a["input"], shape)


def _permute(fb, node, a):
    return fb.permute(a["input"], a["dims"])


def _transpose(fb, node, a):
    v = a["input"]
    dims = list(range(v.rank))
    d0, d1 = a["dim0"] % v.rank, a["dim1"] % v.rank
    dims[d0], dims[d1] = dims[d1], dims[d0]
    return fb.permute(v, dims)


def _t(fb, node, a):
    v = a["input"]
    return fb.permute(v, [1, 0]) if v.rank == 2 else v


def _slice_bounds(size, start, end):
    start = 0 if start is None else start
    end = size if end is None else end
    start = start + size if start < 0 else start
    end = end + size if end < 0 else end
    return max(0, min(start, size)), max(0, min(end, size))


def _slice_check(node, a):
    if a.get("step", 1) != 1:
        return f"a slice with step {a.get('step')}"
    return None


def _slice(fb, node, a):
    v = a["input"]
    dim = a["dim"] % v.rank
    start, end = _slice_bounds(v.logical[dim], a.get("start"), a.get("end"))
    return fb.slice(v, dim, start, end)


def _split(fb, node, a):
    v = a["input"]
    dim = a["dim"] % v.rank
    size = v.logical[dim]
    if "split_sizes" in a:
        sizes = list(a["split_sizes"])
    else:
        s = a["split_size"]
        sizes = [s] * (size // s) + ([size % s] if size % s else [])
    out, at = [], 0
    for s in sizes:
        out.append(fb.slice(v, dim, at, at + s))
        at += s
    return tuple(out)


def _same(fb, node, a):
    return a["input"]


def _view(emit, check=None):
    return Lowering("view", "view", emit, check, ELEMENTWISE_TYPES)


for _op in (aten.view.default, aten._unsafe_view.default, aten.reshape.default,
            aten.unsqueeze.default, aten.squeeze.dim, aten.squeeze.dims,
            aten.squeeze.default):
    LOWERINGS[_op] = _view(_reshape)
LOWERINGS[aten.permute.default] = _view(_permute)
LOWERINGS[aten.transpose.int] = _view(_transpose)
LOWERINGS[aten.t.default] = _view(_t)
LOWERINGS[aten.slice.Tensor] = _view(_slice, _slice_check)
LOWERINGS[aten.split.Tensor] = _view(_split)
LOWERINGS[aten.split_with_sizes.default] = _view(_split)
LOWERINGS[aten.alias.default] = _view(_same)
LOWERINGS[aten.detach.default] = _view(_same)
# A copy is no op on values (tensors in MLIR are values): free inside a
# partition; at its edge torch makes it.
LOWERINGS[aten.clone.default] = _view(_same)


def _getitem_check(node, a):
    src = node.args[0]
    if not isinstance(src, torch.fx.Node):
        return "getitem of a non-node"
    low = lowering_of(src)
    if low is None:
        return f"reads {src.name}, which hkg does not compute"
    if low.kind == "compute" and node.args[1] != 0:
        return f"result {node.args[1]} of {src.name}"
    return None


def _getitem(fb, node, a):
    return a[0][a[1]]


class _GetItem(Lowering):
    def check(self, node):
        return _getitem_check(node, None)


GETITEM = _GetItem("view", "view", _getitem)


def lowering_of(node):
    """The Lowering for an FX node, or None."""
    if node.op != "call_function":
        return None
    if node.target is operator.getitem:
        return GETITEM
    low = getattr(node.target, "hkg_lowering", None)
    if low is not None:
        return low
    return LOWERINGS.get(node.target)


def is_view(node):
    """Whether the node writes no kernel: a view op, or an element of a
    view op's results (a split's piece; not an attention's output)."""
    low = lowering_of(node)
    if low is None or low.kind != "view":
        return False
    if node.target is operator.getitem:
        return is_view(node.args[0])
    return True


def op_name(node):
    """aten.add.Tensor for an OpOverload, the function's name otherwise."""
    t = node.target
    if isinstance(t, torch._ops.OpOverload):
        return f"{t.namespace}.{t._schema.name.split('::')[-1]}.{t._overloadname}"
    return getattr(t, "__name__", str(t))

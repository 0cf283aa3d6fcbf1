"""hkg's ops as functions on PyTorch tensors: each call is one hkg kernel.

    import hkg
    y = hkg.ops.softmax(x, dim=-1)
    h = hkg.ops.matmul(x, w, transpose_b=True, bias=b, epilogue=hkg.math.gelu)
    swiglu = hkg.elementwise(lambda g, u: hkg.math.silu(g) * u)
    z = swiglu(gate, up)

Every op checks its arguments before compiling anything: a tensor that is
not on a GPU is a `DeviceError` naming it (move it with `.cuda()`), an
element type the op does not take a `DTypeError`, a shape it cannot take a
`ShapeError` naming the shapes. It then builds a module of one function
holding the op (the `_<op>_module` functions below, pure functions of
shapes, dtypes and parameters), compiles it for the tensors' GPU
(`hkg.compile_mlir`, cached on disk) and launches it on torch's current
stream. The compiled `Program` is memoized per op, shapes, dtypes,
parameters and device: a repeated call costs a dict lookup and the launch.
The ops do not record autograd history; non-contiguous inputs are copied
(except transposed matrices given to `matmul`, read as they are).

Each op also has
- `op.module(*args, **kwargs)`: the MLIR text the call would compile (any
  device, no GPU needed);
- `op.program(*args, target=None, **kwargs)`: the `Program` the call would
  launch, compiled for the tensors' GPU, or for `target` ('sm_90',
  'gfx942', ...) when given (then the tensors may be on any device, e.g.
  CPU tensors for `program.reference(...)`). `program.bundle_dir` is the
  bundle of the exact kernel the op launches. A `Program` returns what its
  function returns: for `matmul` over a 2-D `b` with batched `a`, and for
  rank-0 `elementwise` results, that is the flattened result the op
  reshapes.

Python functions given as bodies (`elementwise`, `matmul(epilogue=)`,
`reduce(prologue=, epilogue=)`) are traced by `hkg.trace` (see `hkg.math`)
once per shapes, dtypes and values they read: a function is keyed by its
code and every number, string or function it reads (defaults, closure
cells, the globals its code names, recursively), so a lambda in a loop
over scales compiles once per scale; one that reads anything else (a
list, a tensor, an object) is traced again at every call.
"""

import functools
import inspect
import math as _pymath
import types

from . import trace as _trace
from .compiler import compile_mlir
from .dtypes import from_torch, tensor_type
from .errors import DeviceError, DTypeError, ShapeError, UnsupportedError
from .runtime import target_of

__all__ = [
    "attention", "elementwise", "layernorm", "log_softmax", "matmul",
    "reduce", "rmsnorm", "rope", "softmax", "top_p_sample", "topk",
]

_FLOATS = ("f32", "f16", "bf16")
_ALL = ("f64", "f32", "f16", "bf16", "i64", "i32", "i8", "i1")
_TORCH_NAMES = {"f64": "torch.float64", "f32": "torch.float32",
                "f16": "torch.float16", "bf16": "torch.bfloat16",
                "i64": "torch.int64", "i32": "torch.int32",
                "i8": "torch.int8", "i1": "torch.bool"}

# (spec, devices) -> (Program, post): spec is (module builder, its
# arguments), post what turns the program's result into the op's.
_programs = {}


def _torch():
    import torch
    return torch


# -- argument checks ---------------------------------------------------------

def _elem(op, name, dtype, allowed=_FLOATS):
    """The MLIR element type of `dtype`, a DTypeError naming the argument
    where the op does not take it."""
    try:
        e = from_torch(dtype)
    except DTypeError:
        e = None
    if e not in allowed:
        raise DTypeError(
            f"hkg.ops.{op}: '{name}' is {dtype}; it takes " +
            ", ".join(_TORCH_NAMES[a] for a in allowed))
    return e


def _shape_str(shape):
    return "[" + ", ".join(str(d) for d in shape) + "]"


def _no_empty(op, name, shape):
    if 0 in tuple(shape):
        raise ShapeError(f"hkg.ops.{op}: '{name}' has shape "
                         f"{_shape_str(shape)}; hkg kernels take no "
                         "zero-size dims")


def _dim(op, name, dim, rank):
    """`dim` in [-rank, rank) as an index in [0, rank)."""
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise TypeError(f"hkg.ops.{op}: dim must be an int, got {dim!r}")
    if not -rank <= dim < rank:
        raise ShapeError(f"hkg.ops.{op}: dim {dim} is out of range for "
                         f"'{name}' of rank {rank}")
    return dim % rank


def _float(op, what, v, positive=True):
    try:
        v = float(v)
    except (TypeError, ValueError):
        raise TypeError(f"hkg.ops.{op}: {what} must be a number, got "
                        f"{v!r}") from None
    if not _pymath.isfinite(v) or (positive and not v > 0):
        raise ValueError(f"hkg.ops.{op}: {what} must be "
                         f"{'> 0 and ' if positive else ''}finite, got {v}")
    return v


def _mlir_float(v):
    """A float literal MLIR parses: 1.0e-05, 0.125."""
    s = repr(float(v))
    if "e" in s and "." not in s:
        s = s.replace("e", ".0e")
    return s


def _device(op, tensors, names):
    """The one GPU device of `tensors`; DeviceError naming the first
    tensor on another device."""
    device = None
    for t, n in zip(tensors, names):
        if t.device.type != "cuda":
            raise DeviceError(
                f"hkg.ops.{op}: '{n}' is on '{t.device}'; hkg kernels run on "
                "GPU tensors: move it with .cuda() (CUDA and ROCm builds of "
                "torch both call the GPU 'cuda')")
        if device is None:
            device = t.device
        elif t.device != device:
            raise DeviceError(f"hkg.ops.{op}: '{names[0]}' is on {device} "
                              f"and '{n}' on {t.device}; all must be on one "
                              "GPU")
    return device


def _not_tensors(op, prepare, args, kwargs):
    """A TypeError naming the first argument that should be a tensor and
    is not (after an AttributeError in `prepare`)."""
    torch = _torch()
    try:
        bound = inspect.signature(prepare).bind(*args, **kwargs).arguments
    except TypeError:
        return
    for name, a in bound.items():
        tensor_like = name in ("x", "a", "b", "q", "k", "v", "cos", "sin",
                               "logits", "weight", "bias", "uniform", "mask")
        if tensor_like and a is not None and not isinstance(a, torch.Tensor):
            raise TypeError(f"hkg.ops.{op}: '{name}' must be a torch.Tensor, "
                            f"got {type(a).__name__}")
        if name in ("tensors", "epilogue_inputs", "ins"):
            for i, t in enumerate(a if isinstance(a, (tuple, list)) else [a]):
                if not isinstance(t, torch.Tensor):
                    raise TypeError(f"hkg.ops.{op}: {name}[{i}] must be a "
                                    f"torch.Tensor, got {type(t).__name__}")


_PRIMITIVES = (bool, int, float, complex, str, type(None))


def _value_key(v, depth):
    """A hashable key of a value a traced function reads, or None when the
    value could change behind the key (a list, a tensor, an object): then
    the function is traced again at every call."""
    if isinstance(v, _PRIMITIVES):
        # By type and repr: 1, 1.0 and True differ, and so do 0.0 and -0.0.
        return (type(v), repr(v))
    if isinstance(v, tuple):
        keys = tuple(_value_key(x, depth) for x in v)
        return None if any(k is None for k in keys) else ("tuple", keys)
    if isinstance(v, types.ModuleType):
        return ("module", v.__name__)
    if isinstance(v, types.BuiltinFunctionType):
        return ("builtin", v)
    if isinstance(v, types.FunctionType):
        return _fn_key(v, depth + 1)
    return None


def _fn_key(fn, depth=0):
    """What identifies a traced function: its code and every value it reads
    that could differ between two functions of the same code (defaults,
    closure cells, the globals its code names, and the same for functions
    it calls, a few levels deep), so a lambda written in a loop maps to one
    kernel per distinct value. None when one of them is not a plain
    immutable value: such a function is traced at every call."""
    if depth > 4 or not isinstance(fn, types.FunctionType):
        return None
    code = fn.__code__
    parts = [code]
    values = list(fn.__defaults__ or ())
    values += [v for _, v in sorted((fn.__kwdefaults__ or {}).items())]
    try:
        values += [c.cell_contents for c in fn.__closure__ or ()]
    except ValueError:  # an empty cell
        return None
    names = []
    stack = [code]
    while stack:  # the globals named by the code and its nested code
        c = stack.pop()
        names += c.co_names
        stack += [k for k in c.co_consts if isinstance(k, types.CodeType)]
    globs = fn.__globals__
    for n in sorted(set(names)):
        if n in globs:
            values.append(globs[n])
            parts.append(n)
    for v in values:
        k = _value_key(v, depth)
        if k is None:
            return None
        parts.append(k)
    return tuple(parts)


class _Uncacheable(TypeError):
    """A traced function whose trace may change between calls."""


class _Traced:
    """A traced function in a spec: equal (and hashing equal) to another
    of the same `_fn_key`, calling the function it was made with; a
    function without a key (it reads mutable state) cannot be hashed, so
    its op is traced and looked up by module text at every call."""

    __slots__ = ("fn", "key", "hash")

    def __init__(self, fn):
        self.fn = fn
        self.key = _fn_key(fn)
        self.hash = None if self.key is None else hash(self.key)

    def __eq__(self, other):
        return (isinstance(other, _Traced) and self.key is not None
                and self.key == other.key)

    def __hash__(self):
        if self.hash is None:
            raise _Uncacheable(f"{self!r} reads values that may change")
        return self.hash

    def __repr__(self):
        return f"<traced {getattr(self.fn, '__qualname__', self.fn)!r}>"


def _traced(fn, what):
    if fn is None:
        return None
    if not callable(fn):
        raise TypeError(f"{what} must be a callable, got {type(fn).__name__}")
    return _Traced(fn)


# -- the module text ----------------------------------------------------------

def _affine_map(rank, exprs):
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({', '.join(exprs)})>"


def _broadcast_map(op, name, shape, result):
    """The indexing map of an operand broadcast over `result` by torch's
    rules (dims aligned at the right, extent 1 broadcasting)."""
    offset = len(result) - len(shape)
    if offset < 0:
        raise ShapeError(f"hkg.ops.{op}: '{name}' of shape "
                         f"{_shape_str(shape)} has more dims than "
                         f"{_shape_str(result)}")
    exprs = []
    for k, extent in enumerate(shape):
        j = offset + k
        if extent == result[j]:
            exprs.append(f"d{j}")
        elif extent == 1:
            exprs.append("0")
        else:
            raise ShapeError(
                f"hkg.ops.{op}: '{name}' of shape {_shape_str(shape)} does "
                f"not broadcast to {_shape_str(result)} (dim {k} is {extent} "
                f"where {result[j]} is needed, or 1)")
    return _affine_map(len(result), exprs)


def _function(name, args, results, lines):
    """func.func @name(args) -> results { lines; return }: `args` are
    (ssa name, type) pairs, `lines` end with the values to return."""
    sig = ", ".join(f"%{n}: {t}" for n, t in args)
    res = ", ".join(results)
    res = res if len(results) == 1 else f"({res})"
    body = "\n".join("  " + line for line in lines)
    return f"func.func @{name}({sig}) -> {res} {{\n{body}\n}}\n"


def _region(body):
    return "{\n" + body + "\n}"


def _return(values, types):
    return f"return {', '.join(values)} : {', '.join(types)}"


# -- the op wrapper -------------------------------------------------------------

def _build(spec):
    built = spec[0](*spec[1:])
    return (built, None) if isinstance(built, str) else built


def _compile(op, spec, tensors, names, target=None):
    if target is None:
        target = target_of(_device(op, tensors, names))
    text, post = _build(spec)
    return compile_mlir(text, target), post


def _op(prepare):
    """An hkg op from `prepare(*args, **kwargs) -> (spec, tensors, names)`:
    spec is (builder, *arguments), hashable, the builder a pure function
    returning the module text (or (text, post)) and raising the op's
    DTypeError / ShapeError; tensors are the function's arguments in
    order, names what the errors call them."""
    name = prepare.__name__.lstrip("_")

    def prepared(args, kwargs):
        try:
            return prepare(*args, **kwargs)
        except AttributeError:
            # A non-tensor where a tensor belongs: say which.
            _not_tensors(name, prepare, args, kwargs)
            raise

    def lookup(spec, tensors, names):
        key = (spec, *[t.device for t in tensors])
        try:
            entry = _programs.get(key)
        except _Uncacheable:
            # Traced again now; compile_mlir finds the program by its text.
            return _compile(name, spec, tensors, names)
        except TypeError:
            _build(spec)  # an unhashable argument: the builder says which
            raise
        if entry is None:
            entry = _programs[key] = _compile(name, spec, tensors, names)
        return entry

    @functools.wraps(prepare)
    def op(*args, **kwargs):
        spec, tensors, names = prepared(args, kwargs)
        key = (spec, *[t.device for t in tensors])
        try:
            entry = _programs[key]
        except (KeyError, TypeError):
            entry = lookup(spec, tensors, names)
        program, post = entry
        out = program(*tensors)
        return out if post is None else post(out)

    def module(*args, **kwargs):
        """The MLIR module text the op compiles for these arguments (any
        device; nothing is compiled)."""
        return _build(prepared(args, kwargs)[0])[0]

    def program(*args, target=None, **kwargs):
        """The `Program` the op launches for these arguments: compiled for
        their GPU, or for the chip `target` when given (the tensors may
        then be on any device)."""
        spec, tensors, names = prepared(args, kwargs)
        if target is not None:
            return _compile(name, spec, tensors, names, target)[0]
        return lookup(spec, tensors, names)[0]

    op.__name__ = op.__qualname__ = name
    op.module = module
    op.program = program
    return op


# -- softmax ----------------------------------------------------------------------

def _softmax_module(shape, dtype, dim, log):
    """hkg.softmax of an input of `shape` and torch `dtype` along `dim`
    (log-softmax with `log`)."""
    op = "log_softmax" if log else "softmax"
    e = _elem(op, "x", dtype)
    if len(shape) == 0:
        raise ShapeError(f"hkg.ops.{op}: 'x' has rank 0; hkg.softmax takes "
                         "rank >= 1")
    _no_empty(op, "x", shape)
    axis = _dim(op, "x", dim, len(shape))
    t = tensor_type(shape, e)
    return _function(op, [("x", t)], [t], [
        f"%0 = hkg.softmax {'log ' if log else ''}%x axis({axis}) : {t} -> {t}",
        _return(["%0"], [t])])


@_op
def _softmax(x, dim=-1):
    return (_softmax_module, x.shape, x.dtype, dim, False), (x,), ("x",)


@_op
def _log_softmax(x, dim=-1):
    return (_softmax_module, x.shape, x.dtype, dim, True), (x,), ("x",)


def softmax(x, dim=-1):
    """torch.softmax(x, dim): exp(x - max) / sum(exp(x - max)) along `dim`,
    computed in f32, returned in x's dtype (float32, float16, bfloat16)."""
    return _softmax(x, dim)


def log_softmax(x, dim=-1):
    """torch.log_softmax(x, dim) in one kernel, computed in f32, returned
    in x's dtype."""
    return _log_softmax(x, dim)


for _public, _impl in ((softmax, _softmax), (log_softmax, _log_softmax)):
    _public.module, _public.program = _impl.module, _impl.program


# -- layernorm / rmsnorm ------------------------------------------------------------

def _norm_axes(op, shape, axes):
    """The normalized axes (sorted, in [0, rank)) of `axes`: None (the last
    dim), an int, or a sequence of adjacent ints."""
    rank = len(shape)
    if axes is None:
        return (rank - 1,)
    given = (axes,) if isinstance(axes, int) else tuple(axes)
    if not given:
        raise ShapeError(f"hkg.ops.{op}: axes is empty; omit it for the last "
                         "dim")
    norm = sorted(_dim(op, "x", a, rank) for a in given)
    for a, b in zip(norm, norm[1:]):
        if b != a + 1:
            raise ShapeError(f"hkg.ops.{op}: axes {list(given)} of 'x' "
                             f"{_shape_str(shape)} are not adjacent distinct "
                             "dims")
    if len(norm) > 1 and norm[-1] != rank - 1:
        raise ShapeError(f"hkg.ops.{op}: axes {list(given)} of 'x' "
                         f"{_shape_str(shape)}: several axes must be trailing "
                         "(end at the last dim); a single axis may be anywhere")
    return tuple(norm)


def _norm_module(kind, shape, dtype, axes, eps, weight, bias):
    """hkg.layernorm / hkg.rmsnorm (`kind`) of an input of `shape` and
    `dtype` over `axes`; `weight` and `bias` are (shape, dtype) or None."""
    e = _elem(kind, "x", dtype)
    if len(shape) == 0:
        raise ShapeError(f"hkg.ops.{kind}: 'x' has rank 0")
    _no_empty(kind, "x", shape)
    norm = _norm_axes(kind, shape, axes)
    want = tuple(shape[norm[0]:norm[-1] + 1])
    t = tensor_type(shape, e)
    args = [("x", t)]
    clause = ""
    if axes is not None:
        clause += f" axes = [{', '.join(str(a) for a in norm)}]"
    for name, wb in (("weight", weight), ("bias", bias)):
        if wb is None:
            continue
        ws, wd = wb
        we = _elem(kind, name, wd)
        if tuple(ws) != want:
            raise ShapeError(
                f"hkg.ops.{kind}: '{name}' has shape {_shape_str(ws)}; the "
                f"normalized dims of 'x' {_shape_str(shape)} (axes "
                f"{list(norm)}) are {_shape_str(want)}" +
                ("; pass axes= for several trailing dims" if axes is None
                 and len(ws) > 1 else ""))
        wt = tensor_type(ws, we)
        args.append((name[0], wt))
        clause += f" {name}(%{name[0]} : {wt})"
    return _function(kind, args, [t], [
        f"%0 = hkg.{kind} %x{clause} eps({_mlir_float(eps)}) : {t} -> {t}",
        _return(["%0"], [t])])


def _wb(t):
    return None if t is None else (t.shape, t.dtype)


@_op
def _layernorm(x, weight=None, bias=None, eps=1e-5, *, axes=None):
    eps = _float("layernorm", "eps", eps)
    spec = (_norm_module, "layernorm", x.shape, x.dtype,
            axes if axes is None or isinstance(axes, int) else tuple(axes),
            eps, _wb(weight), _wb(bias))
    tensors = tuple(t for t in (x, weight, bias) if t is not None)
    names = ("x",) + tuple(n for n, t in (("weight", weight), ("bias", bias))
                           if t is not None)
    return spec, tensors, names


@_op
def _rmsnorm(x, weight=None, eps=1e-6, *, axes=None):
    eps = _float("rmsnorm", "eps", eps)
    spec = (_norm_module, "rmsnorm", x.shape, x.dtype,
            axes if axes is None or isinstance(axes, int) else tuple(axes),
            eps, _wb(weight), None)
    if weight is None:
        return spec, (x,), ("x",)
    return spec, (x, weight), ("x", "weight")


def layernorm(x, weight=None, bias=None, eps=1e-5, *, axes=None):
    """torch.nn.functional.layer_norm(x, x.shape[axes], weight, bias, eps):
    (x - mean) / sqrt(var + eps) * weight + bias, the mean and biased
    variance over `axes` (default: the last dim; several adjacent axes must
    end at the last dim), statistics in f32, the result in x's dtype.

    A single inner axis (axes=1 of [B, C, L]) normalizes down that axis for
    each index of the others, as layer_norm of x.movedim(1, -1) moved back.
    `weight` and `bias` have the normalized dims' shape and may be of
    another float dtype than x."""
    return _layernorm(x, weight, bias, eps, axes=axes)


def rmsnorm(x, weight=None, eps=1e-6, *, axes=None):
    """torch.nn.functional.rms_norm(x, x.shape[axes], weight, eps):
    x / sqrt(mean(x^2) + eps) * weight over `axes` (as for `layernorm`),
    statistics in f32, the result in x's dtype."""
    return _rmsnorm(x, weight, eps, axes=axes)


for _public, _impl in ((layernorm, _layernorm), (rmsnorm, _rmsnorm)):
    _public.module, _public.program = _impl.module, _impl.program


# -- matmul ----------------------------------------------------------------------------

def _matmul_module(a_shape, b_shape, dtype, b_dtype, transpose_a, transpose_b,
                   bias, extras, epilogue, out_dtype, batch_view=None):
    """hkg.matmul of a [batch..., M, K] (or [..., K, M] with transpose_a)
    and b [batch..., K, N] (or [..., N, K] with transpose_b), with `bias`
    ((shape, dtype) or None) added to the f32 accumulator, then `epilogue`
    (a _Traced of fn(acc, *extras)) over the epilogue operands `extras`
    ((shape, dtype) each), the result of `out_dtype`. `batch_view`: the
    dims a's rows were flattened from ([B..., M]; the result is viewed back
    to [B..., M, N])."""
    op = "matmul"
    ea = _elem(op, "a", dtype)
    eb = _elem(op, "b", b_dtype)
    if ea != eb:
        raise DTypeError(f"hkg.ops.matmul: 'a' is {dtype} and 'b' "
                         f"{b_dtype}; they must have one dtype")
    eo = _elem(op, "out_dtype", out_dtype)
    for n, s in (("a", a_shape), ("b", b_shape)):
        if len(s) < 2:
            raise ShapeError(f"hkg.ops.matmul: '{n}' has shape "
                             f"{_shape_str(s)}; it needs rank >= 2")
        _no_empty(op, n, s)
    if len(a_shape) != len(b_shape) or a_shape[:-2] != b_shape[:-2]:
        raise ShapeError(
            f"hkg.ops.matmul: 'a' {_shape_str(a_shape)} and 'b' "
            f"{_shape_str(b_shape)} must have equal batch dims (or 'b' "
            "2-D); expand them explicitly to broadcast")
    m, ka = (a_shape[-1], a_shape[-2]) if transpose_a else a_shape[-2:]
    kb, n = (b_shape[-1], b_shape[-2]) if transpose_b else b_shape[-2:]
    if ka != kb:
        raise ShapeError(
            f"hkg.ops.matmul: 'a' {_shape_str(a_shape)}"
            f"{' (transposed)' if transpose_a else ''} and 'b' "
            f"{_shape_str(b_shape)}{' (transposed)' if transpose_b else ''} "
            f"do not contract: K = {ka} and {kb}")
    result = tuple(a_shape[:-2]) + (m, n)
    ta, tb, to = (tensor_type(a_shape, ea), tensor_type(b_shape, eb),
                  tensor_type(result, eo))
    args = [("a", ta), ("b", tb)]
    operands = ([("bias", bias)] if bias is not None else []) + [
        (f"epilogue_inputs[{i}]", x) for i, x in enumerate(extras)]
    names, types, maps, elems = [], [], [], []
    for i, (name, (s, d)) in enumerate(operands):
        e = _elem(op, name, d)
        _no_empty(op, name, s)
        maps.append(_broadcast_map(op, name, tuple(s), result))
        t = tensor_type(s, e)
        args.append((f"e{i}", t))
        names.append(f"%e{i}")
        types.append(t)
        elems.append(e)
    attrs = [a for a, on in (("transpose_a", transpose_a),
                             ("transpose_b", transpose_b)) if on]
    if maps:
        attrs.append(f"indexing_maps = [{', '.join(maps)}]")
    line = "%0 = hkg.matmul %a, %b"
    if names:
        line += f" epilogue({', '.join(names)} : {', '.join(types)})"
    if attrs:
        line += " {" + ", ".join(attrs) + "}"
    line += f" : {ta}, {tb} -> {to}"
    if bias is not None or epilogue is not None:
        user = epilogue.fn if epilogue is not None else None

        def body(acc, *ins):
            if bias is not None:
                acc = acc + ins[0]
                ins = ins[1:]
            return acc if user is None else user(acc, *ins)

        line += " " + _region(_trace.trace_body(body, ["f32"] + elems, [eo]))
    text = _function(op, args, [to], [line, _return(["%0"], [to])])
    if batch_view is None:
        return text
    shape = tuple(batch_view) + (n,)
    return text, lambda out: out.view(shape)


def _flatten_epilogue(t, result):
    """An epilogue operand broadcast over [B..., M, N], as one over the
    flattened [B*M, N]; None where it does not flatten."""
    s = tuple(t.shape)
    if len(s) <= 1:
        return t
    padded = (1,) * (len(result) - len(s)) + s
    if len(padded) > len(result):
        return None
    if padded[:-1] == tuple(result[:-1]):
        return t.reshape(-1, s[-1])
    if all(d == 1 for d in padded[:-2]):
        return t.reshape(s[-2:]) if padded[-2] == 1 else None
    return None


@_op
def _matmul(a, b, *, transpose_a=False, transpose_b=False, bias=None,
            epilogue=None, epilogue_inputs=(), out_dtype=None):
    transpose_a, transpose_b = bool(transpose_a), bool(transpose_b)
    # A transposed view of a contiguous matrix is read as the transposed
    # layout, not copied.
    if a.dim() >= 2 and not a.is_contiguous() and a.mT.is_contiguous() and \
            (a.dim() == 2 or b.dim() != 2):
        a, transpose_a = a.mT, not transpose_a
    if b.dim() >= 2 and not b.is_contiguous() and b.mT.is_contiguous():
        b, transpose_b = b.mT, not transpose_b
    extras = tuple(epilogue_inputs)
    batch_view = None
    if a.dim() > 2 and b.dim() == 2 and not transpose_a:
        # [B..., M, K] @ [K, N]: one [B*M, K] @ [K, N].
        n = b.shape[0] if transpose_b else b.shape[1]
        result = tuple(a.shape[:-1]) + (n,)
        operands = ((("bias", bias),) if bias is not None else ()) + tuple(
            (f"epilogue_inputs[{i}]", t) for i, t in enumerate(extras))
        flat = []
        for name, t in operands:
            f = _flatten_epilogue(t, result)
            if f is None:
                raise ShapeError(
                    f"hkg.ops.matmul: '{name}' of shape {_shape_str(t.shape)}"
                    f" over the result {_shape_str(result)} of a 2-D 'b': "
                    "only operands of the result's batch dims, or of none, "
                    "are read over the flattened product; give 'b' batch "
                    "dims")
            flat.append(f)
        batch_view = tuple(a.shape[:-1])
        a = a.reshape(-1, a.shape[-1])
        if bias is not None:
            bias, flat = flat[0], flat[1:]
        extras = tuple(flat)
    dtype = a.dtype if out_dtype is None else out_dtype
    spec = (_matmul_module, a.shape, b.shape, a.dtype, b.dtype, transpose_a,
            transpose_b, _wb(bias),
            tuple([(t.shape, t.dtype) for t in extras]) if extras else (),
            _traced(epilogue, "hkg.ops.matmul: epilogue"), dtype, batch_view)
    if bias is None and not extras:
        return spec, (a, b), ("a", "b")
    tensors = (a, b) + ((bias,) if bias is not None else ()) + extras
    names = ("a", "b") + (("bias",) if bias is not None else ()) + tuple(
        f"epilogue_inputs[{i}]" for i in range(len(extras)))
    return spec, tensors, names


def matmul(a, b, *, transpose_a=False, transpose_b=False, bias=None,
           epilogue=None, epilogue_inputs=(), out_dtype=None):
    """epilogue(a @ b + bias, *epilogue_inputs) in one kernel.

    torch.matmul(a, b) for a [batch..., M, K] and b [batch..., K, N] of one
    float dtype (equal batch dims, or b 2-D: x @ W over any leading dims of
    x), products accumulated in f32. `transpose_b` takes b as [..., N, K]
    (F.linear(a, b, bias) is matmul(a, b, transpose_b=True, bias=bias)),
    `transpose_a` a as [..., K, M]; a transposed view (w.t()) of a
    contiguous tensor is read in place.

    `bias` (broadcast over the result by torch's rules: [N], a per-row
    [M, 1], ...) is added to the f32 accumulator; `epilogue`, a Python
    function of scalars (see hkg.math), maps that f32 value and one element
    of each `epilogue_inputs` tensor (broadcast likewise) to the output
    element: `epilogue=hkg.math.gelu`, or
    `epilogue=lambda acc, r: acc + r, epilogue_inputs=(residual,)`. The
    result has `out_dtype` (default: a's dtype), rounded once (torch eager
    rounds after the matmul and again after each elementwise op)."""
    return _matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b,
                   bias=bias, epilogue=epilogue,
                   epilogue_inputs=epilogue_inputs, out_dtype=out_dtype)


matmul.module, matmul.program = _matmul.module, _matmul.program


# -- attention ------------------------------------------------------------------------

_LAYOUTS = ("bhsd", "bshd")


def _attention_mask(mask, full):
    """The rank-4 shape hkg.attention reads a mask of shape `mask` as
    (leading 1s added), a ShapeError unless it broadcasts to `full`
    ([B, Hq, Sq, Skv]) with each dim full or 1."""
    mask = tuple(mask)
    if len(mask) > 4 or not all(
            d in (1, f) for d, f in zip(mask, full[4 - len(mask):])):
        raise ShapeError(f"hkg.ops.attention: 'mask' has shape "
                         f"{_shape_str(mask)}; expected [B, Hq, Sq, Skv] = "
                         f"{_shape_str(full)} (whatever the layout), each "
                         "dim full or 1, leading dims may be left out")
    return (1,) * (4 - len(mask)) + mask


def _attention_module(q, k, v, causal, scale, layout, mask=None):
    """hkg.attention of q, k, v ((shape, dtype) each) in `layout`, with the
    additive `mask` ((shape, dtype), rank 4; bool: True attends) if given."""
    op = "attention"
    if layout not in _LAYOUTS:
        raise ValueError(f"hkg.ops.attention: layout must be 'bhsd' or "
                         f"'bshd', got {layout!r}")
    elems = [_elem(op, n, d) for n, (_, d) in zip("qkv", (q, k, v))]
    if len(set(elems)) != 1:
        raise DTypeError(f"hkg.ops.attention: 'q', 'k' and 'v' are "
                         f"{q[1]}, {k[1]} and {v[1]}; they must have one dtype")
    order = "[B, H, S, D]" if layout == "bhsd" else "[B, S, H, D]"
    for n, (s, _) in zip("qkv", (q, k, v)):
        if len(s) != 4:
            raise ShapeError(f"hkg.ops.attention: '{n}' has shape "
                             f"{_shape_str(s)}; expected rank 4 {order} "
                             f"(layout '{layout}')")
        _no_empty(op, n, s)
    h, sp = (1, 2) if layout == "bhsd" else (2, 1)
    qs, ks, vs = q[0], k[0], v[0]
    shapes = (f"'q' {_shape_str(qs)}, 'k' {_shape_str(ks)}, 'v' "
              f"{_shape_str(vs)} ({order})")
    if not (qs[0] == ks[0] == vs[0]) or ks[3] != qs[3] or \
            vs[h] != ks[h] or vs[sp] != ks[sp]:
        raise ShapeError(f"hkg.ops.attention: {shapes}: expected one batch "
                         "size, k's head dim equal to q's, and v's heads "
                         "and length equal to k's")
    if qs[h] % ks[h]:
        raise ShapeError(f"hkg.ops.attention: {shapes}: q's heads must be a "
                         "multiple of k's and v's")
    if causal and qs[sp] > ks[sp]:
        raise ShapeError(f"hkg.ops.attention: {shapes}: causal attention "
                         "needs at most as many queries as keys")
    out = list(qs)
    out[3] = vs[3]
    tq, tk, tv, to = (tensor_type(qs, elems[0]), tensor_type(ks, elems[0]),
                      tensor_type(vs, elems[0]), tensor_type(out, elems[0]))
    args = [("q", tq), ("k", tk), ("v", tv)]
    lines = []
    line = "%0 = hkg.attention %q, %k, %v"
    if mask is not None:
        ms = _attention_mask(mask[0], (qs[0], qs[h], qs[sp], ks[sp]))
        _no_empty(op, "mask", ms)
        em = _elem(op, "mask", mask[1], _FLOATS + ("i1",))
        tm = tensor_type(ms, em)
        args.append(("mask", tm))
        name = "%mask"
        if em == "i1":  # True attends: 0 there, -inf elsewhere, in q's type
            tm = tensor_type(ms, elems[0])
            body = _trace.trace_body(
                lambda m: _trace.where(m, 0.0, -_pymath.inf), ["i1"], [elems[0]])
            lines.append(f"%m = hkg.elementwise %mask {{indexing_maps = "
                         f"[{_affine_map(4, [f'd{i}' for i in range(4)])}]}} : "
                         f"{tensor_type(ms, em)} -> {tm} {_region(body)}")
            name = "%m"
        line += f" mask({name} : {tm})"
    if causal:
        line += " causal"
    if scale is not None:
        line += f" scale({_mlir_float(scale)})"
    if layout != "bhsd":
        line += f" layout({layout})"
    line += f" : {tq}, {tk}, {tv} -> {to}"
    return _function(op, args, [to],
                     lines + [line, _return(["%0"], [to])])


@_op
def _attention(q, k, v, causal=False, scale=None, layout="bhsd", mask=None):
    if scale is not None:
        scale = _float("attention", "scale", scale)
    spec = (_attention_module, (q.shape, q.dtype), (k.shape, k.dtype),
            (v.shape, v.dtype), bool(causal), scale, layout)
    if mask is None:
        return spec, (q, k, v), ("q", "k", "v")
    spec += ((tuple(mask.shape), mask.dtype),)
    if mask.dim() < 4:  # the module reads it as rank 4 (it checks the shape)
        mask = mask.reshape((1,) * (4 - mask.dim()) + tuple(mask.shape))
    return spec, (q, k, v, mask), ("q", "k", "v", "mask")


def attention(q, k, v, causal=False, scale=None, layout="bhsd", *, mask=None):
    """torch.nn.functional.scaled_dot_product_attention(q, k, v,
    attn_mask=mask, is_causal=causal, scale=scale, enable_gqa=True) in one
    kernel.

    layout 'bhsd': q [B, Hq, Sq, D], k [B, Hkv, Skv, D], v [B, Hkv, Skv, Dv],
    the result [B, Hq, Sq, Dv]; 'bshd': the sequence dim before the heads
    in all four. Hq must be a multiple of Hkv (query head h reads key/value
    head h // (Hq // Hkv)). `scale` defaults to 1/sqrt(D). With `causal`,
    query i attends to keys j <= i + (Skv - Sq): the causal mask aligned at
    the bottom right, which is torch's is_causal (aligned at the top left)
    only when Sq == Skv. float32, float16, bfloat16; softmax in f32.

    `mask`, torch's attn_mask: a tensor of shape [B, Hq, Sq, Skv] in that
    order whatever the layout, each dim full or 1 (broadcast), leading dims
    may be left out ([Sq, Skv] is one mask for all batches and heads). A
    float mask (float32, float16 or bfloat16, any of them whatever q's
    dtype) is added to the scaled scores before the softmax, -inf hiding a
    key; a bool mask is True where a query attends, turned into 0 / -inf of
    q's dtype by an elementwise kernel before the attention. A query that
    sees no key gives 0 (as torch's SDPA on CPU; torch refuses
    is_causal with attn_mask, hkg applies both)."""
    return _attention(q, k, v, causal, scale, layout, mask)


attention.module, attention.program = _attention.module, _attention.program


# -- rope -------------------------------------------------------------------------------

def _rope_module(x_shape, x_dtype, table_shape, cos_dtype, sin_dtype,
                 layout, offset):
    """hkg.rope of x [B, S, H, D] with cos / sin tables of `table_shape`."""
    op = "rope"
    if layout not in ("neox", "gptj"):
        raise ValueError(f"hkg.ops.rope: layout must be 'neox' or 'gptj', "
                         f"got {layout!r}")
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise ValueError(f"hkg.ops.rope: offset must be an int >= 0, got "
                         f"{offset!r}")
    ex = _elem(op, "x", x_dtype)
    ec = _elem(op, "cos", cos_dtype)
    es = _elem(op, "sin", sin_dtype)
    if ec != es:
        raise DTypeError(f"hkg.ops.rope: 'cos' is {cos_dtype} and 'sin' "
                         f"{sin_dtype}; they must have one dtype")
    if len(x_shape) != 4 or x_shape[3] % 2:
        raise ShapeError(f"hkg.ops.rope: 'x' has shape {_shape_str(x_shape)};"
                         " expected [B, S, H, D] with D even")
    _no_empty(op, "x", x_shape)
    s, d = x_shape[1], x_shape[3]
    if len(table_shape) != 2 or table_shape[1] not in (d // 2, d) or \
            table_shape[0] < s + offset:
        raise ShapeError(
            f"hkg.ops.rope: 'cos' and 'sin' have shape "
            f"{_shape_str(table_shape)}; for 'x' {_shape_str(x_shape)} and "
            f"offset {offset} expected [P, {d // 2}] or [P, {d}] with "
            f"P >= S + offset = {s + offset}")
    tx, tt = tensor_type(x_shape, ex), tensor_type(table_shape, ec)
    return _function(op, [("x", tx), ("cos", tt), ("sin", tt)], [tx], [
        f"%0 = hkg.rope %x, %cos, %sin {layout} offset({offset}) : "
        f"{tx}, {tt}, {tt} -> {tx}",
        _return(["%0"], [tx])])


@_op
def _rope(x, cos, sin, *, layout="neox", offset=0):
    if cos.shape != sin.shape:
        raise ShapeError(f"hkg.ops.rope: 'cos' {_shape_str(cos.shape)} and "
                         f"'sin' {_shape_str(sin.shape)} must have one shape")
    spec = (_rope_module, x.shape, x.dtype, cos.shape, cos.dtype, sin.dtype,
            layout, offset)
    return spec, (x, cos, sin), ("x", "cos", "sin")


def rope(x, cos, sin, *, layout="neox", offset=0):
    """Rotary position embedding of x [B, S, H, D] (D even); token s uses
    row s + offset of the tables cos and sin ([P, D/2] or [P, D],
    P >= S + offset). Computed in f32, returned in x's dtype.

    layout 'neox' (GPT-NeoX, Llama: Hugging Face's apply_rotary_pos_emb,
    rotate_half) pairs x[i] with x[i + D/2]; 'gptj' pairs x[2i] with
    x[2i + 1]. With half-width tables pair k uses cos[k], sin[k]:
    out_a = a cos - b sin, out_b = b cos + a sin. With full-width tables
    ([P, D], Hugging Face's) each output uses the entry at its own index:
    for neox, x * cos + rotate_half(x) * sin."""
    return _rope(x, cos, sin, layout=layout, offset=offset)


rope.module, rope.program = _rope.module, _rope.program


# -- top-p sampling ------------------------------------------------------------------

def _top_p_module(logits_shape, dtype, p, temperature, seed):
    """hkg.top_p_sample of logits [B, V]: drawing from a `uniform` [B]
    operand when seed is None, else from the generator seeded by `seed`."""
    op = "top_p_sample"
    e = _elem(op, "logits", dtype)
    if len(logits_shape) != 2:
        raise ShapeError(f"hkg.ops.top_p_sample: 'logits' has shape "
                         f"{_shape_str(logits_shape)}; expected [B, V]")
    _no_empty(op, "logits", logits_shape)
    if not 0.0 < p <= 1.0:
        raise ValueError(f"hkg.ops.top_p_sample: p must be in (0, 1], got {p}")
    b = logits_shape[0]
    tl, tr, tu = (tensor_type(logits_shape, e), tensor_type([b], "i32"),
                  tensor_type([b], "f32"))
    args = [("logits", tl)]
    line = "%0 = hkg.top_p_sample %logits"
    if seed is None:
        args.append(("uniform", tu))
        line += f" uniform(%uniform : {tu})"
    line += f" p({_mlir_float(p)}) temperature({_mlir_float(temperature)})"
    if seed is not None:
        line += f" seed({seed})"
    line += f" : {tl} -> {tr}"
    return _function(op, args, [tr], [line, _return(["%0"], [tr])])


@_op
def _top_p_sample(logits, p, *, temperature=1.0, seed=None, uniform=None):
    p = _float("top_p_sample", "p", p)
    temperature = _float("top_p_sample", "temperature", temperature)
    if seed is not None:
        if uniform is not None:
            raise ValueError("hkg.ops.top_p_sample: pass seed or uniform, "
                             "not both")
        if isinstance(seed, bool) or not isinstance(seed, int) or \
                not -2**63 <= seed < 2**63:
            raise ValueError(f"hkg.ops.top_p_sample: seed must be a 64-bit "
                             f"int, got {seed!r}")
        spec = (_top_p_module, logits.shape, logits.dtype, p, temperature, seed)
        return spec, (logits,), ("logits",)
    if uniform is None:
        raise ValueError("hkg.ops.top_p_sample: no seed and no uniform")
    if uniform.dtype != _torch().float32 or tuple(uniform.shape) != \
            tuple(logits.shape[:1]):
        raise ShapeError(
            f"hkg.ops.top_p_sample: 'uniform' is {uniform.dtype} of shape "
            f"{_shape_str(uniform.shape)}; expected torch.float32 of shape "
            f"[{logits.shape[0] if logits.dim() else '?'}] (one per row)")
    spec = (_top_p_module, logits.shape, logits.dtype, p, temperature, None)
    return spec, (logits, uniform), ("logits", "uniform")


def top_p_sample(logits, p, *, temperature=1.0, seed=None, uniform=None):
    """Nucleus sampling: for each row of logits [B, V], one token id (an
    int32 tensor [B]) drawn from the smallest set of most likely tokens
    whose probability reaches `p` under softmax(logits / temperature),
    renormalised: what torch.multinomial draws from that nucleus, but
    from a given random number.

    The draw is `uniform` (float32 [B] in [0, 1): the token whose
    cumulative nucleus probability, in token id order, first exceeds it),
    else the kernel's own generator seeded by `seed` (one kernel per seed
    value: pass `uniform` for a new draw every step), else, with neither,
    uniform = torch.rand(B) on logits' device (torch's generator, so
    torch.manual_seed reproduces it)."""
    if seed is None and uniform is None:
        torch = _torch()
        if not isinstance(logits, torch.Tensor):
            raise TypeError("hkg.ops.top_p_sample: 'logits' must be a "
                            "torch.Tensor")
        if logits.device.type != "cuda":
            _device("top_p_sample", (logits,), ("logits",))
        uniform = torch.rand(logits.shape[:1], device=logits.device)
    return _top_p_sample(logits, p, temperature=temperature, seed=seed,
                         uniform=uniform)


def _top_p_prepared(method):
    def f(logits, p, *, temperature=1.0, seed=None, uniform=None, **kw):
        if seed is None and uniform is None:
            # The kernel is the same whatever is drawn: a placeholder.
            uniform = _torch().empty(logits.shape[:1], device=logits.device)
        return method(logits, p, temperature=temperature, seed=seed,
                      uniform=uniform, **kw)
    f.__doc__ = method.__doc__
    return f


top_p_sample.module = _top_p_prepared(_top_p_sample.module)
top_p_sample.program = _top_p_prepared(_top_p_sample.program)


# -- topk ------------------------------------------------------------------------------

def _topk_module(shape, dtype, k, dim, index_dtype):
    """hkg.topk: the k largest along `dim`, and their positions."""
    op = "topk"
    e = _elem(op, "x", dtype)
    ei = _elem(op, "index_dtype", index_dtype, ("i64", "i32"))
    if len(shape) == 0:
        raise ShapeError("hkg.ops.topk: 'x' has rank 0")
    _no_empty(op, "x", shape)
    axis = _dim(op, "x", dim, len(shape))
    if isinstance(k, bool) or not isinstance(k, int) or \
            not 1 <= k <= min(1024, shape[axis]):
        raise ShapeError(f"hkg.ops.topk: k = {k!r} for dim {dim} of 'x' "
                         f"{_shape_str(shape)}; hkg.topk takes k in [1, "
                         f"min(1024, {shape[axis]})]")
    out = list(shape)
    out[axis] = k
    t, tv, ti = tensor_type(shape, e), tensor_type(out, e), tensor_type(out, ei)
    text = _function(op, [("x", t)], [tv, ti], [
        f"%v, %i = hkg.topk %x k({k}) axis({axis}) : {t} -> {tv}, {ti}",
        _return(["%v", "%i"], [tv, ti])])
    return text, _topk_result


def _topk_result(out):
    return _torch().return_types.topk(out)


@_op
def _topk(x, k, dim=-1, *, index_dtype=None):
    if index_dtype is None:
        index_dtype = _torch().int64
    return (_topk_module, x.shape, x.dtype, k, dim, index_dtype), (x,), ("x",)


def topk(x, k, dim=-1, *, index_dtype=None):
    """torch.topk(x, k, dim) (largest, sorted): the named tuple (values,
    indices) of the k largest elements along `dim` in descending order and
    their positions (int64, or `index_dtype`=torch.int32). k is at most
    1024. A NaN counts as larger than every number; equal values may come
    in any order of their positions. float32, float16, bfloat16."""
    return _topk(x, k, dim, index_dtype=index_dtype)


topk.module, topk.program = _topk.module, _topk.program


# -- reduce -----------------------------------------------------------------------------

KINDS = ("sum", "mean", "prod", "max", "min", "maximum", "minimum",
         "argmax", "argmin", "logsumexp")
_POSITION = ("argmax", "argmin")


def _reduce_axes(shape, dim):
    rank = len(shape)
    if dim is None:
        return tuple(range(rank))
    given = (dim,) if isinstance(dim, int) else tuple(dim)
    if not given:
        raise ShapeError("hkg.ops.reduce: dim is empty (None reduces all)")
    axes = sorted(_dim("reduce", "x", d, rank) for d in given)
    for a, b in zip(axes, axes[1:]):
        if b != a + 1:
            raise ShapeError(
                f"hkg.ops.reduce: dims {list(given)} of 'x' {_shape_str(shape)}"
                " are not adjacent distinct dims (reduce in two calls, or "
                "permute first)")
    return tuple(axes)


def _reduce_module(shape, dtype, kinds, dim, keepdim, prologue, epilogue,
                   ins, out_dtype):
    """hkg.reduce of an input of `shape` and `dtype` over `dim` (an int, a
    tuple of adjacent ints, None for all) by `kinds`; 'mean' is a sum
    divided in the epilogue. `prologue` / `epilogue` are _Traced or None,
    `ins` (shape, dtype) pairs, `out_dtype` a torch dtype or None."""
    torch = _torch()
    op = "reduce"
    e = _elem(op, "x", dtype)
    for kind in kinds:
        if kind not in KINDS:
            raise ValueError(f"hkg.ops.reduce: unknown kind {kind!r}; "
                             f"expected one of {', '.join(KINDS)}")
    if len(shape) == 0:
        raise ShapeError("hkg.ops.reduce: 'x' has rank 0")
    _no_empty(op, "x", shape)
    axes = _reduce_axes(shape, dim)
    count = _pymath.prod(shape[a] for a in axes)
    positions = [k in _POSITION for k in kinds]
    if out_dtype is None:
        out_dtype = torch.int64 if len(kinds) == 1 and positions[0] and \
            epilogue is None else dtype
    eo = _elem(op, "out_dtype", out_dtype, _FLOATS + ("i64", "i32"))
    if ins and prologue is None:
        raise ValueError("hkg.ops.reduce: 'ins' are read by a prologue; "
                         "pass prologue=")
    if len(kinds) > 1 and epilogue is None:
        raise ValueError(f"hkg.ops.reduce: several kinds {list(kinds)} need "
                         "an epilogue to combine them into one result")
    # Without an epilogue a position is stored as an integer, a value as a
    # float; any other result type is converted by one.
    direct = ("i32", "i64") if positions[0] else _FLOATS
    need_epilogue = (epilogue is not None or "mean" in kinds or
                     len(kinds) > 1 or eo not in direct)
    t = tensor_type(shape, e)
    out = [1 if i in axes else d for i, d in enumerate(shape)
           if keepdim or i not in axes]
    to = tensor_type(out, eo)
    args = [("x", t)]
    ins_names, ins_types, ins_maps, ins_elems = [], [], [], []
    for i, (s, d) in enumerate(ins):
        ei = _elem(op, f"ins[{i}]", d, _ALL)
        ins_maps.append(_broadcast_map(op, f"ins[{i}]", tuple(s), tuple(shape)))
        ti = tensor_type(s, ei)
        args.append((f"i{i}", ti))
        ins_names.append(f"%i{i}")
        ins_types.append(ti)
        ins_elems.append(ei)
    hkg_kinds = ["sum" if k == "mean" else k for k in kinds]
    line = f"%0 = hkg.reduce {', '.join(hkg_kinds)} %x"
    if ins:
        line += f" ins({', '.join(ins_names)} : {', '.join(ins_types)})"
    line += f" axes = [{', '.join(str(a) for a in axes)}]"
    if ins:
        line += f" {{indexing_maps = [{', '.join(ins_maps)}]}}"
    line += f" : {t} -> {to}"
    if prologue is not None:
        line += " prologue " + _region(_trace.trace_body(
            prologue.fn, [e] + ins_elems, ["f32"] * len(kinds)))
    if need_epilogue:
        user = epilogue.fn if epilogue is not None else None
        means = [k == "mean" for k in kinds]

        def finish(*values):
            values = [v / float(count) if m else v
                      for v, m in zip(values, means)]
            return values[0] if user is None else user(*values)

        line += " epilogue " + _region(_trace.trace_body(
            finish, ["i64" if p else "f32" for p in positions], [eo]))
    return _function(op, args, [to], [line, _return(["%0"], [to])])


@_op
def _reduce(x, kind, dim=None, keepdim=False, *, prologue=None,
            epilogue=None, ins=(), out_dtype=None):
    kinds = (kind,) if isinstance(kind, str) else tuple(kind)
    if dim is not None and not isinstance(dim, int):
        dim = tuple(dim)
    ins = tuple(ins)
    spec = (_reduce_module, x.shape, x.dtype, kinds, dim, bool(keepdim),
            _traced(prologue, "hkg.ops.reduce: prologue"),
            _traced(epilogue, "hkg.ops.reduce: epilogue"),
            tuple((t.shape, t.dtype) for t in ins), out_dtype)
    return spec, (x,) + ins, ("x",) + tuple(f"ins[{i}]" for i in
                                             range(len(ins)))


def reduce(x, kind, dim=None, keepdim=False, *, prologue=None,
           epilogue=None, ins=(), out_dtype=None):
    """A reduction of x over `dim` (an int, adjacent ints, or None for all
    dims), keeping the reduced dims as 1 with `keepdim`, in one kernel.
    Values accumulate in f32.

    `kind` matches torch as: 'sum' torch.sum, 'mean' torch.mean, 'prod'
    torch.prod, 'maximum' / 'minimum' torch.amax / torch.amin (a NaN makes
    the result NaN), 'max' / 'min' the same but skipping NaNs (NaN only
    when all are; numpy's nanmax), 'argmax' / 'argmin' torch.argmax /
    torch.argmin (the first extreme position, counted flat over several
    dims; a NaN is the extreme), 'logsumexp' torch.logsumexp.

    `prologue(v, *ins)`, a Python function of scalars (see hkg.math), maps
    each element of x (and one element of each tensor of `ins`, broadcast
    to x's shape by torch's rules; hkg.math.index(d) is the element's
    index along x's dim d) to the value reduced. `kind` may be a tuple of
    kinds: the prologue then returns one value per kind and `epilogue`
    combines the reduced values (f32; int64 positions) into the result,
    e.g. cross-entropy as ('logsumexp', 'sum'). The result has `out_dtype`:
    default int64 for argmax / argmin without an epilogue, else x's dtype."""
    return _reduce(x, kind, dim, keepdim, prologue=prologue,
                   epilogue=epilogue, ins=ins, out_dtype=out_dtype)


reduce.module, reduce.program = _reduce.module, _reduce.program


# -- elementwise ------------------------------------------------------------------------

_CATEGORY = {"i1": 0, "i8": 1, "i32": 1, "i64": 1,
             "bf16": 2, "f16": 2, "f32": 2, "f64": 2}


def result_dtype(*tensors):
    """torch's result type of an elementwise op on `tensors`
    (torch.result_type, for any number of tensors): promotion over the
    tensors with dims, zero-dim tensors counting only where their category
    (bool < integer < float) is higher."""
    return _result_dtype([t.shape for t in tensors], [t.dtype for t in tensors])


def _result_dtype(shapes, dtypes):
    torch = _torch()
    dims = [d for s, d in zip(shapes, dtypes) if len(s) > 0]
    zeros = [d for s, d in zip(shapes, dtypes) if len(s) == 0]
    fold = lambda ds: functools.reduce(torch.promote_types, ds)  # noqa: E731
    if not dims:
        return fold(zeros)
    d = fold(dims)
    if not zeros:
        return d
    z = fold(zeros)
    def cat(t):
        try:
            return _CATEGORY[from_torch(t)]
        except DTypeError:
            return 3  # complex: refused by the op, naming the input
    return torch.promote_types(d, z) if cat(z) > cat(d) else d


def _elementwise_module(fn, shapes, dtypes, out_dtype):
    """hkg.elementwise of `fn` (a _Traced) over inputs of `shapes` and
    `dtypes`, broadcast by torch's rules, every indexing map written out;
    the result of `out_dtype` (None: torch's result type of the inputs). A
    rank-0 result is computed as [1]."""
    torch = _torch()
    op = "elementwise"
    if not shapes:
        raise TypeError("hkg.elementwise: the function takes at least one "
                        "tensor")
    elems = [_elem(op, f"input {i}", d, _ALL) for i, d in enumerate(dtypes)]
    if out_dtype is None:
        out_dtype = _result_dtype(shapes, dtypes)
    eo = _elem(op, "out_dtype", out_dtype, _ALL)
    try:
        result = tuple(torch.broadcast_shapes(*shapes))
    except RuntimeError:
        raise ShapeError("hkg.elementwise: the inputs' shapes " +
                         ", ".join(_shape_str(s) for s in shapes) +
                         " do not broadcast together") from None
    _no_empty(op, "the result", result)
    scalar = not result
    if scalar:
        result = (1,)
    args, names, types, maps = [], [], [], []
    for i, (s, e) in enumerate(zip(shapes, elems)):
        maps.append(_broadcast_map(op, f"input {i}", tuple(s), result))
        t = tensor_type(s, e)
        args.append((f"x{i}", t))
        names.append(f"%x{i}")
        types.append(t)
    to = tensor_type(result, eo)
    body = _trace.trace_body(fn.fn, elems, [eo])
    text = _function(op, args, [to], [
        f"%0 = hkg.elementwise {', '.join(names)} "
        f"{{indexing_maps = [{', '.join(maps)}]}} : {', '.join(types)} -> "
        f"{to} {_region(body)}",
        _return(["%0"], [to])])
    if scalar:
        return text, _as_scalar
    return text


@functools.lru_cache(maxsize=None)
def _input_names(n):
    return tuple(f"input {i}" for i in range(n))


def _as_scalar(out):
    return out.view(())


class Elementwise:
    """`hkg.elementwise(fn)`: fn applied to every element of its tensor
    arguments, one kernel per call. See `elementwise`."""

    def __init__(self, fn):
        if not callable(fn):
            raise TypeError(f"hkg.elementwise takes a function, got "
                            f"{type(fn).__name__}")
        self.fn = fn
        self._traced = _Traced(fn)
        functools.update_wrapper(self, fn, updated=())

        def elementwise(*tensors, out_dtype=None):
            spec = (_elementwise_module, self._traced,
                    tuple([t.shape for t in tensors]),
                    tuple([t.dtype for t in tensors]), out_dtype)
            return spec, tensors, _input_names(len(tensors))

        self._op = _op(elementwise)

    def __call__(self, *tensors, out_dtype=None):
        return self._op(*tensors, out_dtype=out_dtype)

    def module(self, *tensors, out_dtype=None):
        """The MLIR text a call on `tensors` compiles (any device)."""
        return self._op.module(*tensors, out_dtype=out_dtype)

    def program(self, *tensors, out_dtype=None, target=None):
        """The `Program` a call on `tensors` launches (for `target` when
        given, else for their GPU)."""
        return self._op.program(*tensors, out_dtype=out_dtype, target=target)

    def __repr__(self):
        return f"<hkg.elementwise of {self.fn!r}>"


def elementwise(fn):
    """An elementwise op from a Python function of scalars:
    `hkg.elementwise(fn)(*tensors)` is fn applied to the elements of
    `tensors` broadcast together by torch's rules, one kernel per call.

    fn is traced (hkg.trace) over the tensors' element types on each new
    combination of shapes and dtypes: + - * / % ** comparisons and the
    functions of hkg.math (exp, where, gelu, index(d) the result index
    along dim d, ...); a Python `if` on a traced value is an
    UnsupportedError. bfloat16 / float16 values are computed in f32. The
    result has `out_dtype` when given, else torch's result type of the
    tensors (`result_dtype`: Python numbers in fn do not take part, so a
    comparison needs out_dtype=torch.bool and int inputs computing floats
    out_dtype=torch.float32). Takes float64, float32, float16, bfloat16,
    int64, int32, int8, bool.

        swiglu = hkg.elementwise(lambda g, u: hkg.math.silu(g) * u)
        y = swiglu(gate, up)
    """
    return Elementwise(fn)


del _public, _impl

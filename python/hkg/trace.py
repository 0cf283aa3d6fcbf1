"""Tracing Python functions of scalars into the bodies of hkg ops.

`trace_body(fn, arg_types, result_types)` calls `fn` with one `Scalar` per
argument; the arithmetic it does on them (operators, and the functions of
`hkg.math`) is recorded as arith/math ops and returned as the text of an
`hkg.elementwise` or `hkg.reduce` body block. Floats narrower than f32
(bf16, f16) are widened to f32 on entry and every float result is narrowed
to its result type on `hkg.yield`, as torch computes them. Python numbers
become constants of the other operand's type (in a comparison with a value
of bf16 / f16 storage, rounded to that type first, as torch does). Bools
(i1) compute as torch's bool tensors: + is or, * is and, comparisons order
false before true, and a Python int or float promotes them to i64 / f32.
Anything a body cannot
compute (a Python branch on a traced value, an unknown function) is an
error naming it, never a silently different body.

    body = trace_body(lambda x, b: hkg.math.gelu(x + b), ["bf16", "f32"], ["bf16"])
"""

import math as _pymath
import struct as _struct

from .errors import UnsupportedError

_FLOATS = ("f64", "f32", "f16", "bf16")
_INTS = ("i64", "i32", "i8", "i1")
_NARROW = ("bf16", "f16")
_WIDTH = {"f64": 64, "f32": 32, "f16": 16, "bf16": 16,
          "i64": 64, "i32": 32, "i8": 8, "i1": 1}


def _round_to_storage(value, storage):
    """The Python number `value` as torch converts a scalar to a bf16 or f16
    tensor's type: to f32, then to `storage`, rounding to nearest even (inf
    past the largest finite value); returned as a float, exactly."""
    v = float(value)
    if _pymath.isnan(v) or _pymath.isinf(v):
        return v
    try:
        f = _struct.unpack("<f", _struct.pack("<f", v))[0]
    except OverflowError:
        return _pymath.copysign(_pymath.inf, v)
    if storage == "f16":
        try:
            return _struct.unpack("<e", _struct.pack("<e", f))[0]
        except OverflowError:
            return _pymath.copysign(_pymath.inf, f)
    bits = _struct.unpack("<I", _struct.pack("<f", f))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return _struct.unpack("<f", _struct.pack("<I", bits))[0]


class _Body:
    """The ops of one body block, in order."""

    def __init__(self):
        self.lines = []
        self.count = 0
        self.constants = {}

    def fresh(self):
        self.count += 1
        return f"%v{self.count}"

    def emit(self, text, type_):
        name = self.fresh()
        self.lines.append(f"  {name} = {text}")
        return Scalar(self, name, type_)

    def constant(self, value, type_):
        key = (repr(value), type_)
        if key in self.constants:
            return self.constants[key]
        if type_ in _FLOATS:
            v = float(value)
            if _pymath.isnan(v) or _pymath.isinf(v):
                bits = {"f32": ("0x7FC00000", "0x7F800000", "0xFF800000"),
                        "f64": ("0x7FF8000000000000", "0x7FF0000000000000",
                                "0xFFF0000000000000"),
                        "f16": ("0x7E00", "0x7C00", "0xFC00"),
                        "bf16": ("0x7FC0", "0x7F80", "0xFF80")}[type_]
                lit = bits[0] if _pymath.isnan(v) else (bits[1] if v > 0 else bits[2])
            else:
                lit = repr(v)
                if "e" in lit and "." not in lit:
                    lit = lit.replace("e", ".0e")
        elif type_ == "i1":
            # `arith.constant true : i1` does not parse: a bool is typed.
            s = self.emit("arith.constant " + ("true" if value else "false"), type_)
            self.constants[key] = s
            return s
        else:
            lit = str(int(value))
        s = self.emit(f"arith.constant {lit} : {type_}", type_)
        self.constants[key] = s
        return s


class Scalar:
    """A value inside a traced body. Supports + - * /, // and % (rounding
    down and the divisor's sign, as Python and torch.floor_divide /
    torch.remainder), unary -, abs(), ** (integer or float exponent; an
    integer's power is exact), comparisons (giving i1 Scalars) and the bit
    operators & | ^ ~ << >> on integers. Use hkg.math for functions and
    `where` for selection; `bool(scalar)` is an error: a body cannot branch
    in Python.

    `type` is the type the body computes in; `storage` the type torch's
    result would have (bf16 for a bf16 input widened to f32, and for what
    is computed from it with numbers): a Python number compared with it is
    rounded to that type first, as torch does."""

    __array_priority__ = 1000  # numpy scalars defer to us

    def __init__(self, body, name, type_, storage=None):
        self.body = body
        self.name = name
        self.type = type_
        self.storage = storage or type_

    def __repr__(self):
        return f"<hkg traced scalar {self.name}: {self.type}>"

    def __bool__(self):
        raise UnsupportedError(
            "a traced hkg body cannot branch on a value (an `if`, `and`, "
            "`or`, `min()`/`max()` builtins, or a chained comparison); use "
            "hkg.math.where / maximum / minimum instead")

    # -- coercions -------------------------------------------------------
    def _number(self, value):
        """The Python number `value` as a constant of this value's type."""
        return _as(self.body.constant(value, self.type), self.storage)

    def _lift(self, other):
        if isinstance(other, Scalar):
            if other.body is not self.body:
                raise UnsupportedError("scalars of two different traces mixed")
            return _promote(self, other)
        if isinstance(other, bool):
            return self, self._number(int(other)) \
                if self.type != "i1" else self.body.constant(other, "i1")
        if isinstance(other, (int, float)):
            t = self.type
            if isinstance(other, float) and t in _INTS:
                return cast(self, "f32"), self.body.constant(other, "f32")
            if t == "i1":
                # torch: a bool tensor and a Python int compute in int64.
                return cast(self, "i64"), self.body.constant(other, "i64")
            return self, self._number(other)
        raise UnsupportedError(f"cannot use a {type(other).__name__} in a "
                               "traced hkg body")

    def _bin(self, other, fop, iop, reverse=False, bop=None):
        """`other` and self promoted to one type, then `fop` (floats),
        `iop` (integers) or `bop` (i1, torch's bool tensors)."""
        a, b = self._lift(other)
        if reverse:
            a, b = b, a
        t = a.type
        op = fop if t in _FLOATS else bop if t == "i1" else iop
        if op is None:
            raise UnsupportedError(f"this operator is not defined on {t}")
        return _as(a.body.emit(f"{op} {a.name}, {b.name} : {t}", t), _join(a, b))

    # On bools torch's + is or and * is and (True + True is True); - is
    # refused.
    def __add__(self, o): return self._bin(o, "arith.addf", "arith.addi", bop="arith.ori")
    def __radd__(self, o): return self._bin(o, "arith.addf", "arith.addi", True, "arith.ori")
    def __sub__(self, o): return self._bin(o, "arith.subf", "arith.subi")
    def __rsub__(self, o): return self._bin(o, "arith.subf", "arith.subi", True)
    def __mul__(self, o): return self._bin(o, "arith.mulf", "arith.muli", bop="arith.andi")
    def __rmul__(self, o): return self._bin(o, "arith.mulf", "arith.muli", True, "arith.andi")

    def __truediv__(self, o):
        a, b = self._lift(o)
        if a.type in _INTS:
            a, b = cast(a, "f32"), cast(b, "f32")
        return a._bin(b, "arith.divf", None)

    def __rtruediv__(self, o):
        a, b = self._lift(o)
        if a.type in _INTS:
            a, b = cast(a, "f32"), cast(b, "f32")
        return b._bin(a, "arith.divf", None)

    def __floordiv__(self, o): return _floordiv(*self._lift(o))
    def __rfloordiv__(self, o): return _floordiv(*reversed(self._lift(o)))
    def __mod__(self, o): return _remainder(*self._lift(o))
    def __rmod__(self, o): return _remainder(*reversed(self._lift(o)))
    def __and__(self, o): return self._bin(o, None, "arith.andi", bop="arith.andi")
    def __rand__(self, o): return self._bin(o, None, "arith.andi", True, "arith.andi")
    def __or__(self, o): return self._bin(o, None, "arith.ori", bop="arith.ori")
    def __ror__(self, o): return self._bin(o, None, "arith.ori", True, "arith.ori")
    def __xor__(self, o): return self._bin(o, None, "arith.xori", bop="arith.xori")
    def __rxor__(self, o): return self._bin(o, None, "arith.xori", True, "arith.xori")
    def __lshift__(self, o): return self._bin(o, None, "arith.shli")
    def __rshift__(self, o): return self._bin(o, None, "arith.shrsi")

    def __invert__(self):
        if self.type in _FLOATS:
            raise UnsupportedError(f"~ is not defined on {self.type}")
        ones = self.body.constant(True if self.type == "i1" else -1, self.type)
        return self.body.emit(f"arith.xori {self.name}, {ones.name} : {self.type}",
                              self.type)

    def __neg__(self):
        if self.type in _FLOATS:
            return _as(self.body.emit(f"arith.negf {self.name} : {self.type}", self.type),
                       self.storage)
        if self.type == "i1":
            raise UnsupportedError("unary - is not defined on i1 (torch refuses "
                                   "it on bools too; ~ negates a mask)")
        return self.body.constant(0, self.type) - self

    def __pos__(self):
        return self

    def __abs__(self):
        if self.type in _FLOATS:
            return _as(self.body.emit(f"math.absf {self.name} : {self.type}", self.type),
                       self.storage)
        if self.type == "i1":
            raise UnsupportedError("abs() is not defined on i1")
        return where(self < 0, -self, self)

    def __pow__(self, o):
        if isinstance(o, int):
            o = int(o)  # True ** is 1
            if self.type in _INTS:
                # Exact, as torch's integer pow (f32 powf is not, past 2**24).
                if o < 0:
                    raise UnsupportedError("integers to negative integer powers "
                                           "are not allowed (torch refuses them too)")
                return _ipow_const(cast(self, "i64") if self.type == "i1" else self, o)
            if 0 <= o <= 8:
                if o == 0:
                    return self._number(1)
                r = self
                for _ in range(o - 1):
                    r = r * self
                return r
        if isinstance(o, float) and o == 0.5:
            return sqrt(self)
        a, b = self._lift(o)
        if a.type in _INTS:
            return _ipow(a, b)
        return _as(a.body.emit(f"math.powf {a.name}, {b.name} : {a.type}", a.type),
                   _join(a, b))

    def __rpow__(self, o):
        a, b = self._lift(o)  # a is self, b the number in self's type
        if a.type in _INTS:
            return _ipow(b, a)
        return _as(a.body.emit(f"math.powf {b.name}, {a.name} : {a.type}", a.type),
                   _join(a, b))

    def _cmp(self, other, fpred, ipred, upred):
        if isinstance(other, (int, float)) and not isinstance(other, bool) and \
                self.type in _FLOATS and self.storage in _NARROW:
            # torch compares a bf16 / f16 tensor with a Python number
            # rounded to the tensor's type: x == 0.1 holds for x = bf16(0.1).
            other = _round_to_storage(other, self.storage)
        a, b = self._lift(other)
        if a.type in _FLOATS:
            return a.body.emit(f"arith.cmpf {fpred}, {a.name}, {b.name} : {a.type}", "i1")
        pred = upred if a.type == "i1" else ipred  # false < true
        return a.body.emit(f"arith.cmpi {pred}, {a.name}, {b.name} : {a.type}", "i1")

    def __lt__(self, o): return self._cmp(o, "olt", "slt", "ult")
    def __le__(self, o): return self._cmp(o, "ole", "sle", "ule")
    def __gt__(self, o): return self._cmp(o, "ogt", "sgt", "ugt")
    def __ge__(self, o): return self._cmp(o, "oge", "sge", "uge")
    def __eq__(self, o): return self._cmp(o, "oeq", "eq", "eq")
    def __ne__(self, o): return self._cmp(o, "une", "ne", "ne")
    __hash__ = None


def _as(x, storage):
    """x, remembered as of `storage` (see Scalar)."""
    if x.storage == storage:
        return x
    return Scalar(x.body, x.name, x.type, storage)


def _join(a, b):
    """The storage of an op's result on a and b (of one type): theirs where
    they agree, else the type computed in (bf16 with f16 is f32, as in
    torch)."""
    if a.type not in _FLOATS:
        return a.type
    return a.storage if a.storage == b.storage else a.type


def widen(x):
    """A bf16 / f16 x as f32 to compute with, remembering its storage type;
    other types as they are."""
    if x.type not in _NARROW:
        return x
    return _as(cast(x, "f32"), x.type)


def _ipow_const(a, n):
    """a ** n for an integer a and a Python int n >= 0: square and
    multiply, wrapping as the integer type does."""
    if n == 0:
        return a.body.constant(1, a.type)
    result, p = None, a
    while True:
        if n & 1:
            result = p if result is None else result * p
        n >>= 1
        if not n:
            return result
        p = p * p


def _ipow(a, e):
    """torch's integer power of two traced integers: square and multiply
    over the exponent's bits; a negative exponent gives 1 for a base of 1,
    -1 or 1 for -1 (by the exponent's parity) and 0 otherwise."""
    t = a.type
    if t == "i1":
        raise UnsupportedError("** is not defined on i1")
    b = a.body
    one, zero, minus_one = b.constant(1, t), b.constant(0, t), b.constant(-1, t)
    result, base, x = one, a, e
    bits = _WIDTH[t] - 1  # a non-negative exponent has no more
    for i in range(bits):
        result = where((x & 1) != 0, result * base, result)
        if i + 1 < bits:
            base = base * base
            x = x >> 1
    odd = (e & 1) != 0
    negative = where(a == 1, one, where(a == -1, where(odd, minus_one, one), zero))
    return where(e < 0, negative, result)


def _floordiv(a, b):
    """torch.floor_divide (Python's //): the quotient rounded down."""
    if a.type in _FLOATS:
        # torch's div_floor_floating: the exact quotient's floor where
        # floor(a / b) would round first (1.0 // 0.1 is 9, not 10).
        t = a.type
        mod = a._bin(b, "arith.remf", None)  # fmod: the sign of a
        div = (a - mod) / b
        div = where((mod != 0) & ((b < 0) != (mod < 0)), div - 1, div)
        fl = floor(div)
        fl = where(div - fl > 0.5, fl + 1, fl)
        q = a / b
        zero = _as(a.body.emit(f"math.copysign {a._number(0).name}, {q.name} : {t}", t),
                   q.storage)
        return where(b == 0, q, where(div != 0, fl, zero))
    if a.type == "i1":
        raise UnsupportedError("// is not defined on i1")
    q = a._bin(b, None, "arith.divsi")  # rounded toward zero
    r = a - q * b
    # One less where the division was inexact and the signs differ.
    fix = (r != 0) & ((r < 0) != (b < 0))
    return where(fix, q - 1, q)


def _remainder(a, b):
    """torch.remainder (Python's %): the sign of the divisor."""
    if a.type == "i1":
        raise UnsupportedError("% is not defined on i1")
    r = a._bin(b, "arith.remf", "arith.remsi")  # the sign of the dividend
    fix = (r != 0) & ((r < 0) != (b < 0))
    return where(fix, r + b, r)


def _promote(a, b):
    """Both operands in one type: floats win over ints, wider over narrower."""
    if a.type == b.type:
        return a, b
    fa, fb = a.type in _FLOATS, b.type in _FLOATS
    # An integer meeting a float computes as that float (torch: bf16 and
    # int32 tensors give bf16).
    if fa and not fb:
        return a, _as(cast(b, a.type), a.storage)
    if fb and not fa:
        return _as(cast(a, b.type), b.storage), b
    if _WIDTH[a.type] >= _WIDTH[b.type]:
        return a, cast(b, a.type)
    return cast(a, b.type), b


def cast(x, type_):
    """x converted to `type_` (f32, bf16, i64, i1, ...), as torch's .to()
    does: float to int truncates toward zero, int to float rounds; to i1 is
    x != 0."""
    if not isinstance(x, Scalar):
        raise UnsupportedError("hkg.math.cast takes a traced scalar")
    src = x.type
    if src == type_:
        return _as(x, type_)  # of type_ now, as torch's .to(): no narrower storage
    b = x.body
    if type_ == "i1":
        return x != 0
    if src in _FLOATS and type_ in _FLOATS:
        op = "arith.extf" if _WIDTH[type_] > _WIDTH[src] or (
            src == "f16" and type_ == "bf16") else "arith.truncf"
        if {src, type_} == {"f16", "bf16"}:
            x = b.emit(f"arith.extf {x.name} : {src} to f32", "f32")
            return b.emit(f"arith.truncf {x.name} : f32 to {type_}", type_)
        return b.emit(f"{op} {x.name} : {src} to {type_}", type_)
    if src in _INTS and type_ in _FLOATS:
        op = "arith.uitofp" if src == "i1" else "arith.sitofp"
        return b.emit(f"{op} {x.name} : {src} to {type_}", type_)
    if src in _FLOATS and type_ in _INTS:
        return b.emit(f"arith.fptosi {x.name} : {src} to {type_}", type_)
    op = "arith.extui" if src == "i1" else (
        "arith.extsi" if _WIDTH[type_] > _WIDTH[src] else "arith.trunci")
    return b.emit(f"{op} {x.name} : {src} to {type_}", type_)


_PY_UNARY = {"rsqrt": lambda v: 1.0 / _pymath.sqrt(v)}


def _unary(op):
    name = op.split(".")[1]
    py = _PY_UNARY.get(name) or getattr(_pymath, name)

    def f(x):
        if not isinstance(x, Scalar):
            return py(x)
        if x.type in _INTS:
            x = cast(x, "f32")
        return _as(x.body.emit(f"{op} {x.name} : {x.type}", x.type), x.storage)
    f.__name__ = name
    return f


exp = _unary("math.exp")
log = _unary("math.log")
tanh = _unary("math.tanh")
sqrt = _unary("math.sqrt")
rsqrt = _unary("math.rsqrt")
erf = _unary("math.erf")
sin = _unary("math.sin")
cos = _unary("math.cos")
floor = _unary("math.floor")
ceil = _unary("math.ceil")


def sigmoid(x):
    return 1.0 / (1.0 + exp(-x))


def silu(x):
    return x * sigmoid(x)


def gelu(x, approximate="none"):
    """torch.nn.functional.gelu: exact (erf) or approximate='tanh'."""
    if approximate == "tanh":
        return 0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))
    return 0.5 * x * (1.0 + erf(x * 0.7071067811865476))


def relu(x):
    return maximum(x, 0.0 if x.type in _FLOATS else 0)


def where(cond, a, b):
    """a where cond (an i1 Scalar, e.g. a comparison) else b."""
    if not isinstance(cond, Scalar):
        raise UnsupportedError("hkg.math.where's condition must be traced")
    if not isinstance(a, Scalar) and not isinstance(b, Scalar):
        # torch.where(cond, 1.0, 0.0) is float32, (cond, 1, 0) int64.
        if not all(isinstance(v, (bool, int, float)) for v in (a, b)):
            raise UnsupportedError("hkg.math.where takes traced scalars or "
                                   "numbers")
        t = ("f32" if isinstance(a, float) or isinstance(b, float) else
             "i1" if isinstance(a, bool) and isinstance(b, bool) else "i64")
        a = cond.body.constant(a, t)
    if not isinstance(a, Scalar):
        b, a = b._lift(a)
    else:
        a, b = a._lift(b)
    if cond.type != "i1":
        cond = cast(cond, "i1")
    return _as(a.body.emit(f"arith.select {cond.name}, {a.name}, {b.name} : {a.type}",
                           a.type), _join(a, b))


def _extremum(a, b, kind):
    """torch.maximum / torch.minimum (`kind` max or min): NaN wins."""
    if not isinstance(a, Scalar):
        a, b = b, a
    a, b = a._lift(b)
    op = (f"arith.{kind}imumf" if a.type in _FLOATS
          else f"arith.{kind}ui" if a.type == "i1" else f"arith.{kind}si")
    return _as(a.body.emit(f"{op} {a.name}, {b.name} : {a.type}", a.type), _join(a, b))


def maximum(a, b):
    """torch.maximum: NaN wins."""
    return _extremum(a, b, "max")


def minimum(a, b):
    """torch.minimum: NaN wins."""
    return _extremum(a, b, "min")


_current = []


def index(dim):
    """The result's index along `dim` (an i64 Scalar), inside a traced
    hkg.elementwise body: masks, positions, packed-integer nibbles."""
    if not _current:
        raise UnsupportedError("hkg.math.index is only valid inside a traced body")
    b = _current[-1]
    i = b.emit(f"hkg.index {int(dim)}", "index")
    return b.emit(f"arith.index_cast {i.name} : index to i64", "i64")


def trace_body(fn, arg_types, result_types, arg_names=None):
    """The body block's text for `fn` over arguments of `arg_types` yielding
    `result_types` (one per result: fn returns a Scalar, a number, or a
    tuple of them)."""
    body = _Body()
    names = arg_names or [f"%a{i}" for i in range(len(arg_types))]
    header = "^bb0(" + ", ".join(f"{n}: {t}" for n, t in zip(names, arg_types)) + "):"
    args = []
    for n, t in zip(names, arg_types):
        args.append(widen(Scalar(body, n, t)))
    _current.append(body)
    try:
        out = fn(*args)
    finally:
        _current.pop()
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    if len(outs) != len(result_types):
        raise UnsupportedError(f"the traced function returned {len(outs)} "
                               f"value(s), the op has {len(result_types)} result(s)")
    final = []
    for o, t in zip(outs, result_types):
        if not isinstance(o, Scalar):
            if isinstance(o, (int, float, bool)):
                o = body.constant(o, t)
            else:
                raise UnsupportedError(
                    f"the traced function returned a {type(o).__name__}")
        final.append(cast(o, t))
    yield_ = ("  hkg.yield " + ", ".join(f.name for f in final) + " : " +
              ", ".join(result_types))
    return "\n".join([header] + body.lines + [yield_])

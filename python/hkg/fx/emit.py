"""Writing one func.func of hkg ops, value by value.

`FuncBuilder` holds the text of a function being built and the `Val` of
each tensor in it. A `Val` is an SSA value plus a lazy permutation: torch's
transpose / permute / t cost nothing here either, they only change which
physical dim a logical dim is. Consumers that can read a permuted value in
place fold it (an elementwise op through its indexing map, a matmul through
`transpose_a` / `transpose_b`, attention through `layout(bshd)`, rope by
reading the token-major tensor); the others get a copy (`materialize`, an
identity `hkg.elementwise` reading through a permuted map). Reshapes are
`tensor.collapse_shape` / `tensor.expand_shape` and slices
`tensor.extract_slice`: views, no kernel (docs/ABI.md, "Slice views").
"""

import math

from ..dtypes import tensor_type
from ..errors import UnsupportedError
from ..trace import Scalar, cast, trace_body, widen


class _Recipe:
    """An elementwise op not written yet: its operands (Val, indexing map
    from the result's dims), body function, result shape and type."""

    __slots__ = ("operands", "fn", "shape", "dtype")

    def __init__(self, operands, fn, shape, dtype):
        self.operands = operands
        self.fn = fn
        self.shape = shape
        self.dtype = dtype


def _identity(rank):
    return tuple(range(rank))


class Val:
    """A tensor in the function: `name` (an SSA value) of physical `shape`
    and element type `dtype`; logical dim i is physical dim `perm[i]`.
    `sliced`: it reads a `tensor.extract_slice` (a view a function may not
    return: docs/ABI.md). `src`: for a reshape, the dense value it is a
    view of."""

    __slots__ = ("name", "shape", "dtype", "perm", "sliced", "src")

    def __init__(self, name, shape, dtype, perm=None, sliced=False, src=None):
        self.name = name
        self.shape = tuple(int(d) for d in shape)
        self.dtype = dtype
        self.perm = tuple(perm) if perm is not None else _identity(len(shape))
        self.sliced = sliced
        self.src = src

    @property
    def type(self):
        return tensor_type(self.shape, self.dtype)

    @property
    def logical(self):
        return tuple(self.shape[p] for p in self.perm)

    @property
    def rank(self):
        return len(self.shape)

    @property
    def dense(self):
        return self.perm == _identity(self.rank)

    def __repr__(self):
        return f"<Val {self.name} {self.type} perm={self.perm}>"


def _fmt_float(v):
    r = repr(float(v))
    if "e" in r and "." not in r:
        r = r.replace("e", ".0e")
    if "inf" in r or "nan" in r:
        raise UnsupportedError(f"attribute value {v} is not finite")
    return r


def _map(dims_in, results):
    return (f"affine_map<({', '.join(f'd{i}' for i in range(dims_in))}) -> "
            f"({', '.join(results)})>")


def reassociation(src, dst):
    """Groups of dims of `src` and `dst` (both static) with equal products,
    in order: [(src dims, dst dims), ...]; None if the shapes have different
    element counts. Size-1 dims join a neighbouring group."""
    if math.prod(src) != math.prod(dst):
        return None
    groups = []
    i = j = 0
    while i < len(src) and j < len(dst):
        gi, gj = [i], [j]
        pa, pb = src[i], dst[j]
        i += 1
        j += 1
        while pa != pb:
            if pa < pb:
                gi.append(i)
                pa *= src[i]
                i += 1
            else:
                gj.append(j)
                pb *= dst[j]
                j += 1
        groups.append((gi, gj))
    if not groups:
        return []
    groups[-1][0].extend(range(i, len(src)))
    groups[-1][1].extend(range(j, len(dst)))
    return groups


class FuncBuilder:
    """The body of one func.func under construction."""

    def __init__(self, name):
        self.name = name
        self.args = []
        self.lines = []
        self.count = 0
        self.pending = {}  # name -> _Recipe of elementwise ops not yet written
        self.uses = {}  # name -> how many FX nodes read it (set by the caller)

    # -- plumbing ------------------------------------------------------------
    def fresh(self):
        self.count += 1
        return f"%t{self.count}"

    def arg(self, shape, dtype):
        v = Val(f"%in{len(self.args)}", shape, dtype)
        self.args.append(v)
        return v

    def emit(self, text):
        self.lines.append("  " + text.replace("\n", "\n  "))

    def text(self, results):
        for r in results:
            self.flush(r)
        sig = ", ".join(f"{a.name}: {a.type}" for a in self.args)
        rtypes = ", ".join(r.type for r in results)
        if len(results) != 1:
            rtypes = f"({rtypes})"
        ret = (f"  return {', '.join(r.name for r in results)} : "
               f"{', '.join(r.type for r in results)}")
        return "\n".join([f"func.func @{self.name}({sig}) -> {rtypes} {{"] +
                         self.lines + [ret, "}"]) + "\n"

    # -- copies --------------------------------------------------------------
    def materialize(self, v):
        """`v` with its logical dims physical (a copy when permuted)."""
        if v.dense:
            return self.flush(v)
        return self.elementwise([v], lambda a: a, v.logical, v.dtype)

    def for_return(self, v):
        """What a function may return for `v` and the permutation the caller
        applies to it (torch's .permute: a view). A slice is copied: the
        plan cannot return a view of a slice."""
        self.flush(v)
        if v.sliced:
            v = self.elementwise([v], lambda a: a, v.logical, v.dtype)
        return v, v.perm

    # -- views ---------------------------------------------------------------
    def permute(self, v, dims):
        dims = [d % v.rank for d in dims]
        return Val(v.name, v.shape, v.dtype, [v.perm[d] for d in dims], v.sliced)

    def reshape(self, v, shape):
        shape = tuple(int(s) for s in shape)
        if shape == v.logical:
            return v
        v = self.materialize(v)
        if v.src is not None and v.src.shape == shape:
            return v.src
        src = None if v.sliced else (v.src or v)
        groups = reassociation(v.shape, shape)
        if groups is None:
            raise UnsupportedError(f"cannot view {v.shape} as {shape}")
        # Collapse every group to one dim, then expand to the target.
        mid = [math.prod(v.shape[i] for i in gi) for gi, _ in groups]
        cur = v
        if tuple(mid) != v.shape:
            assoc = "[" + ", ".join("[" + ", ".join(map(str, gi)) + "]"
                                    for gi, _ in groups) + "]"
            n = self.fresh()
            out = Val(n, mid, v.dtype, sliced=v.sliced, src=src)
            self.emit(f"{n} = tensor.collapse_shape {cur.name} {assoc} : "
                      f"{cur.type} into {out.type}")
            cur = out
        if tuple(mid) != shape:
            assoc = "[" + ", ".join("[" + ", ".join(map(str, gj)) + "]"
                                    for _, gj in groups) + "]"
            n = self.fresh()
            out = Val(n, shape, v.dtype, sliced=v.sliced, src=src)
            self.emit(f"{n} = tensor.expand_shape {cur.name} {assoc} output_shape "
                      f"[{', '.join(map(str, shape))}] : {cur.type} into {out.type}")
            cur = out
        return cur

    def slice(self, v, dim, start, end):
        """Logical dim `dim` of `v` restricted to [start, end) (step 1)."""
        self.flush(v)
        p = v.perm[dim % v.rank]
        offsets = [0] * v.rank
        sizes = list(v.shape)
        offsets[p] = start
        sizes[p] = end - start
        if sizes == list(v.shape):
            return v
        n = self.fresh()
        out = Val(n, sizes, v.dtype, v.perm, sliced=True)
        self.emit(f"{n} = tensor.extract_slice {v.name}[{', '.join(map(str, offsets))}] "
                  f"[{', '.join(map(str, sizes))}] [{', '.join('1' for _ in sizes)}] : "
                  f"{v.type} to {out.type}")
        return out

    # -- kernel ops ----------------------------------------------------------
    def input_map(self, v, out_shape):
        """The indexing map reading `v` (torch-broadcast against the result
        shape `out_shape`) from the result's dims."""
        r, n = v.rank, len(out_shape)
        logical = v.logical
        inv = [0] * r
        for i, p in enumerate(v.perm):
            inv[p] = i
        results = []
        for j in range(r):
            i = inv[j]
            d = n - r + i
            results.append("0" if logical[i] == 1 and out_shape[d] != 1 else f"d{d}")
        return _map(n, results)

    def elementwise(self, inputs, fn, out_shape, out_dtype, _canonical=False):
        """hkg.elementwise of `fn` (a function of traced scalars, hkg.trace)
        over `inputs` (Vals, broadcast as torch does) to `out_shape`.

        The op is written when its result is first read by something else
        (`flush`): an elementwise consumer that reads it element for
        element, and is its only reader (`uses`), takes its body instead,
        rounded to its type as torch rounds each op's result. hkg-fuse
        joins maps into matmul epilogues, not into each other."""
        out_shape = tuple(int(s) for s in out_shape)
        if not inputs:
            raise UnsupportedError("an elementwise op needs a tensor input")
        # Computed in the shape of the value its inputs are views of (a
        # matmul's [S*B, N] product viewed as [B, S, N]), so that hkg-fuse
        # can make it that matmul's epilogue; the result is viewed back.
        if not _canonical and all(v.dense and not v.sliced and v.logical == out_shape
                                  for v in inputs):
            srcs = [v.src for v in inputs if v.src is not None and v.src.shape != out_shape]
            if srcs:
                shape = srcs[0].shape
                r = self.elementwise([self.reshape(v, shape) for v in inputs], fn,
                                     shape, out_dtype, _canonical=True)
                return self.reshape(r, out_shape)
        names = [v.name for v in inputs]
        operands = {}  # (name, map) -> index: one operand per distinct read
        vals = []
        parts = []
        for v in inputs:
            rec = self.pending.get(v.name)
            if rec is not None and self.uses.get(v.name) == 1 and names.count(v.name) == 1 \
                    and v.dense and v.logical == out_shape:
                del self.pending[v.name]
                idx = []
                for u, m in rec.operands:
                    idx.append(operands.setdefault((u.name, m), len(operands)))
                    if len(vals) < len(operands):
                        vals.append(u)
                parts.append((rec, idx))
                continue
            v = self.flush(v)
            m = self.input_map(v, out_shape)
            i = operands.setdefault((v.name, m), len(operands))
            if len(vals) < len(operands):
                vals.append(v)
            parts.append((None, i))

        def body(*scalars):
            args = []
            for rec, idx in parts:
                if rec is None:
                    args.append(scalars[idx])
                    continue
                r = rec.fn(*[scalars[i] for i in idx])
                if isinstance(r, Scalar):
                    # Rounded to the producer's type and computed on in f32,
                    # remembered as of that type (trace.widen).
                    r = widen(cast(r, rec.dtype))
                args.append(r)
            return fn(*args)

        maps = [m for (_, m) in operands]
        n = self.fresh()
        self.pending[n] = _Recipe(list(zip(vals, maps)), body, out_shape, out_dtype)
        return Val(n, out_shape, out_dtype)

    def flush(self, v):
        """Writes the elementwise op computing `v` if it is still pending."""
        rec = self.pending.pop(v.name, None)
        if rec is None:
            return v
        ins = [u for u, _ in rec.operands]
        body = trace_body(rec.fn, [u.dtype for u in ins], [rec.dtype])
        out = Val(v.name, rec.shape, rec.dtype)
        self.emit(f"{v.name} = hkg.elementwise {', '.join(u.name for u in ins)} "
                  f"{{indexing_maps = [{', '.join(m for _, m in rec.operands)}]}} : "
                  f"{', '.join(u.type for u in ins)} -> {out.type} {{\n{body}\n}}")
        return v

    def reduce(self, v, kind, axes, keepdim, out_dtype, epilogue=None):
        v = self.materialize(v)
        axes = sorted(a % v.rank for a in axes)
        shape = [1 if i in axes else d for i, d in enumerate(v.shape)] if keepdim \
            else [d for i, d in enumerate(v.shape) if i not in axes]
        n = self.fresh()
        out = Val(n, shape, out_dtype)
        text = (f"{n} = hkg.reduce {kind} {v.name} axes = [{', '.join(map(str, axes))}] : "
                f"{v.type} -> {out.type}")
        if epilogue is not None:
            text += " epilogue {\n" + trace_body(epilogue, ["f32"], [out_dtype]) + "\n}"
        self.emit(text)
        return out

    def matmul(self, a, b, out_dtype, epilogue=None, epilogue_inputs=()):
        """a @ b (batched over leading dims); a permuted operand whose last
        two dims are swapped is read with transpose_a / transpose_b.
        `epilogue(acc, *e)` maps the f32 accumulator and one element of each
        epilogue input (broadcast against the result) to the result."""
        attrs = []

        def operand(v, flag):
            r = v.rank
            swapped = _identity(r - 2) + (r - 1, r - 2)
            if v.perm == swapped:
                self.flush(v)
                attrs.append(flag)
                return Val(v.name, v.shape, v.dtype, sliced=v.sliced)
            return self.materialize(v)

        la, lb = a.logical, b.logical
        a = operand(a, "transpose_a")
        b = operand(b, "transpose_b")
        out_shape = la[:-1] + (lb[-1],)
        n = self.fresh()
        out = Val(n, out_shape, out_dtype)
        eps = [self.materialize(e) for e in epilogue_inputs]
        text = f"{n} = hkg.matmul {a.name}, {b.name}"
        if eps:
            text += (f" epilogue({', '.join(e.name for e in eps)} : "
                     f"{', '.join(e.type for e in eps)})")
            attrs.append("indexing_maps = [" +
                         ", ".join(self.input_map(e, out_shape) for e in eps) + "]")
        if attrs:
            text += " {" + ", ".join(attrs) + "}"
        text += f" : {a.type}, {b.type} -> {out.type}"
        if epilogue is not None:
            body = trace_body(epilogue, ["f32"] + [e.dtype for e in eps], [out_dtype])
            text += " {\n" + body + "\n}"
        self.emit(text)
        return out

    def softmax(self, v, axis, log, out_dtype):
        v = self.materialize(v)
        n = self.fresh()
        out = Val(n, v.shape, out_dtype)
        self.emit(f"{n} = hkg.softmax {'log ' if log else ''}{v.name} axis({axis % v.rank}) : "
                  f"{v.type} -> {out.type}")
        return out

    def norm(self, op, v, axes, eps, out_dtype, weight=None, bias=None):
        """hkg.layernorm / hkg.rmsnorm over trailing `axes`."""
        v = self.materialize(v)
        n = self.fresh()
        out = Val(n, v.shape, out_dtype)
        text = f"{n} = hkg.{op} {v.name}"
        if list(axes) != [v.rank - 1]:
            text += f" axes = [{', '.join(map(str, axes))}]"
        if weight is not None:
            weight = self.materialize(weight)
            text += f" weight({weight.name} : {weight.type})"
        if bias is not None:
            bias = self.materialize(bias)
            text += f" bias({bias.name} : {bias.type})"
        text += f" eps({_fmt_float(eps)}) : {v.type} -> {out.type}"
        self.emit(text)
        return out

    def rope(self, x, cos, sin, out_dtype):
        """Llama's rotate-half RoPE of logical [B, H, S, D] `x` with [S, D]
        tables: hkg.rope reads [B, S, H, D]. A token-major x (the transpose
        of the projection) is read as it is and the result stays permuted;
        a head-major one is viewed as [B*H, S, 1, D] (token s of every head
        uses table row s either way)."""
        cos, sin = self.materialize(cos), self.materialize(sin)
        b, h, s, d = x.logical
        if x.perm == (0, 2, 1, 3):
            self.flush(x)
            phys = Val(x.name, x.shape, x.dtype, sliced=x.sliced)
            back = None
        else:
            phys = self.reshape(x, (b * h, s, 1, d))
            back = (b, h, s, d)
        n = self.fresh()
        out = Val(n, phys.shape, out_dtype)
        self.emit(f"{n} = hkg.rope {phys.name}, {cos.name}, {sin.name} neox offset(0) : "
                  f"{phys.type}, {cos.type}, {sin.type} -> {out.type}")
        if back is None:
            return Val(out.name, out.shape, out.dtype, (0, 2, 1, 3))
        return self.reshape(out, back)

    def attention(self, q, k, v, causal, scale, out_dtype, mask=None):
        """hkg.attention of logical [B, H, S, D] q, k, v: `layout(bshd)` when
        all three are token-major transposes (the result then stays
        permuted), else bhsd with dense operands. `mask`: a float additive
        mask of logical shape [B, Hq, Sq, Skv] (each dim full or 1; that
        order whatever the layout), read dense."""
        bshd = (0, 2, 1, 3)
        if q.perm == k.perm == v.perm == bshd:
            for t in (q, k, v):
                self.flush(t)
            ops = [Val(t.name, t.shape, t.dtype, sliced=t.sliced) for t in (q, k, v)]
            layout = " layout(bshd)"
            out_shape = (q.shape[0], q.shape[1], q.shape[2], v.shape[3])
            perm = bshd
        else:
            ops = [self.materialize(t) for t in (q, k, v)]
            layout = ""
            out_shape = q.logical[:3] + (v.logical[3],)
            perm = None
        if mask is not None:
            if mask.rank != 4:
                raise UnsupportedError(f"an attention mask of rank {mask.rank}")
            mask = self.materialize(mask)
        n = self.fresh()
        out = Val(n, out_shape, out_dtype)
        text = f"{n} = hkg.attention {ops[0].name}, {ops[1].name}, {ops[2].name}"
        if mask is not None:
            text += f" mask({mask.name} : {mask.type})"
        if causal:
            text += " causal"
        if scale is not None:
            text += f" scale({_fmt_float(scale)})"
        text += (f"{layout} : {ops[0].type}, {ops[1].type}, {ops[2].type} -> "
                 f"{out.type}")
        self.emit(text)
        return Val(out.name, out.shape, out.dtype, perm)

"""Graph rewrites before partitioning: compositions torch spells with many
aten ops that are one hkg op.

- `rewrite_sdpa` (on dynamo's graph, before AOT autograd):
  F.scaled_dot_product_attention without dropout -> torch.ops.hkg.attention
  (fx/library.py), its `attn_mask` (float or bool) passed through; one
  with both `is_causal` and a mask is left to torch, which refuses it.
- `fuse_compositions` (on the aten graph):
  - RMSNorm as Llama writes it, `w * (x.float() * rsqrt(x.float().pow(2)
    .mean(-1, keepdim=True) + eps)).to(x.dtype)` (the casts, the weight
    optional; x * x for the pow) -> one node lowered to hkg.rmsnorm;
  - RoPE's rotate-half, `x * cos + cat(-x2, x1) * sin` with x1, x2 the
    halves of x's last dim (a split, chunk or two slices) and [S, D] tables
    (leading 1s allowed) -> one node lowered to hkg.rope (neox, full-width
    tables).

A fused node calls a GraphModule of the nodes it replaced, so where it runs
in eager (its partition fell back) it computes exactly what they did; its
`hkg_lowering` attribute is what the partitioner and the emitter read, and
`meta["hkg_fused"]` names the nodes it replaced (for explain).
"""

import inspect
import operator

import torch
import torch.nn.functional as F

from .lowerings import Lowering, meta, out_type

aten = torch.ops.aten
prims = torch.ops.prims

# ===----------------------------------------------------------------------===#
# SDPA on dynamo's graph.
# ===----------------------------------------------------------------------===#

_SDPA = (F.scaled_dot_product_attention, torch._C._nn.scaled_dot_product_attention)


def _sdpa_signature(query, key, value, attn_mask=None, dropout_p=0.0,
                    is_causal=False, scale=None, enable_gqa=False):
    pass


_SDPA_SIG = inspect.signature(_sdpa_signature)


def rewrite_sdpa(gm):
    """Replaces dropout-free SDPA calls in a dynamo graph with
    torch.ops.hkg.attention (the attn_mask passed through); returns how
    many. SDPA with both is_causal and attn_mask is left as it is: torch
    raises on it, and so does the compiled graph."""
    from . import library  # noqa: F401
    count = 0
    for n in list(gm.graph.nodes):
        if n.op != "call_function" or n.target not in _SDPA:
            continue
        try:
            b = _SDPA_SIG.bind(*n.args, **n.kwargs)
        except TypeError:
            continue
        b.apply_defaults()
        a = b.arguments
        if any(isinstance(a[k], torch.fx.Node)
               for k in ("dropout_p", "is_causal", "scale", "enable_gqa")):
            continue
        if a["dropout_p"] != 0.0:
            continue
        mask = a["attn_mask"]
        if mask is not None and (not isinstance(mask, torch.fx.Node) or
                                 a["is_causal"]):
            continue  # not a graph tensor; or causal too, which torch refuses
        with gm.graph.inserting_before(n):
            new = gm.graph.call_function(
                torch.ops.hkg.attention.default,
                (a["query"], a["key"], a["value"], mask, bool(a["is_causal"]),
                 None if a["scale"] is None else float(a["scale"]),
                 bool(a["enable_gqa"])))
        new.meta = dict(n.meta)
        n.replace_all_uses_with(new)
        gm.graph.erase_node(n)
        count += 1
    if count:
        gm.recompile()
    return count


# ===----------------------------------------------------------------------===#
# Matching helpers.
# ===----------------------------------------------------------------------===#

def _is(n, *targets):
    return isinstance(n, torch.fx.Node) and n.op == "call_function" and n.target in targets


def _only_user(n):
    return next(iter(n.users)) if isinstance(n, torch.fx.Node) and len(n.users) == 1 else None


def _other(n, x):
    """The operand of binary `n` that is not `x` (None if x is neither)."""
    a, b = n.args[0], n.args[1]
    if a is x:
        return b
    if b is x:
        return a
    return None


def _plain_binary(n, target):
    return _is(n, target) and len(n.args) == 2 and n.kwargs.get("alpha", 1) == 1


def _cast_to(n):
    """The dtype a pure cast node converts to, else None."""
    if _is(n, prims.convert_element_type.default):
        return n.args[1]
    if _is(n, aten._to_copy.default) and not n.args[1:]:
        extra = set(n.kwargs) - {"dtype", "memory_format", "layout", "device"}
        if n.kwargs.get("dtype") is not None and not extra:
            if n.kwargs.get("device") not in (None, meta(n.args[0]).device):
                return None
            return n.kwargs["dtype"]
    return None


def _fuse(gm, kind, nodes, inputs, lowering):
    """Replaces `nodes` (in graph order, the last the result) with one node
    calling a GraphModule of them on `inputs`."""
    g = torch.fx.Graph()
    env = {x: g.placeholder(x.name) for x in inputs}
    for n in nodes:
        env[n] = g.node_copy(n, lambda x: env[x])
    g.output(env[nodes[-1]])
    sub = torch.fx.GraphModule(torch.nn.Module(), g)

    def fused(*args):
        return sub(*args)

    fused.__name__ = f"hkg_{kind}"
    fused.__qualname__ = f"hkg_{kind}"
    fused.hkg_lowering = lowering
    fused.hkg_graph = sub
    last = nodes[-1]
    with gm.graph.inserting_before(last):
        new = gm.graph.call_function(fused, tuple(inputs))
    new.meta = dict(last.meta)
    new.meta["hkg_fused"] = [n.name for n in nodes]
    last.replace_all_uses_with(new)
    for n in reversed(nodes):
        gm.graph.erase_node(n)
    return new


def _closed(nodes, last):
    """Whether every node but `last` is used only inside `nodes`."""
    s = set(nodes)
    return all(all(u in s for u in n.users) for n in nodes if n is not last)


# ===----------------------------------------------------------------------===#
# RMSNorm.
# ===----------------------------------------------------------------------===#

def _rmsnorm_lowering(axes, eps, weighted):
    def emit(fb, node, a):
        _, dtype = out_type(node)
        return fb.norm("rmsnorm", a[0], axes, eps, dtype, a[1] if weighted else None)
    return Lowering("compute", "hkg.rmsnorm", emit)


def _match_rmsnorm(r):
    """The RMSNorm around rsqrt node `r`: (nodes, inputs, lowering) or None."""
    add = r.args[0]
    if not _plain_binary(add, aten.add.Tensor) or len(add.users) != 1:
        return None
    m, eps = add.args
    if isinstance(eps, torch.fx.Node):
        m, eps = eps, m
    if not _is(m, aten.mean.dim) or isinstance(eps, torch.fx.Node) or len(m.users) != 1:
        return None
    keepdim = m.args[2] if len(m.args) > 2 else m.kwargs.get("keepdim", False)
    if not keepdim or m.kwargs.get("dtype") is not None:
        return None
    p = m.args[0]
    if _is(p, aten.pow.Tensor_Scalar) and p.args[1] == 2:
        xf = p.args[0]
    elif _plain_binary(p, aten.mul.Tensor) and p.args[0] is p.args[1]:
        xf = p.args[0]
    else:
        return None
    if len(p.users) != 1 or len(r.users) != 1:
        return None
    h = _only_user(r)
    if not _plain_binary(h, aten.mul.Tensor) or _other(h, r) is not xf:
        return None
    nodes = [p, m, add, r, h]
    x = xf
    if _cast_to(xf) is not None:
        x = xf.args[0]
        nodes.insert(0, xf)
    xm = meta(x)
    rank = xm.dim()
    dims = sorted(d % rank for d in m.args[1])
    if dims != list(range(rank - len(dims), rank)):
        return None
    last = h
    u = _only_user(last)
    if u is not None and _cast_to(u) is not None:
        last = u
        nodes.append(u)
    weight = None
    u = _only_user(last)
    if u is not None and _plain_binary(u, aten.mul.Tensor):
        w = _other(u, last)
        if isinstance(w, torch.fx.Node) and tuple(meta(w).shape) == tuple(xm.shape[dims[0]:]):
            weight = w
            last = u
            nodes.append(u)
    lm = meta(last)
    if lm.dtype != xm.dtype or tuple(lm.shape) != tuple(xm.shape):
        return None
    if not _closed(nodes, last):
        return None
    inputs = [x] + ([weight] if weight is not None else [])
    return nodes, inputs, _rmsnorm_lowering(dims, float(eps), weight is not None)


# ===----------------------------------------------------------------------===#
# RoPE (rotate-half).
# ===----------------------------------------------------------------------===#

def _rope_lowering(s, d):
    def emit(fb, node, a):
        _, dtype = out_type(node)
        x, cos, sin = a[0], a[1], a[2]
        return fb.rope(x, fb.reshape(cos, (s, d)), fb.reshape(sin, (s, d)), dtype)
    return Lowering("compute", "hkg.rope", emit)


def _half(n, d):
    """(x, which half, nodes) if `n` is the first (0) or second (1) half of
    x's last dim (size d), else None."""
    if _is(n, operator.getitem):
        src, i = n.args
        if _is(src, aten.split.Tensor, aten.split_with_sizes.default):
            x = src.args[0]
            dim = src.args[2] if len(src.args) > 2 else src.kwargs.get("dim", 0)
            if dim % meta(x).dim() != meta(x).dim() - 1:
                return None
            sizes = src.args[1]
            if _is(src, aten.split.Tensor):
                ok = sizes == d // 2
            else:
                ok = list(sizes) == [d // 2, d // 2]
            if ok and i in (0, 1):
                return x, i, [src, n]
        return None
    if _is(n, aten.slice.Tensor):
        x = n.args[0]
        dim, start, end = (list(n.args[1:4]) + [0, None, None])[:3]
        step = n.args[4] if len(n.args) > 4 else 1
        if step != 1 or dim % meta(x).dim() != meta(x).dim() - 1:
            return None
        end = d if end is None or end >= d else end
        if (start, end) == (0, d // 2):
            return x, 0, [n]
        if (start, end) == (d // 2, d):
            return x, 1, [n]
    return None


def _table_ok(t, s, d):
    if not isinstance(t, torch.fx.Node):
        return False
    shape = list(meta(t).shape)
    while len(shape) > 2 and shape[0] == 1:
        shape.pop(0)
    return shape == [s, d]


def _match_rope(c):
    """The RoPE around cat node `c`: (nodes, inputs, lowering) or None."""
    tensors = c.args[0]
    dim = c.args[1] if len(c.args) > 1 else c.kwargs.get("dim", 0)
    if len(tensors) != 2 or not _is(tensors[0], aten.neg.default):
        return None
    neg, first = tensors
    cm = meta(c)
    if cm.dim() != 4 or dim % 4 != 3:
        return None
    b_, h_, s, d = cm.shape
    if d % 2:
        return None
    hi = _half(neg.args[0], d)
    lo = _half(first, d)
    if hi is None or lo is None or hi[0] is not lo[0] or hi[1] != 1 or lo[1] != 0:
        return None
    x = lo[0]
    m2 = _only_user(c)
    if not _plain_binary(m2, aten.mul.Tensor):
        return None
    sin = _other(m2, c)
    y = _only_user(m2)
    if not _plain_binary(y, aten.add.Tensor):
        return None
    m1 = _other(y, m2)
    if not _plain_binary(m1, aten.mul.Tensor) or len(m1.users) != 1:
        return None
    cos = _other(m1, x)
    if cos is None or not _table_ok(cos, s, d) or not _table_ok(sin, s, d):
        return None
    xm, ym = meta(x), meta(y)
    if ym.dtype != xm.dtype or tuple(ym.shape) != tuple(xm.shape):
        return None
    halves = []
    for n in hi[2] + lo[2]:
        if n not in halves:
            halves.append(n)
    nodes = [m1] + halves + [neg, c, m2, y]
    order = {n: i for i, n in enumerate(c.graph.nodes)}
    nodes.sort(key=order.__getitem__)
    if not _closed(nodes, y):
        return None
    return nodes, [x, cos, sin], _rope_lowering(s, d)


def fuse_compositions(gm):
    """Fuses the RMSNorms and RoPEs of an aten graph; returns how many of
    each."""
    counts = {"rmsnorm": 0, "rope": 0}
    for n in list(gm.graph.nodes):
        if n.graph is None:  # erased by an earlier fusion
            continue
        if _is(n, aten.rsqrt.default):
            m = _match_rmsnorm(n)
            kind = "rmsnorm"
        elif _is(n, aten.cat.default):
            m = _match_rope(n)
            kind = "rope"
        else:
            continue
        if m is None:
            continue
        nodes, inputs, lowering = m
        _fuse(gm, kind, nodes, inputs, lowering)
        counts[kind] += 1
    if any(counts.values()):
        gm.graph.lint()
        gm.recompile()
    return counts

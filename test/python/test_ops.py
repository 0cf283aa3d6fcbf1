"""hkg.ops without a GPU: every op's module compiles for sm_90 and gfx942,
its numerics (the compiled program's float64 host reference,
Program.reference) match torch eager in float64, the errors come before
anything is compiled, and the call path (memoization, the reshapes after
the launch) runs with the launch replaced by the reference."""

import math

import pytest

torch = pytest.importorskip("torch")
import hkg  # noqa: E402
F = torch.nn.functional
ops = hkg.ops

TARGETS = ("sm_90", "gfx942")


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HKG_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def no_compile(monkeypatch):
    """Fails a test that compiles anything."""
    def refuse(*args, **kwargs):
        raise AssertionError("compiled before the error was raised")
    monkeypatch.setattr(ops, "compile_mlir", refuse)


@pytest.fixture
def cpu_launch(monkeypatch):
    """Calls go the whole way on CPU tensors: the device check accepts them,
    the target is sm_90 and the launch is the program's host reference.
    Returns the list of the module texts compiled."""
    compiled = []
    real = ops.compile_mlir

    def compile_mlir(text, target):
        compiled.append(text)
        return real(text, target)

    monkeypatch.setattr(ops, "compile_mlir", compile_mlir)
    monkeypatch.setattr(ops, "_device", lambda op, tensors, names: tensors[0].device)
    monkeypatch.setattr(ops, "target_of", lambda device: "sm_90")
    monkeypatch.setattr(hkg.runtime.Program, "__call__",
                        lambda self, *args: self.reference(*args))
    monkeypatch.setattr(ops, "_programs", {})
    return compiled


def close(got, want, tol=1e-6):
    got, want = got.double(), want.double()
    assert got.shape == want.shape
    err = (got - want).abs().max().item()
    assert err <= tol * max(1.0, want.abs().max().item()), err


# -- every module compiles for both chips -----------------------------------

def _cases():
    x = torch.randn(4, 6, 8)
    w = torch.randn(8)
    q = torch.randn(1, 4, 16, 32, dtype=torch.bfloat16)
    kv = torch.randn(1, 2, 16, 32, dtype=torch.bfloat16)
    r = torch.randn(1, 8, 2, 16, dtype=torch.float16)
    tab = torch.randn(8, 8)
    logits = torch.randn(4, 100)
    return {
        "softmax": (ops.softmax, (x, 1), {}),
        "log_softmax": (ops.log_softmax, (x,), {}),
        "layernorm": (ops.layernorm, (x, w, w), {}),
        "rmsnorm": (ops.rmsnorm, (x, w), {}),
        "matmul": (ops.matmul, (torch.randn(16, 32, dtype=torch.bfloat16),
                                torch.randn(64, 32, dtype=torch.bfloat16)),
                   {"transpose_b": True,
                    "bias": torch.randn(64, dtype=torch.bfloat16),
                    "epilogue": hkg.math.gelu}),
        "attention": (ops.attention, (q, kv, kv), {"causal": True}),
        "rope": (ops.rope, (r, tab, tab), {"layout": "gptj"}),
        "top_p_sample": (ops.top_p_sample, (logits, 0.9), {"seed": 7}),
        "topk": (ops.topk, (logits, 5), {}),
        "reduce": (ops.reduce, (x, "argmax", 1), {}),
        "elementwise": (hkg.elementwise(lambda a, b: hkg.math.silu(a) * b),
                        (x, w), {}),
        # Other forms of each op.
        "layernorm_inner_axis": (ops.layernorm, (x, torch.randn(6)), {"axes": 1}),
        "rmsnorm_trailing_axes": (ops.rmsnorm, (x.half(), torch.randn(6, 8)),
                                  {"axes": (-2, -1)}),
        "matmul_batched": (ops.matmul, (torch.randn(2, 8, 16), torch.randn(2, 16, 4)),
                           {"epilogue": lambda acc, r: acc + r,
                            "epilogue_inputs": (torch.randn(2, 1, 4),),
                            "out_dtype": torch.bfloat16}),
        "attention_bshd": (ops.attention, (q.transpose(1, 2).contiguous(),
                                           kv[:, :, :8].transpose(1, 2).contiguous(),
                                           kv[:, :, :8].transpose(1, 2).contiguous()),
                           {"layout": "bshd", "scale": 0.2}),
        "attention_mask": (ops.attention, (q, kv, kv),
                           {"mask": torch.randn(1, 1, 16, 16)}),
        "rope_full_width": (ops.rope, (r, torch.randn(9, 16), torch.randn(9, 16)),
                            {"offset": 1}),
        "top_p_sample_uniform": (ops.top_p_sample, (logits.bfloat16(), 0.5),
                                 {"uniform": torch.rand(4), "temperature": 0.7}),
        "topk_inner_dim": (ops.topk, (x, 3, 1), {"index_dtype": torch.int32}),
        "reduce_prologue_ins": (ops.reduce, (logits, ("logsumexp", "sum"), -1),
                                {"prologue": lambda v, t: (v, v * t),
                                 "epilogue": lambda a, b: a - b,
                                 "ins": (torch.randn(4, 1),)}),
        "elementwise_ints": (hkg.elementwise(lambda a, b, c: hkg.math.where(c, a // 3, b)),
                             (torch.randint(-9, 9, (4, 8), dtype=torch.int8),
                              torch.randint(-9, 9, (8,), dtype=torch.int64),
                              torch.rand(4, 1) > 0.5), {}),
    }


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", sorted(_cases()))
def test_module_compiles(name, target):
    op, args, kwargs = _cases()[name]
    text = op.module(*args, **kwargs)
    assert text.count("func.func") == 1 and "hkg." in text
    program = hkg.compile_mlir(text, target)
    assert program.target == target
    assert len(program.kernel_names) == 1
    # op.program(target=) is that same program.
    assert op.program(*args, target=target, **kwargs) is program
    tensors = [a for a in args if isinstance(a, torch.Tensor)]
    for v in kwargs.values():
        tensors += [v] if isinstance(v, torch.Tensor) else [
            t for t in (v if isinstance(v, tuple) else ())
            if isinstance(t, torch.Tensor)]
    assert [i["shape"] for i in program.inputs] == [list(t.shape) for t in tensors]
    assert [i["dtype"] for i in program.inputs] == [
        hkg.dtypes.from_torch(t.dtype) for t in tensors]


def test_module_builders_are_pure_functions():
    text = ops._softmax_module((8, 16), torch.bfloat16, 0, True)
    assert "hkg.softmax log %x axis(0) : tensor<8x16xbf16> -> tensor<8x16xbf16>" in text
    assert text == ops.log_softmax.module(torch.empty(8, 16, dtype=torch.bfloat16), 0)
    text = ops._norm_module("rmsnorm", (2, 3, 4), torch.float16, (1, 2), 1e-5,
                            ((3, 4), torch.float32), None)
    assert ("hkg.rmsnorm %x axes = [1, 2] weight(%w : tensor<3x4xf32>) "
            "eps(1.0e-05) : tensor<2x3x4xf16> -> tensor<2x3x4xf16>") in text


# -- numerics: the kernels' reference against torch --------------------------

@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_softmax_each_dim(dim, cpu_launch):
    x = torch.randn(4, 6, 8) * 3
    close(ops.softmax(x, dim), torch.softmax(x.double(), dim))
    close(ops.log_softmax(x, dim), torch.log_softmax(x.double(), dim))


def test_softmax_bf16(cpu_launch):
    x = (torch.randn(3, 64) * 4).bfloat16()
    got = ops.softmax(x, -1)
    close(got, torch.softmax(x.double(), -1))
    assert ops.softmax.program(x, target="sm_90").outputs[0]["dtype"] == "bf16"


@pytest.mark.parametrize("weight,bias", [(False, False), (True, False), (True, True)])
def test_layernorm(weight, bias, cpu_launch):
    x = torch.randn(5, 7, 32) * 2 + 1
    w = torch.randn(32) if weight else None
    b = torch.randn(32) if bias else None
    kwargs = {"weight": w, "bias": b}
    want = F.layer_norm(x.double(), (32,),
                        w.double() if w is not None else None,
                        b.double() if b is not None else None, 1e-5)
    close(ops.layernorm(x, **kwargs), want, 1e-5)


def test_layernorm_axes(cpu_launch):
    x = torch.randn(3, 4, 16)
    w, b = torch.randn(4, 16), torch.randn(4, 16)
    close(ops.layernorm(x, axes=(1, 2), weight=w, bias=b, eps=1e-3),
          F.layer_norm(x.double(), (4, 16), w.double(), b.double(), 1e-3), 1e-5)
    # One inner axis: down the channels of [B, C, L].
    x = torch.randn(2, 8, 10)
    g = torch.randn(8)
    want = F.layer_norm(x.double().movedim(1, -1), (8,), g.double()).movedim(-1, 1)
    close(ops.layernorm(x, axes=1, weight=g), want, 1e-5)


@pytest.mark.parametrize("weight", [False, True])
def test_rmsnorm(weight, cpu_launch):
    x = torch.randn(6, 48)
    w = torch.randn(48) if weight else None
    want = F.rms_norm(x.double(), (48,), w.double() if weight else None, 1e-6)
    close(ops.rmsnorm(x, weight=w), want, 1e-5)


def test_matmul_bias_gelu(cpu_launch):
    a, b, bias = torch.randn(16, 32), torch.randn(32, 24), torch.randn(24)
    got = ops.matmul(a, b, bias=bias, epilogue=hkg.math.gelu)
    close(got, F.gelu(a.double() @ b.double() + bias.double()), 1e-5)
    # transpose_b is F.linear, the tanh gelu another body.
    w = torch.randn(24, 32)
    got = ops.matmul(a, w, transpose_b=True, bias=bias,
                    epilogue=lambda x: hkg.math.gelu(x, approximate="tanh"))
    close(got, F.gelu(F.linear(a.double(), w.double(), bias.double()),
                      approximate="tanh"), 1e-5)


def test_matmul_batched_and_epilogue_inputs(cpu_launch):
    a, b = torch.randn(3, 8, 16), torch.randn(3, 16, 12)
    r = torch.randn(3, 8, 12)
    got = ops.matmul(a, b, epilogue=lambda acc, x: acc * 2 - x,
                    epilogue_inputs=(r,))
    close(got, (a.double() @ b.double()) * 2 - r.double(), 1e-5)
    # A per-row scale [M, 1].
    s = torch.randn(8, 1)
    got = ops.matmul(a[0], b[0], epilogue=lambda acc, x: acc * x,
                    epilogue_inputs=(s,))
    close(got, (a[0].double() @ b[0].double()) * s.double(), 1e-5)


def test_matmul_transposed_views_read_in_place(cpu_launch):
    a, w = torch.randn(8, 16), torch.randn(12, 16)
    text = ops.matmul.module(a, w.t())
    assert "transpose_b" in text and "tensor<12x16xf32>" in text
    close(ops.matmul(a, w.t()), a.double() @ w.double().t(), 1e-5)
    text = ops.matmul.module(a.t(), torch.randn(8, 4))
    assert "transpose_a" in text


def test_matmul_flattens_leading_dims(cpu_launch):
    x, w, bias = torch.randn(2, 3, 16), torch.randn(16, 8), torch.randn(8)
    res = torch.randn(2, 3, 8)
    out = ops.matmul(x, w, bias=bias, epilogue=lambda acc, r: acc + r,
                     epilogue_inputs=(res,))
    assert out.shape == (2, 3, 8)
    close(out, x.double() @ w.double() + bias.double() + res.double(), 1e-5)
    assert "tensor<6x16xf32>" in cpu_launch[0]


def test_elementwise_broadcasting(cpu_launch):
    add = hkg.elementwise(lambda a, b: a + b)
    a, b = torch.randn(4, 1, 8), torch.randn(5, 1)
    close(add(a, b), a.double() + b.double())
    text = add.module(a, b)
    assert "affine_map<(d0, d1, d2) -> (d0, 0, d2)>" in text
    assert "affine_map<(d0, d1, d2) -> (d1, 0)>" in text


def test_elementwise_square_rows_and_columns(cpu_launch):
    # A per-row value and a per-column one of a square matrix: only the
    # shape tells them apart, and the maps say it.
    mul = hkg.elementwise(lambda x, s: x * s)
    x = torch.randn(8, 8)
    rows, cols = torch.randn(8, 1), torch.randn(8)
    assert "affine_map<(d0, d1) -> (d0, 0)>" in mul.module(x, rows)
    assert "affine_map<(d0, d1) -> (d1)>" in mul.module(x, cols)
    by_row, by_col = mul(x, rows), mul(x, cols)
    close(by_row, x.double() * rows.double())
    close(by_col, x.double() * cols.double())
    assert not torch.allclose(by_row, by_col)


def test_elementwise_dtypes():
    ints = torch.arange(-6, 6, dtype=torch.int32).reshape(3, 4)
    half = torch.randn(4, dtype=torch.bfloat16)
    f = hkg.elementwise(lambda i, h: i * h)
    program = f.program(ints, half, target="sm_90")
    assert program.outputs[0]["dtype"] == "bf16"  # torch.result_type
    # The product rounded to bfloat16 once, as torch rounds it.
    assert torch.equal(program.reference(ints, half).bfloat16(), ints * half)
    gt = hkg.elementwise(lambda x: x > 0)
    x = torch.randn(16)
    program = gt.program(x, out_dtype=torch.bool, target="sm_90")
    assert program.outputs[0]["dtype"] == "i1"
    assert torch.equal(program.reference(x).bool(), x > 0)


@pytest.mark.parametrize("a,b", [
    ((torch.int32, 1), (torch.float64, 0)), ((torch.bfloat16, 1), (torch.float32, 0)),
    ((torch.bfloat16, 1), (torch.float16, 1)), ((torch.int8, 1), (torch.int64, 0)),
    ((torch.bool, 1), (torch.int32, 0)), ((torch.float16, 0), (torch.float32, 0)),
    ((torch.int64, 1), (torch.float16, 1)),
])
def test_result_dtype_is_torchs(a, b):
    ta = torch.zeros((2,) * a[1], dtype=a[0])
    tb = torch.zeros((2,) * b[1], dtype=b[0])
    assert ops.result_dtype(ta, tb) == torch.result_type(ta, tb)


def test_elementwise_rank0(cpu_launch):
    f = hkg.elementwise(lambda a, b: a * b + 1)
    out = f(torch.tensor(3.0), torch.tensor(2.0))
    assert out.shape == () and out.item() == 7.0


@pytest.mark.parametrize("kind", ["sum", "max", "argmax", "mean", "maximum",
                                  "min", "argmin", "prod", "logsumexp"])
@pytest.mark.parametrize("keepdim", [False, True])
def test_reduce_middle_axis(kind, keepdim, cpu_launch):
    x = torch.randn(3, 5, 7) + 0.5
    got = ops.reduce(x, kind, 1, keepdim)
    xd = x.double()
    want = {"sum": lambda: xd.sum(1, keepdim), "mean": lambda: xd.mean(1, keepdim),
            "max": lambda: xd.amax(1, keepdim), "maximum": lambda: xd.amax(1, keepdim),
            "min": lambda: xd.amin(1, keepdim), "prod": lambda: xd.prod(1, keepdim),
            "argmax": lambda: xd.argmax(1, keepdim), "argmin": lambda: xd.argmin(1, keepdim),
            "logsumexp": lambda: xd.logsumexp(1, keepdim)}[kind]()
    if kind.startswith("arg"):
        assert torch.equal(got.long(), want)
    else:
        close(got, want, 1e-6)


def test_reduce_dtypes_and_dims(cpu_launch):
    x = torch.randn(4, 6, 8, dtype=torch.bfloat16)
    program = ops.reduce.program(x, "argmax", -1, target="sm_90")
    assert program.outputs[0]["dtype"] == "i64"
    assert ops.reduce.program(x, "sum", 2, target="sm_90").outputs[0]["dtype"] == "bf16"
    program = ops.reduce.program(x, "sum", (1, 2), out_dtype=torch.float32,
                                 target="gfx942")
    assert program.outputs[0] == {**program.outputs[0], "dtype": "f32", "shape": [4]}
    close(program.reference(x), x.double().sum((1, 2)), 1e-6)
    close(ops.reduce(x, "mean", out_dtype=torch.float32), x.double().mean(), 1e-6)
    mean = ops.reduce(x, "mean")  # bfloat16, as torch.mean's
    assert torch.equal(mean.bfloat16(), x.double().mean().bfloat16())
    with pytest.raises(hkg.ShapeError, match="adjacent"):
        ops.reduce.module(x, "sum", (0, 2))


def test_reduce_nan_kinds(cpu_launch):
    x = torch.tensor([[1.0, float("nan"), 3.0], [2.0, 5.0, 4.0]])
    got = ops.reduce(x, "max", 1)
    assert got.tolist() == [3.0, 5.0]  # NaN skipped
    got = ops.reduce(x, "maximum", 1)
    assert math.isnan(got[0]) and got[1] == 5.0  # torch.amax


def test_reduce_cross_entropy(cpu_launch):
    # logsumexp(x) - x[target], one kernel: two kinds, a prologue reading
    # the targets per row with hkg.math.index, an epilogue combining them.
    logits, target = torch.randn(6, 40), torch.randint(0, 40, (6,))
    m = hkg.math

    def prologue(v, t):
        return v, m.where(m.index(1) == t, v, 0.0)

    got = ops.reduce(logits, ("logsumexp", "sum"), 1,
                    prologue=prologue, epilogue=lambda lse, picked: lse - picked,
                    ins=(target[:, None],), out_dtype=torch.float32)
    close(got, F.cross_entropy(logits.double(), target, reduction="none"), 1e-6)


def test_reduce_prologue_sum_of_squares(cpu_launch):
    x = torch.randn(4, 10)
    got = ops.reduce(x, "sum", -1, prologue=lambda v: v * v,
                    epilogue=hkg.math.sqrt)
    close(got, x.double().norm(dim=-1), 1e-6)


@pytest.mark.parametrize("layout", ["bhsd", "bshd"])
@pytest.mark.parametrize("causal", [False, True])
def test_attention(layout, causal, cpu_launch):
    q = torch.randn(2, 4, 16, 32)
    k, v = torch.randn(2, 2, 16, 32), torch.randn(2, 2, 16, 32)
    want = F.scaled_dot_product_attention(q.double(), k.double(), v.double(),
                                          is_causal=causal, enable_gqa=True,
                                          scale=0.3)
    if layout == "bshd":
        q, k, v = (t.transpose(1, 2).contiguous() for t in (q, k, v))
        want = want.transpose(1, 2)
    got = ops.attention(q, k, v, causal=causal, scale=0.3,
                    layout=layout)
    close(got, want, 1e-5)


def _masks():
    """[B, Hq, Sq, Skv] = [2, 4, 16, 16] masks torch's attn_mask takes."""
    pad = torch.zeros(2, 1, 1, 16)
    pad[1, ..., 11:] = -math.inf  # batch 1: its last 5 keys are padding
    rows = torch.randn(4, 16, 16)
    rows[2, 3] = -math.inf  # head 2's query 3 sees no key: 0
    return {
        "float_2d": torch.randn(16, 16),
        "key_padding": pad,
        "per_head_rows": rows,
        "bool": torch.rand(2, 4, 16, 16) > 0.3,
        "bf16_broadcast_query": torch.randn(2, 1, 1, 16, dtype=torch.bfloat16),
    }


@pytest.mark.parametrize("layout", ["bhsd", "bshd"])
@pytest.mark.parametrize("name", sorted(_masks()))
def test_attention_mask(name, layout, cpu_launch):
    mask = _masks()[name]
    q = torch.randn(2, 4, 16, 32)
    k, v = torch.randn(2, 2, 16, 32), torch.randn(2, 2, 16, 32)
    m = mask if mask.dtype == torch.bool else mask.double()
    want = F.scaled_dot_product_attention(q.double(), k.double(), v.double(),
                                          attn_mask=m, enable_gqa=True,
                                          scale=0.3)
    if name == "per_head_rows":
        assert torch.equal(want[:, 2, 3], torch.zeros(2, 32, dtype=torch.float64))
    if layout == "bshd":
        q, k, v = (t.transpose(1, 2).contiguous() for t in (q, k, v))
        want = want.transpose(1, 2)
    got = ops.attention(q, k, v, scale=0.3, layout=layout, mask=mask)
    close(got, want, 1e-5)
    text = cpu_launch[-1]
    assert "mask(%" in text
    assert ("hkg.elementwise %mask" in text) == (mask.dtype == torch.bool)


def test_attention_mask_and_causal(cpu_launch):
    # torch refuses is_causal with attn_mask; hkg applies both.
    q, k, v = (torch.randn(1, 2, 16, 32) for _ in range(3))
    mask = torch.randn(1, 2, 16, 1)
    causal = torch.ones(16, 16, dtype=torch.bool).tril()
    want = F.scaled_dot_product_attention(
        q.double(), k.double(), v.double(),
        attn_mask=mask.double().expand(1, 2, 16, 16).masked_fill(~causal, -math.inf))
    close(ops.attention(q, k, v, causal=True, mask=mask), want, 1e-5)
    assert "mask(%mask : tensor<1x2x16x1xf32>) causal :" in cpu_launch[-1]


def test_attention_mask_errors(no_compile, monkeypatch):
    monkeypatch.setattr(ops, "_device", lambda op, tensors, names: tensors[0].device)
    monkeypatch.setattr(ops, "target_of", lambda device: "sm_90")
    q, kv = _meta(2, 4, 16, 32), _meta(2, 2, 16, 32)
    with pytest.raises(hkg.ShapeError, match=r"'mask' has shape \[2, 16\].*"
                       r"\[2, 4, 16, 16\]"):
        ops.attention(q, kv, kv, mask=_meta(2, 16))
    with pytest.raises(hkg.ShapeError, match=r"'mask' has shape \[1, 2, 4, 16, 16\]"):
        ops.attention(q, kv, kv, mask=_meta(1, 2, 4, 16, 16))
    with pytest.raises(hkg.ShapeError, match=r"'mask' has shape \[2, 2, 16, 16\]"):
        ops.attention(q, kv, kv, mask=_meta(2, 2, 16, 16))  # Hkv, not Hq
    with pytest.raises(hkg.DTypeError, match="'mask' is torch.int32"):
        ops.attention(q, kv, kv, mask=_meta(16, 16, dtype=torch.int32))
    with pytest.raises(TypeError, match="'mask' must be a torch.Tensor"):
        ops.attention(q, kv, kv, mask=[[0.0]])


def _rotate(x, cos, sin, layout, offset):
    s, d = x.shape[1], x.shape[3]
    c = cos[offset:offset + s][None, :, None, :].double()
    n = sin[offset:offset + s][None, :, None, :].double()
    x = x.double()
    if cos.shape[1] == d:  # full-width tables (Hugging Face's)
        if layout == "neox":
            rot = torch.cat([-x[..., d // 2:], x[..., :d // 2]], -1)
        else:
            rot = torch.stack([-x[..., 1::2], x[..., 0::2]], -1).flatten(-2)
        return x * c + rot * n
    if layout == "neox":
        a, b = x[..., :d // 2], x[..., d // 2:]
        return torch.cat([a * c - b * n, b * c + a * n], -1)
    a, b = x[..., 0::2], x[..., 1::2]
    return torch.stack([a * c - b * n, b * c + a * n], -1).flatten(-2)


@pytest.mark.parametrize("layout", ["neox", "gptj"])
@pytest.mark.parametrize("width", ["half", "full"])
def test_rope(layout, width, cpu_launch):
    x = torch.randn(2, 6, 3, 16)
    p = 9
    if width == "half":
        cos, sin = torch.randn(p, 8), torch.randn(p, 8)
    else:  # equal within pairs, as the tables of one angle per pair are
        ang = torch.randn(p, 8)
        rep = (lambda t: t.repeat(1, 2)) if layout == "neox" else \
            (lambda t: t.repeat_interleave(2, 1))
        cos, sin = rep(ang.cos()), rep(ang.sin())
    got = ops.rope(x, cos, sin, layout=layout, offset=2)
    close(got, _rotate(x, cos, sin, layout, 2), 1e-6)


def test_topk():
    x = torch.randn(3, 50, 4)
    program = ops.topk.program(x, 6, 1, target="sm_90")
    values, indices = program.reference(x)
    want = torch.topk(x.double(), 6, 1)
    close(values, want.values)
    assert torch.equal(indices.long(), want.indices)
    assert program.outputs[1]["dtype"] == "i64"
    program = ops.topk.program(x, 6, 1, index_dtype=torch.int32, target="sm_90")
    assert program.outputs[1]["dtype"] == "i32"


def test_topk_returns_torchs_named_tuple(cpu_launch):
    x = torch.randn(4, 30)
    out = ops.topk(x, 3)
    assert isinstance(out, torch.return_types.topk)
    assert torch.equal(out.indices.long(), torch.topk(x, 3).indices)


def _nucleus_draw(logits, p, temperature, u):
    probs = torch.softmax(logits.double() / temperature, -1)
    tokens = []
    for row, ur in zip(probs, u.double()):
        order = sorted(range(len(row)), key=lambda i: (-row[i].item(), i))
        keep, mass = [], 0.0
        for i in order:
            keep.append(i)
            mass += row[i].item()
            if mass >= p:
                break
        nucleus = torch.zeros_like(row)
        nucleus[keep] = row[keep] / mass
        cdf = torch.cumsum(nucleus, 0)
        tokens.append(int(((cdf > ur) & (nucleus > 0)).nonzero()[0]))
    return torch.tensor(tokens, dtype=torch.int32)


@pytest.mark.parametrize("p,temperature", [(0.9, 1.0), (0.5, 0.7), (1.0, 2.0)])
def test_top_p_sample_uniform(p, temperature, cpu_launch):
    torch.manual_seed(0)
    logits, u = torch.randn(8, 64) * 3, torch.rand(8)
    got = ops.top_p_sample(logits, p, temperature=temperature, uniform=u)
    assert torch.equal(got, _nucleus_draw(logits, p, temperature, u))


def test_top_p_sample_seed_and_default():
    logits = torch.randn(2, 10)
    text = ops.top_p_sample.module(logits, 0.8, seed=5)
    assert "seed(5)" in text and "uniform" not in text
    # Neither seed nor uniform: the kernel takes a drawn uniform.
    text = ops.top_p_sample.module(logits, 0.8)
    assert "uniform(%uniform : tensor<2xf32>)" in text


# -- errors, before anything is compiled -------------------------------------

def test_cpu_tensor_is_a_device_error(no_compile):
    x = torch.randn(4, 8)
    with pytest.raises(hkg.DeviceError, match=r"'x' is on 'cpu'.*\.cuda\(\)"):
        ops.softmax(x)
    with pytest.raises(hkg.DeviceError, match=r"'a' is on 'meta'.*\.cuda\(\)"):
        ops.matmul(_meta(4, 8), _meta(8, 4))
    with pytest.raises(hkg.DeviceError, match=r"'input 0'.*\.cuda\(\)"):
        hkg.elementwise(lambda a: a)(x)
    with pytest.raises(hkg.DeviceError, match=r"'logits'.*\.cuda\(\)"):
        ops.top_p_sample(x, 0.9)
    assert isinstance(hkg.DeviceError("x"), ValueError)


def _meta(*shape, dtype=torch.float32):
    return torch.empty(shape, dtype=dtype, device="meta")


def test_unsupported_dtypes(no_compile, monkeypatch):
    monkeypatch.setattr(ops, "_device", lambda op, tensors, names: tensors[0].device)
    monkeypatch.setattr(ops, "target_of", lambda device: "sm_90")
    c = torch.randn(4, 8, dtype=torch.complex64)
    with pytest.raises(hkg.DTypeError, match=r"'x' is torch.complex64"):
        ops.softmax(c)
    with pytest.raises(hkg.DTypeError, match=r"'input 1' is torch.complex64"):
        hkg.elementwise(lambda a, b: a + b)(torch.randn(4, 8), c)
    with pytest.raises(hkg.DTypeError, match="float64"):
        ops.layernorm(torch.randn(4, 8, dtype=torch.float64))
    with pytest.raises(hkg.DTypeError, match="one dtype"):
        ops.matmul(torch.randn(4, 8), torch.randn(8, 4, dtype=torch.bfloat16))
    with pytest.raises(TypeError):  # DTypeError is a TypeError
        ops.topk(torch.randint(0, 5, (4, 8)), 2)


def test_shape_errors(no_compile, monkeypatch):
    monkeypatch.setattr(ops, "_device", lambda op, tensors, names: tensors[0].device)
    monkeypatch.setattr(ops, "target_of", lambda device: "sm_90")
    with pytest.raises(hkg.ShapeError, match=r"\[4, 8\].*\[7, 4\].*K = 8 and 7"):
        ops.matmul(torch.randn(4, 8), torch.randn(7, 4))
    with pytest.raises(hkg.ShapeError, match=r"'weight' has shape \[7\].*\[8\]"):
        ops.layernorm(torch.randn(4, 8), torch.randn(7))
    with pytest.raises(hkg.ShapeError, match=r"\[4, 8\], \[3\] do not broadcast"):
        hkg.elementwise(lambda a, b: a + b)(torch.randn(4, 8), torch.randn(3))
    with pytest.raises(hkg.ShapeError, match="multiple"):
        ops.attention(_meta(1, 3, 8, 16), _meta(1, 2, 8, 16), _meta(1, 2, 8, 16))
    with pytest.raises(hkg.ShapeError, match=r"P >= S \+ offset = 9"):
        ops.rope(torch.randn(1, 8, 2, 16), torch.randn(8, 8), torch.randn(8, 8),
                 offset=1)
    with pytest.raises(hkg.ShapeError, match="k in"):
        ops.topk(torch.randn(4, 8), 9)
    with pytest.raises(hkg.ShapeError, match="out of range"):
        ops.softmax(torch.randn(4, 8), 2)
    with pytest.raises(hkg.ShapeError, match="zero-size"):
        ops.softmax(torch.randn(0, 8))
    assert isinstance(hkg.ShapeError("x"), ValueError)


def test_branching_body_is_unsupported(no_compile, monkeypatch):
    monkeypatch.setattr(ops, "_device", lambda op, tensors, names: tensors[0].device)
    monkeypatch.setattr(ops, "target_of", lambda device: "sm_90")

    def relu(x):
        return x if x > 0 else 0.0

    with pytest.raises(hkg.UnsupportedError, match="branch"):
        hkg.elementwise(relu)(torch.randn(4))
    with pytest.raises(hkg.UnsupportedError, match="branch"):
        ops.matmul(torch.randn(4, 4), torch.randn(4, 4), epilogue=relu)


def test_not_a_tensor():
    with pytest.raises(TypeError, match="'x' must be a torch.Tensor, got list"):
        ops.softmax([1.0, 2.0])
    with pytest.raises(TypeError, match="'bias' must be a torch.Tensor"):
        ops.matmul(torch.randn(2, 2), torch.randn(2, 2), bias=1.0)
    with pytest.raises(TypeError, match=r"tensors\[1\] must be a torch.Tensor"):
        hkg.elementwise(lambda a, b: a + b)(torch.randn(2), 2.0)
    with pytest.raises(TypeError, match="dim must be an int"):
        ops.softmax(torch.randn(2, 2), [0])


def test_compile_errors_are_compile_errors():
    # A body yielding a value the op cannot store: the compiler's verifier
    # refuses it, and the error says so.
    with pytest.raises(hkg.CompileError):
        hkg.compile_mlir(ops.softmax.module(torch.randn(4, 8)).replace(
            "axis(1)", "axis(5)"), "sm_90")


# -- the call path: memoized, one compile per signature ------------------------

def test_calls_are_memoized(cpu_launch):
    x = torch.randn(4, 8)
    a = ops.softmax(x)
    b = ops.softmax(x + 1)
    assert len(cpu_launch) == 1
    close(a, torch.softmax(x.double(), -1))
    close(b, a)
    ops.softmax(x, 0)
    ops.softmax(x.bfloat16())
    assert len(cpu_launch) == 3
    assert ops.softmax.program(x) is ops.softmax.program(torch.zeros(4, 8))
    assert len(cpu_launch) == 3


def test_traced_functions_in_a_loop_compile_once(cpu_launch):
    x = torch.randn(4, 8)
    outs = [hkg.elementwise(lambda v: v * 2.0)(x) for _ in range(3)]
    assert len(cpu_launch) == 1
    close(outs[2], x.double() * 2)
    # What a closure captures is part of the key.
    for s in (2.0, 3.0):
        close(ops.reduce(x, "sum", 1, prologue=lambda v: v * s),
              x.double().sum(1) * s, 1e-6)
    assert len(cpu_launch) == 3


def test_ops_namespace():
    for name in ops.__all__:
        f = getattr(ops, name)
        assert f.__doc__ and ("torch" in f.__doc__ or "Hugging Face" in f.__doc__), name
        if name != "elementwise":
            assert callable(f.module) and callable(f.program), name
    assert hkg.elementwise is ops.elementwise and hkg.reduce is ops.reduce


def test_traced_functions_are_keyed_by_every_value_they_read():
    from hkg.ops import _Traced, _Uncacheable
    # A function reading a global, as a lambda in a module-level loop does.
    g = {"s": 2.0}
    exec("def f(t):\n    return t * s\n", g)
    a = _Traced(g["f"])
    g["s"] = 3.0
    b = _Traced(g["f"])
    assert a != b and hash(a) != hash(b)
    g["s"] = 2.0
    assert _Traced(g["f"]) == a
    g["s"] = -0.0
    c = _Traced(g["f"])
    g["s"] = 0.0
    assert _Traced(g["f"]) != c       # 0.0 and -0.0 give different kernels
    g["s"] = [2.0]                    # a mutable value: traced every call
    with pytest.raises(_Uncacheable):
        hash(_Traced(g["f"]))
    x = torch.ones(4)
    g["s"] = 2.0
    two = hkg.elementwise(g["f"]).module(x)
    g["s"] = 3.0
    assert hkg.elementwise(g["f"]).module(x) != two

"""hkg.trace / hkg.math: Python functions of scalars traced into hkg op
bodies. Each traced body is compiled (sm_90 and gfx942) in an
hkg.elementwise and evaluated by the program's host reference
(Program.reference) against torch eager."""

import math

import pytest

import hkg

try:
    import torch
except ImportError:  # the tests of traced text still run
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="torch is not installed")
m = hkg.math
trace_body = hkg.trace.trace_body


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HKG_CACHE_DIR", str(tmp_path / "cache"))


def run(fn, *tensors, out_dtype=None):
    """fn traced into an hkg.elementwise over `tensors`, compiled for both
    chips; the sm_90 program's reference result."""
    op = hkg.elementwise(fn)
    op.program(*tensors, out_dtype=out_dtype, target="gfx942")
    return op.program(*tensors, out_dtype=out_dtype,
                      target="sm_90").reference(*tensors)


def test_body_text_widens_and_narrows():
    body = trace_body(lambda x, b: x + b, ["bf16", "f32"], ["bf16"])
    lines = body.splitlines()
    assert lines[0] == "^bb0(%a0: bf16, %a1: f32):"
    assert "arith.extf %a0 : bf16 to f32" in body
    assert "arith.addf %v1, %a1 : f32" in body
    assert "arith.truncf" in lines[-2] and lines[-1].startswith("  hkg.yield")
    assert lines[-1].endswith(": bf16")


@needs_torch
def test_body_in_an_elementwise_verifies():
    text = hkg.elementwise(lambda x, b: x + b).module(
        torch.zeros(4, dtype=torch.bfloat16), torch.zeros(4))
    assert hkg.transform(text)


def test_constants_are_shared_and_exact():
    body = trace_body(lambda x: x * 1e-5 + 1e-5, ["f32"], ["f32"])
    assert body.count("arith.constant 1.0e-05 : f32") == 1


@needs_torch
def test_arithmetic_matches_torch():
    x = torch.randn(64) * 3
    y = torch.rand(64) + 0.5
    got = run(lambda a, b: (a * b - a / b + 2.0) ** 2 - abs(a) + 3 ** b, x, y)
    xd, yd = x.double(), y.double()
    want = (xd * yd - xd / yd + 2.0) ** 2 - xd.abs() + 3 ** yd
    assert torch.allclose(got, want, rtol=1e-5, atol=1e-5)


@needs_torch
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_integer_floor_division_and_remainder(dtype):
    dtype = getattr(torch, dtype)
    # Python's and torch's rounding: down, and the divisor's sign.
    a = torch.tensor([7, -7, 7, -7, 6, -6, 0, 5], dtype=dtype)
    b = torch.tensor([2, 2, -2, -2, 3, 3, 4, -5], dtype=dtype)
    assert torch.equal(run(lambda p, q: p // q, a, b), torch.floor_divide(a, b))
    assert torch.equal(run(lambda p, q: p % q, a, b), torch.remainder(a, b))
    assert torch.equal(run(lambda p: abs(p), a), a.abs())
    assert torch.equal(run(lambda p: -p, a), -a)


@needs_torch
def test_float_floor_division_and_remainder():
    a = torch.tensor([7.5, -7.5, 7.5, -7.5, 1.0, -0.25])
    b = torch.tensor([2.0, 2.0, -2.0, -2.0, 0.5, 4.0])
    assert torch.equal(run(lambda p, q: p // q, a, b).float(), torch.floor_divide(a, b))
    assert torch.equal(run(lambda p, q: p % q, a, b).float(), torch.remainder(a, b))
    assert torch.equal(run(lambda p: 10.0 % p, b).float(), torch.remainder(10.0, b))


@needs_torch
def test_activations_match_torch():
    x = torch.linspace(-6, 6, 97)
    F = torch.nn.functional
    xd = x.double()
    for fn, want in [(m.gelu, F.gelu(xd)),
                     (lambda v: m.gelu(v, approximate="tanh"), F.gelu(xd, approximate="tanh")),
                     (m.silu, F.silu(xd)), (m.sigmoid, torch.sigmoid(xd)),
                     (m.relu, torch.relu(xd)), (m.tanh, torch.tanh(xd)),
                     (m.erf, torch.erf(xd)), (lambda v: m.exp(v) + m.log(abs(v) + 1),
                                             xd.exp() + (xd.abs() + 1).log()),
                     (lambda v: m.rsqrt(abs(v) + 1), (xd.abs() + 1).rsqrt())]:
        assert torch.allclose(run(fn, x), want, rtol=1e-5, atol=1e-6)


@needs_torch
def test_where_and_index_build_a_causal_mask():
    x = torch.randn(6, 6)
    got = run(lambda v: m.where(m.index(1) <= m.index(0), v, float("-inf")), x)
    want = x.double().masked_fill(~torch.ones(6, 6, dtype=torch.bool).tril(),
                                  float("-inf"))
    assert torch.equal(got, want)


@needs_torch
def test_where_of_numbers_and_comparisons():
    x = torch.randn(32)
    got = run(lambda v: m.where((v > 0) & (v < 1), 1.0, 0.0), x)
    assert torch.equal(got, ((x > 0) & (x < 1)).double())
    got = run(lambda v: v >= 0.5, x, out_dtype=torch.bool)
    assert torch.equal(got.bool(), x >= 0.5)


@needs_torch
def test_casts_as_torch():
    x = torch.tensor([-2.7, -0.5, 0.0, 0.5, 2.7, 100.25])
    got = run(lambda v: m.cast(v, "i32") * 2, x, out_dtype=torch.int32)
    assert torch.equal(got.to(torch.int32), x.to(torch.int32) * 2)
    i = torch.tensor([-3, 0, 5], dtype=torch.int64)
    assert torch.equal(run(lambda v: v / 2, i, out_dtype=torch.float32),
                       i.double() / 2)


@needs_torch
def test_maximum_minimum_propagate_nan():
    a = torch.tensor([1.0, float("nan"), 3.0])
    b = torch.tensor([2.0, 0.0, float("nan")])
    got = run(lambda p, q: m.maximum(p, q), a, b)
    assert torch.equal(got.isnan(), torch.maximum(a, b).isnan())
    assert got[0] == 2.0
    got = run(lambda p, q: m.minimum(p, 1.5), a, b)
    assert got[0] == 1.0 and math.isnan(got[1]) and got[2] == 1.5


@needs_torch
def test_nan_and_inf_constants_in_16_bit_types():
    x = torch.randn(8, dtype=torch.bfloat16)
    body = trace_body(lambda v: float("nan"), ["bf16"], ["bf16"])
    assert "arith.constant 0x7FC0 : bf16" in body
    body = trace_body(lambda v: float("-inf"), ["f16"], ["f16"])
    assert "arith.constant 0xFC00 : f16" in body
    got = run(lambda v: m.where(v > 0, v, float("nan")), x)
    assert torch.equal(got.isnan(), ~(x > 0))


def test_python_branches_are_unsupported():
    def branch(v):
        return v if v > 0 else -v

    for fn in (branch, lambda v: min(v, 1.0), lambda v: v and 1.0,
               lambda v: 0 < v < 1):
        with pytest.raises(hkg.UnsupportedError, match="branch"):
            trace_body(fn, ["f32"], ["f32"])


def test_trace_errors():
    with pytest.raises(hkg.UnsupportedError, match="returned 2 value"):
        trace_body(lambda v: (v, v), ["f32"], ["f32"])
    with pytest.raises(hkg.UnsupportedError, match="only valid inside"):
        m.index(0)
    with pytest.raises(hkg.UnsupportedError, match="cannot use a str"):
        trace_body(lambda v: v + "1", ["f32"], ["f32"])
    with pytest.raises(hkg.UnsupportedError, match="not defined on f32"):
        trace_body(lambda v: v << 1, ["f32"], ["f32"])


def test_math_of_numbers_is_python_math():
    assert m.exp(0.0) == 1.0 and m.rsqrt(4.0) == 0.5 and m.erf(0.0) == 0.0
    assert m.gelu is hkg.trace.gelu and m.where is hkg.trace.where


@needs_torch
def test_reduce_prologue_uses_the_input_index():
    x = torch.randn(3, 5, 4)
    program = hkg.ops.reduce.program(
        x, "sum", 1, prologue=lambda v: v * m.cast(m.index(1), "f32"),
        target="sm_90")
    got = program.reference(x)
    want = (x.double() * torch.arange(5).double()[None, :, None]).sum(1)
    assert torch.allclose(got, want, rtol=1e-6, atol=1e-6)


# -- bools, numbers meeting bf16 / f16, float //, integer ** --------------------

@needs_torch
def test_bool_arithmetic_as_torch():
    # torch's bool tensors: + is or, * is and, false < true; a Python int
    # promotes to int64, a float to float32.
    a = torch.tensor([True, True, False, False])
    b = torch.tensor([True, False, True, False])
    for fn in (lambda p, q: p + q, lambda p, q: p * q, lambda p, q: p < q,
               lambda p, q: p <= q, lambda p, q: p > q, lambda p, q: p >= q,
               lambda p, q: p == q, lambda p, q: p != q, lambda p, q: p ^ q):
        assert torch.equal(run(fn, a, b, out_dtype=torch.bool).bool(), fn(a, b))
    for fn, ref in ((lambda p, q: m.maximum(p, q), torch.maximum),
                    (lambda p, q: m.minimum(p, q), torch.minimum)):
        assert torch.equal(run(fn, a, b, out_dtype=torch.bool).bool(), ref(a, b))
    assert torch.equal(run(lambda p: ~p, a, out_dtype=torch.bool).bool(), ~a)
    x = torch.tensor([-1.0, 0.5, 3.0, 0.0])
    assert torch.equal(run(lambda v: (v > 0) + (v > 1), x), ((x > 0) + (x > 1)).double())
    assert torch.equal(run(lambda v: (v > 0) * 3, x, out_dtype=torch.int64),
                       (x > 0) * 3)
    assert torch.equal(run(lambda v: (v > 0) + 0.5, x), ((x > 0) + 0.5).double())
    assert torch.equal(run(lambda v: (v > 0) < 2, x, out_dtype=torch.bool).bool(),
                       (x > 0) < 2)
    assert torch.equal(run(lambda v: (v > 0) == True, x,  # noqa: E712
                           out_dtype=torch.bool).bool(), (x > 0) == True)  # noqa: E712
    assert torch.equal(run(lambda v: m.where(v > 0, True, False), x,
                           out_dtype=torch.bool).bool(), x > 0)
    body = trace_body(lambda p, q: (m.maximum(p, q), m.minimum(p, q), p < q),
                      ["i1", "i1"], ["i1", "i1", "i1"])
    assert "arith.maxui" in body and "arith.minui" in body and "cmpi ult" in body
    body = trace_body(lambda p: m.where(p, True, False), ["i1"], ["i1"])
    assert "arith.constant true\n" in body and "arith.constant false\n" in body
    for fn in (lambda p, q: p - q, lambda p, q: -p, lambda p, q: abs(p)):
        with pytest.raises(hkg.UnsupportedError, match="not defined on i1"):
            trace_body(fn, ["i1", "i1"], ["i1"])


@needs_torch
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_comparison_with_a_number_rounds_it_to_the_tensor_type(dtype):
    # torch compares x with the number rounded to x's dtype: x == 0.1 holds
    # for x = bf16(0.1), which is not f32(0.1).
    dtype = getattr(torch, dtype)
    x = torch.tensor([0.1, 0.3, 1 / 3, 256.0, 2048.0, -0.1, 0.0999]).to(dtype)
    for c in (0.1, 1 / 3, 257, 2049.0, -0.1):
        for fn in (lambda v: v == c, lambda v: v > c, lambda v: v <= c,
                   lambda v: v != c, lambda v: c < v, lambda v: v * 1 == c):
            got = run(fn, x, out_dtype=torch.bool).bool()
            assert torch.equal(got, fn(x)), (c, got, fn(x))
    # Converted to f32 first, the comparison is in f32, as x.float() == 0.1.
    got = run(lambda v: m.cast(v, "f32") == 0.1, x, out_dtype=torch.bool).bool()
    assert torch.equal(got, x.float() == 0.1)
    # Arithmetic keeps the number in f32, as torch's CUDA kernels do (and
    # CPU's for *): x * 0.1 is not x * bf16(0.1).
    assert torch.equal(run(lambda v: v * 0.1, x).to(dtype), x * 0.1)


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_floor_division_as_torch(dtype):
    # torch.floor_divide's correction: 1.0 // 0.1 is 9 (floor(1.0 / 0.1) is
    # 10), 7.0 // 0.1 is 69; signed zeros and division by zero as torch.
    dtype = getattr(torch, dtype)
    a = torch.tensor([1.0, 7.0, -1.0, 0.3, -0.0, 0.0, 5.0, -5.0, 0.0, 2.5, -2.5, 0.25],
                     dtype=dtype)
    b = torch.tensor([0.1, 0.1, 0.1, 0.1, 3.0, -3.0, 0.0, 0.0, 0.0, -0.5, 0.7, -4.0],
                     dtype=dtype)
    want = torch.floor_divide(a, b)
    got = run(lambda p, q: p // q, a, b).to(dtype)
    assert torch.equal(got.isnan(), want.isnan())
    ok = ~want.isnan()
    assert torch.equal(got[ok], want[ok])
    assert torch.equal(torch.signbit(got[ok]), torch.signbit(want[ok]))
    got = run(lambda p: p // 0.1, a[:2]).to(dtype)
    assert got.tolist() == [9.0, 69.0] == torch.floor_divide(a[:2], 0.1).tolist()


@needs_torch
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_integer_power_is_exact(dtype):
    # Square and multiply on the integers, not f32 powf (7 ** 9 > 2 ** 24).
    dtype = getattr(torch, dtype)
    x = torch.tensor([7, 3, -5, 2, 0, 1, -1, 6], dtype=dtype)
    for n in (0, 1, 2, 9, 11):
        assert torch.equal(run(lambda v: v ** n, x, out_dtype=dtype).to(dtype), x ** n)
    body = trace_body(lambda v: v ** 9, ["i64"], ["i64"])
    assert "math.powf" not in body and body.count("arith.muli") == 4
    with pytest.raises(hkg.UnsupportedError, match="negative integer powers"):
        trace_body(lambda v: v ** -2, ["i64"], ["i64"])
    # A traced exponent: torch's rule for negative ones (1, -1 or 0).
    e = torch.tensor([9, 13, 11, 20, 3, -3, -3, -2], dtype=dtype)
    got = run(lambda p, q: p ** q, x, e, out_dtype=dtype).to(dtype)
    assert torch.equal(got, x ** e)
    assert torch.equal(run(lambda q: 2 ** q, e[e >= 0], out_dtype=dtype).to(dtype),
                       2 ** e[e >= 0])
    assert "math.powf" not in trace_body(lambda p, q: p ** q, ["i32", "i32"], ["i32"])

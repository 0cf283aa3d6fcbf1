"""torch.compile(backend="hkg"), hkg.compile and hkg.explain, without a GPU.

The compiled graphs run in the backend's reference mode (partitions run
Program.reference, the float64 host reference of the compiled launch plan,
on CPU tensors), so the numerics of the whole graph, the hkg partitions
and the nodes left to eager, are checked against eager PyTorch here. The
models are utils/frontend/torch_import.py's (the issue's MLP and decoder
layer), at small sizes, in f32."""

import os
import sys

import pytest

torch = pytest.importorskip("torch")

import hkg  # noqa: E402
from hkg.backend import last_report  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "utils", "frontend"))
import torch_import as models  # noqa: E402

REFERENCE = {"target": "sm_90", "reference": True}


@pytest.fixture(autouse=True)
def fresh(tmp_path, monkeypatch):
    monkeypatch.setenv("HKG_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("HKG_BACKEND_REFERENCE", raising=False)
    torch._dynamo.reset()
    torch.manual_seed(0)
    yield
    torch._dynamo.reset()


def mlp():
    return models.MLP(64, 128, torch.float32).eval(), (torch.randn(16, 64),)


def decoder(batch=2):
    m = models.DecoderLayer(64, 4, 2, 16, 128, 1e-5, torch.float32).eval()
    return m, (torch.randn(batch, 8, 64), torch.randn(8, 16), torch.randn(8, 16))


class WithCumsum(torch.nn.Module):
    """Linear + ReLU, a cumsum (no hkg op), Linear, scale, softmax."""

    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(32, 64)
        self.b = torch.nn.Linear(64, 16)

    def forward(self, x):
        h = torch.relu(self.a(x))
        h = torch.cumsum(h, dim=-1)
        return torch.softmax(self.b(h) * 0.5, dim=-1)


def reference_run(model, args):
    c = torch.compile(model, backend="hkg", options=REFERENCE)
    with torch.no_grad():
        return c(*args), model(*args)


def assert_close(got, want, tol=2e-5):
    assert got.shape == want.shape and got.dtype == want.dtype
    err = (got - want).abs().max().item()
    assert err <= tol * max(1.0, want.abs().max().item()), err


def test_backend_is_registered():
    assert "hkg" in torch._dynamo.list_backends(exclude_tags=())


# -- fallback per node --------------------------------------------------------

def test_unmapped_node_runs_in_eager_and_the_rest_in_hkg():
    m = WithCumsum().eval()
    x = torch.randn(8, 32)
    report = hkg.explain(m, x)
    cumsum = report.node("cumsum")
    assert cumsum.where == "eager"
    assert cumsum.reason == "no hkg mapping for aten.cumsum.default"
    others = [n for n in report.nodes if n.name != "cumsum"]
    assert others and all(n.where == "hkg" for n in others), str(report)
    # Before and after the cumsum: two partitions.
    assert [p.compiled for p in report.partitions] == [True, True]
    assert report.node("addmm").partition == 0
    assert report.node("_softmax").partition == 1
    assert report.stats["compute_nodes_in_eager"] == 1
    table = str(report)
    assert "cumsum" in table and "no hkg mapping for aten.cumsum.default" in table
    # The mixed graph (hkg, eager, hkg) computes what eager does.
    got, want = reference_run(m, (x,))
    assert_close(got, want)


def test_partition_that_does_not_compile_runs_in_eager(monkeypatch):
    hb = sys.modules["hkg.backend"]  # hkg.backend is the backend function

    def refuse(text, target):
        raise hkg.CompileError("<hkg input>:1:1: error: planted refusal")
    monkeypatch.setattr(hb, "compile_mlir", refuse)
    m, args = mlp()
    got, want = reference_run(m, args)
    assert_close(got, want, tol=0)
    report = last_report()
    assert report.partitions[0].reason == \
        "did not compile: <hkg input>:1:1: error: planted refusal"
    assert "func.func @" in report.partitions[0].mlir
    assert all(n.where == "eager" for n in report.nodes)
    assert report.node("addmm").reason.startswith("partition 0 did not compile")


# -- numerics of the compiled graph, without a GPU ----------------------------

def test_mlp_matches_eager():
    m, args = mlp()
    got, want = reference_run(m, args)
    assert_close(got, want)
    s = last_report().stats
    assert (s["partitions"], s["kernels"], s["nodes_in_eager"]) == (1, 2, 0)


@pytest.mark.parametrize("batch", [1, 2])
def test_decoder_layer_matches_eager(batch):
    m, args = decoder(batch)
    got, want = reference_run(m, args)
    assert_close(got, want)
    report = last_report()
    assert report.stats["nodes_in_eager"] == 0, report.table()
    # The Torch-MLIR path's ten kernels (docs/Frontend.md): the residual
    # adds and SiLU(gate) * up are matmul epilogues, also for batch > 1.
    assert report.kernels == [
        "hkg_rmsnorm_0", "hkg_matmul_0", "hkg_rope_0", "hkg_rope_1",
        "hkg_attention_0", "hkg_matmul_1", "hkg_rmsnorm_1", "hkg_matmul_2",
        "hkg_matmul_3", "hkg_matmul_4"]


def test_decoder_layer_bf16_matches_eager():
    m = models.DecoderLayer(64, 4, 2, 16, 128, 1e-5, torch.bfloat16).eval()
    args = (torch.randn(2, 8, 64, dtype=torch.bfloat16),
            torch.randn(8, 16, dtype=torch.bfloat16), torch.randn(8, 16, dtype=torch.bfloat16))
    got, want = reference_run(m, args)
    # Within two bf16 steps of the largest value: hkg rounds fused ops once.
    assert_close(got, want, tol=2 ** -7)
    # Llama's casts around the RMSNorm are in the fused node.
    assert last_report().node("_to_copy").fused == [
        "_to_copy", "pow_1", "mean", "add", "rsqrt", "mul", "_to_copy_1", "mul_1"]


class Chain(torch.nn.Module):
    def forward(self, x, s):
        return torch.sigmoid(x * s + 1).to(torch.bfloat16)


def test_elementwise_chain_is_one_kernel():
    x, s = torch.randn(16, 32), torch.tensor(0.5)
    got, want = reference_run(Chain(), (x, s))
    assert_close(got, want, tol=0)
    report = last_report()
    assert report.kernels == ["hkg_elementwise_0"]
    # The rank-0 tensor is read at every element; each op's result is
    # rounded as torch rounds it (here only the last, to bf16).
    mlir = report.partitions[0].mlir
    assert "affine_map<(d0, d1) -> ()>" in mlir and mlir.count("arith.truncf") == 1


class Views(torch.nn.Module):
    def forward(self, x, w):
        y = torch.tanh(x @ w)
        a, b = y.split([8, 24], dim=-1)
        return y.t(), a, b.reshape(-1), torch.cumsum(b, 0), y.view(4, -1) * 2


def test_views_at_partition_edges_are_left_to_torch():
    args = (torch.randn(16, 32), torch.randn(32, 32))
    c = torch.compile(Views(), backend="hkg", options=REFERENCE)
    with torch.no_grad():
        got, want = c(*args), Views()(*args)
    for g, w in zip(got, want):
        assert_close(g, w)
        assert g.stride() == w.stride()
    report = last_report()
    edge = "a view at the edge of an hkg partition: left to torch (free there)"
    for name in ("split_with_sizes", "t"):
        assert report.node(name).where == "eager" and report.node(name).reason == edge
    for name in ("mm", "tanh", "view", "mul"):
        assert report.node(name).where == "hkg"


def test_rope_result_returned_transposed():
    # Rope transposes [B, S, H, D] first: hkg.rope reads the token-major
    # input as it is and the [B, H, S, D] result is torch's permute of it.
    x, cos, sin = torch.randn(1, 8, 4, 16), torch.randn(8, 16), torch.randn(8, 16)
    got, want = reference_run(models.Rope(), (x, cos, sin))
    assert_close(got, want)
    report = last_report()
    assert report.kernels == ["hkg_rope_0"]
    mlir = report.partitions[0].mlir
    assert "hkg.rope %in0, %in1, %in2 neox offset(0) : tensor<1x8x4x16xf32>" in mlir


def test_gqa_causal_attention_matches_eager():
    q = torch.randn(1, 4, 16, 32)
    k, v = torch.randn(1, 2, 16, 32), torch.randn(1, 2, 16, 32)
    got, want = reference_run(models.Attention(), (q, k, v))
    assert_close(got, want)
    assert "hkg.attention %in0, %in1, %in2 causal :" in last_report().partitions[0].mlir


def test_masked_attention_matches_eager():
    # SDPA's float attn_mask is hkg.attention's mask operand, viewed as rank 4.
    q = torch.randn(1, 4, 16, 32)
    k, v = torch.randn(1, 2, 16, 32), torch.randn(1, 2, 16, 32)
    mask = torch.randn(16, 16)
    mask[3] = -torch.inf  # query 3 sees no key: 0, as torch on CPU
    got, want = reference_run(models.Attention(), (q, k, v, mask))
    assert_close(got, want)
    report = last_report()
    assert report.kernels == ["hkg_attention_0"] and report.stats["nodes_in_eager"] == 0
    mlir = report.partitions[0].mlir
    assert ("tensor.expand_shape %in0 [[0, 1, 2], [3]] output_shape [1, 1, 16, 16] : "
            "tensor<16x16xf32> into tensor<1x1x16x16xf32>") in mlir
    assert "mask(%t1 : tensor<1x1x16x16xf32>) :" in mlir


def test_bool_masked_attention_matches_eager():
    # True attends: select(m, 0, -inf) in q's dtype, then the attention.
    def f(q, k, v, keep):
        return torch.nn.functional.scaled_dot_product_attention(
            q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
            attn_mask=keep, scale=0.25).transpose(1, 2)
    q, k, v = (torch.randn(2, 16, 2, 32) for _ in range(3))
    keep = torch.rand(2, 1, 16, 16) > 0.4
    got, want = reference_run(f, (q, k, v, keep))
    assert_close(got, want)
    mlir = last_report().partitions[0].mlir
    assert "arith.select" in mlir and "0xFF800000" in mlir
    assert "mask(%t1 : tensor<2x1x16x16xf32>) scale(0.25) layout(bshd) :" in mlir


def test_aten_sdpa_variant_with_mask_and_causal_maps_to_attention():
    # The CPU flash kernel's attn_mask; with is_causal both apply.
    def f(q, k, v, m):
        return torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(
            q, k, v, 0.0, True, attn_mask=m)[0]
    q, k, v = (torch.randn(1, 2, 16, 32) for _ in range(3))
    got, want = reference_run(f, (q, k, v, torch.randn(1, 2, 1, 16)))
    assert_close(got, want)
    assert "mask(%in3 : tensor<1x2x1x16xf32>) causal :" in last_report().partitions[0].mlir


def test_causal_and_mask_sdpa_is_left_to_torch():
    def f(q, k, v, m):
        return torch.nn.functional.scaled_dot_product_attention(
            q, k, v, attn_mask=m, is_causal=True)
    q, k, v = (torch.randn(1, 2, 16, 32) for _ in range(3))
    with pytest.raises(Exception, match="attn_mask should not be set when is_causal"):
        reference_run(f, (q, k, v, torch.randn(16, 16)))


def test_unbroadcastable_mask_is_refused():
    # torch.ops.hkg.attention's fake does not check the mask (torch's SDPA
    # raises on it, in eager): the lowering refuses it by name.
    def f(q, k, v, m):
        return torch.ops.hkg.attention(q, k, v, m, False, None, True)
    q = torch.randn(1, 4, 16, 32)
    k, v = torch.randn(1, 2, 16, 32), torch.randn(1, 2, 16, 32)
    with pytest.raises(hkg.UnsupportedError,
                       match=r"an attn_mask of shape \[1, 2, 16, 16\], which does not "
                             r"broadcast to \[B, Hq, Sq, Skv\] = \[1, 4, 16, 16\]"):
        hkg.compile(f, (q, k, v, torch.randn(1, 2, 16, 16)), target="sm_90", reference=True)


class Ops(torch.nn.Module):
    """layer_norm, log_softmax, a bmm reading a transpose, reductions, where."""

    def __init__(self):
        super().__init__()
        self.ln = torch.nn.LayerNorm(32)

    def forward(self, x, y):
        h = self.ln(x)
        a = torch.log_softmax(h, -1)
        b = torch.bmm(h, y.transpose(1, 2))
        return a.sum(dim=1), b.amax(dim=-1), h.mean(), torch.where(h > 0, h, 0.1 * h)


def test_other_ops_match_eager():
    m = Ops().eval()
    args = (torch.randn(2, 8, 32), torch.randn(2, 16, 32))
    report = hkg.explain(m, *args)
    ops = {n.name: n.hkg_op for n in report.nodes}
    assert ops["native_layer_norm"] == "hkg.layernorm"
    assert ops["_log_softmax"] == "hkg.softmax log"
    assert ops["bmm"] == "hkg.matmul"
    assert ops["amax"] == "hkg.reduce maximum"
    assert ops["mean"] == "hkg.reduce sum (mean)"
    assert report.stats["nodes_in_eager"] == 0
    assert "transpose_b" in report.partitions[0].mlir
    c = torch.compile(m, backend="hkg", options=REFERENCE)
    with torch.no_grad():
        for got, want in zip(c(*args), m(*args)):
            assert_close(got, want)


# -- explain ------------------------------------------------------------------

def test_explain_decoder_layer():
    m, args = decoder()
    report = hkg.explain(m, *args)
    assert len(report.graphs) == 1 and report.stats["nodes_in_eager"] == 0
    by_op = {}
    for n in report.nodes:
        assert n.where == "hkg", n
        by_op.setdefault(n.hkg_op, []).append(n)
    assert len(by_op["hkg.rmsnorm"]) == 2
    assert len(by_op["hkg.rope"]) == 2
    assert len(by_op["hkg.matmul"]) == 5
    assert [n.op for n in by_op["hkg.attention"]] == ["hkg.attention.default"]
    # The fused rows name the aten nodes they replaced.
    norm = report.node("rsqrt")
    assert norm.hkg_op == "hkg.rmsnorm"
    assert norm.fused == ["pow_1", "mean", "add", "rsqrt", "mul", "mul_1"]
    assert report.node("cat").hkg_op == "hkg.rope"
    assert report.node("mm").hkg_op == "hkg.matmul"
    # q, k, v are read in place from the projection, token-major.
    mlir = report.partitions[0].mlir
    assert "causal layout(bshd)" in mlir and mlir.count("tensor.extract_slice") == 3
    table = str(report)
    for word in ("hkg.rmsnorm", "hkg.attention", "hkg.rope", "partition 0: 42 nodes -> 10 kernel(s)"):
        assert word in table


@pytest.mark.parametrize("chip", ["sm_90", "gfx942"])
def test_mlp_compiles_and_fuses_for(chip):
    m, args = mlp()
    report = hkg.explain(m, *args, target=chip)
    (p,) = report.partitions
    assert p.compiled, p.reason
    assert p.program.target == chip
    # bias + GELU in the first matmul's epilogue, bias in the second's.
    assert p.kernels == ["hkg_matmul_0", "hkg_matmul_1"]
    assert p.mlir.count("hkg.matmul") == 2 and p.mlir.count("transpose_b") == 2
    assert "math.erf" in p.mlir


# -- whole-graph fallbacks and errors ----------------------------------------

def test_cpu_tensors_fall_back_to_eager():
    m = WithCumsum().eval()
    x = torch.randn(8, 32)
    c = torch.compile(m, backend="hkg")
    with torch.no_grad():
        assert torch.equal(c(x), m(x))
    report = last_report()
    assert report.reason.startswith("inputs on 'cpu'")
    assert report.stats["partitions"] == 0


def test_strict_compile_refuses_cpu_tensors():
    m, args = mlp()
    with pytest.raises(hkg.DeviceError, match="on 'cpu'"):
        hkg.compile(m, args)


def test_strict_compile_lists_unmapped_nodes():
    m = WithCumsum().eval()
    x = torch.randn(8, 32)
    with pytest.raises(hkg.UnsupportedError,
                       match=r"cumsum \(aten.cumsum.default\): no hkg mapping"):
        hkg.compile(m, (x,), target="sm_90", reference=True)
    f = hkg.compile(m, (x,), target="sm_90", reference=True, fallback=True)
    with torch.no_grad():
        assert_close(f(x), m(x))
    assert f.report.stats["partitions"] == 2


def test_strict_compile_reference():
    m, args = mlp()
    f = hkg.compile(m, args, target="sm_90", reference=True)
    assert f.report.kernels == ["hkg_matmul_0", "hkg_matmul_1"]
    with torch.no_grad():
        assert_close(f(*args), m(*args))


def test_training_falls_back_with_a_reason():
    m, (x,) = mlp()
    c = torch.compile(m, backend="hkg", options=REFERENCE)
    y = c(x)
    assert last_report().reason.startswith("training")
    y.sum().backward()
    assert m.fc1.weight.grad is not None


def test_dynamic_shapes_fall_back_with_a_reason():
    m, _ = mlp()
    c = torch.compile(m, backend="hkg", options=REFERENCE)
    with torch.no_grad():
        c(torch.randn(4, 64))
        assert last_report().stats["partitions"] == 1
        x = torch.randn(6, 64)
        assert_close(c(x), m(x))
    assert last_report().reason.startswith("dynamic shapes")


def test_unknown_option_is_an_error():
    m, args = mlp()
    c = torch.compile(m, backend="hkg", options={"chip": "sm_90"})
    with pytest.raises(Exception, match="unknown hkg backend option"):
        c(*args)


# -- on a GPU (skipped without one) --------------------------------------------

gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason="no GPU: torch.cuda.is_available() is False")


@gpu
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_gpu_models_match_eager(dtype):
    cases = [
        (models.MLP(256, 512, dtype), (torch.randn(64, 256, dtype=dtype),), 2),
        (models.DecoderLayer(256, 4, 2, 64, 512, 1e-5, dtype),
         (torch.randn(2, 64, 256, dtype=dtype), torch.randn(64, 64, dtype=dtype),
          torch.randn(64, 64, dtype=dtype)), 10),
    ]
    tol = 1e-4 if dtype == torch.float32 else 2 ** -6
    for m, args, kernels in cases:
        m = m.cuda().eval()
        args = tuple(a.cuda() for a in args)
        c = torch.compile(m, backend="hkg")
        with torch.no_grad():
            got, want = c(*args), m(*args)
        report = last_report()
        assert report.stats["nodes_in_eager"] == 0, report.table()
        assert len(report.kernels) == kernels
        assert got.device == want.device
        assert_close(got.float(), want.float(), tol=tol)


@gpu
def test_gpu_strict_compile_and_cpu_fallback():
    m = models.MLP(128, 256, torch.bfloat16).cuda().eval()
    x = torch.randn(32, 128, dtype=torch.bfloat16, device="cuda")
    f = hkg.compile(m, (x,))
    assert f.report.kernels == ["hkg_matmul_0", "hkg_matmul_1"]
    with torch.no_grad():
        assert_close(f(x).float(), m(x).float(), tol=2 ** -6)


def test_expand_is_read_in_place():
    class Expand(torch.nn.Module):
        def forward(self, x, b):
            return torch.exp(x) + b[:, None].expand(8, 16)
    args = (torch.randn(8, 16), torch.randn(8))
    got, want = reference_run(Expand(), args)
    assert_close(got, want)
    report = last_report()
    assert report.kernels == ["hkg_elementwise_0"]
    assert "affine_map<(d0, d1) -> (d0, 0)>" in report.partitions[0].mlir


def test_aten_sdpa_variant_maps_to_attention():
    def f(q, k, v):
        return torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(
            q, k, v, 0.0, True, scale=0.3)[0]
    q, k, v = torch.randn(1, 4, 16, 32), torch.randn(1, 2, 16, 32), torch.randn(1, 2, 16, 32)
    got, want = reference_run(f, (q, k, v))
    assert_close(got, want)
    assert "causal scale(0.3) :" in last_report().partitions[0].mlir


def test_layer_norm_statistics_used_stay_in_eager():
    def f(x):
        y, mean, rstd = torch.native_layer_norm(x, [32], None, None, 1e-5)
        return y * 2, mean
    x = torch.randn(4, 32)
    got, want = reference_run(f, (x,))
    for g, w in zip(got, want):
        assert_close(g, w)
    node = last_report().node("native_layer_norm")
    assert node.where == "eager" and node.reason.startswith("result 1 is used")


@gpu
def test_gpu_cpu_scalar_meets_gpu_tensors():
    x, s = torch.randn(16, 32, device="cuda"), torch.tensor(0.5)
    c = torch.compile(Chain(), backend="hkg")
    with torch.no_grad():
        got, want = c(x, s), Chain()(x, s)
    assert last_report().kernels == ["hkg_elementwise_0"]
    assert_close(got.float(), want.float(), tol=0)


# -- silent wrong answers the review found ------------------------------------

def test_bool_add_is_or_as_torch():
    # torch's bool + bool is or: True + True is True, not xor's False.
    f = lambda x: ((x > 0) + (x > 1)).float() * 2  # noqa: E731
    x = torch.tensor([-1.0, 0.5, 3.0])
    got, want = reference_run(f, (x,))
    assert torch.equal(got, want) and want.tolist() == [0.0, 2.0, 2.0]
    assert last_report().stats["nodes_in_eager"] == 0
    f = lambda x: (x > 0) * 3 + x  # noqa: E731
    got, want = reference_run(f, (x,))
    assert torch.equal(got, want)


def test_bf16_comparison_with_a_number_rounds_it():
    # torch rounds 0.1 to bf16 before comparing a bf16 tensor with it.
    x = torch.tensor([0.1, 0.3, 1 / 3, 0.099], dtype=torch.bfloat16)
    wants = []
    for f in (lambda x: (x * 1 == 0.1).float(), lambda x: (x * 1 > 0.1).float(),
              lambda x: (x.float() == 0.1).float()):
        torch._dynamo.reset()
        got, want = reference_run(f, (x,))
        assert torch.equal(got, want), (got, want)
        assert last_report().stats["nodes_in_eager"] == 0
        wants.append(want.tolist())
    # x.float() is compared in f32.
    assert wants == [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0]]
    # A 0-dim f32 tensor meeting a bf16 one is rounded to bf16 as well (the
    # comparison's type is torch's result type, bf16).
    for f in (lambda x, s: (x * 1 == s).float(), lambda x, s: (x * 1 >= s).float()):
        torch._dynamo.reset()
        got, want = reference_run(f, (x, torch.tensor(0.1)))
        assert torch.equal(got, want), (got, want)
        assert last_report().stats["nodes_in_eager"] == 0
    assert want.tolist() == [1.0, 1.0, 1.0, 0.0]


def test_clamp_min_above_max_gives_max():
    # torch.clamp is min(max(x, min), max): where min > max, max.
    x = torch.tensor([-1.0, 0.5, 3.0, float("nan")])
    for lo, hi in ((2.0, 1.0), (-0.5, 1.0), (None, 0.0), (0.0, None)):
        torch._dynamo.reset()
        got, want = reference_run(lambda x: torch.clamp(x * 1, min=lo, max=hi), (x,))
        assert torch.equal(got.isnan(), want.isnan())
        assert torch.equal(got[~want.isnan()], want[~want.isnan()]), (lo, hi)
        assert last_report().node("clamp").where == "hkg"


def test_addmm_with_beta_zero_ignores_the_input():
    # beta = 0: torch does not read the input, so its NaN does not spread.
    x, w = torch.randn(4, 8), torch.randn(8, 3)
    nan = torch.full((3,), float("nan"))
    for beta, alpha, b in ((0.0, 1.0, nan), (0, 2.0, nan), (0.5, 2.0, torch.randn(3))):
        torch._dynamo.reset()
        f = lambda x, w, b: torch.addmm(b, x, w, beta=beta, alpha=alpha)  # noqa: E731
        got, want = reference_run(f, (x, w, b))
        assert not want.isnan().any()
        assert_close(got, want)
        assert last_report().node("addmm").where == "hkg"

"""The hkg package on a GPU: programs launched on torch's tensors and
stream, checked against eager. Skipped where torch sees no GPU (CI); run on
the GPU machine with utils/device/python.sh (docs/Python.md)."""

import pytest

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no GPU: torch.cuda.is_available() is False", allow_module_level=True)

import hkg  # noqa: E402

TARGET = hkg.runtime.target_of(torch.device("cuda"))

BLOCK = """
func.func @block(%x: tensor<64x256xf32>, %w: tensor<256xf32>, %m: tensor<256x512xf32>) -> (tensor<64x8x64xf32>, tensor<64x512xf32>) {
  %0 = hkg.rmsnorm %x weight(%w : tensor<256xf32>) eps(1.0e-05) : tensor<64x256xf32> -> tensor<64x256xf32>
  %1 = hkg.matmul %0, %m : tensor<64x256xf32>, tensor<256x512xf32> -> tensor<64x512xf32>
  %2 = tensor.expand_shape %1 [[0], [1, 2]] output_shape [64, 8, 64] : tensor<64x512xf32> into tensor<64x8x64xf32>
  %3 = hkg.softmax %2 axis(2) : tensor<64x8x64xf32> -> tensor<64x8x64xf32>
  return %3, %1 : tensor<64x8x64xf32>, tensor<64x512xf32>
}
"""

DYNAMIC = """
func.func @f(%x: tensor<?x1000xbf16>) -> tensor<?x1000xbf16> {
  %0 = hkg.softmax %x axis(1) : tensor<?x1000xbf16> -> tensor<?x1000xbf16>
  return %0 : tensor<?x1000xbf16>
}
"""


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HKG_CACHE_DIR", str(tmp_path / "cache"))


def rel_err(got, want):
    got, want = got.double().cpu(), want.double().cpu()
    return ((got - want).norm() / want.norm()).item()


def block_inputs():
    """BLOCK's inputs: x, a positive weight, a matrix."""
    return (torch.randn(64, 256, device="cuda"), torch.rand(256, device="cuda") + 0.5,
            torch.randn(256, 512, device="cuda") / 16)


def test_program_matches_eager_and_its_reference():
    p = hkg.compile_mlir(BLOCK, TARGET)
    x, w, m = block_inputs()
    sm, mm = p(x, w, m)
    assert sm.shape == (64, 8, 64) and mm.shape == (64, 512)
    assert sm.device.type == "cuda" and sm.dtype == torch.float32
    h = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * w
    want_mm = h.double() @ m.double()
    assert rel_err(mm, want_mm) < 1e-3  # tf32-class tolerance
    assert rel_err(sm, torch.softmax(want_mm.view(64, 8, 64), -1)) < 1e-3
    ref_sm, ref_mm = p.reference(x.cpu(), w.cpu(), m.cpu())
    assert rel_err(mm, ref_mm) < 1e-3 and rel_err(sm, ref_sm) < 1e-3


def test_every_output_element_is_written():
    p = hkg.compile_mlir(BLOCK, TARGET)
    x, w, m = block_inputs()
    # Poison the allocator's blocks: outputs come from torch's cache.
    for _ in range(3):
        torch.full((64 * 512 * 4,), float("nan"), device="cuda")
    sm, mm = p(x, w, m)
    assert torch.isfinite(sm).all() and torch.isfinite(mm).all()


@pytest.mark.parametrize("rows", [1, 37, 1000])
def test_dynamic_sizes(rows):
    p = hkg.compile_mlir(DYNAMIC, TARGET)
    x = torch.randn(rows, 1000, device="cuda", dtype=torch.bfloat16)
    y = p(x)
    assert y.shape == (rows, 1000)
    assert rel_err(y, torch.softmax(x.double(), -1)) < 1e-2


def test_runs_on_torchs_current_stream():
    p = hkg.compile_mlir(DYNAMIC, TARGET)
    s = torch.cuda.Stream()
    x = torch.randn(4096, 1000, device="cuda", dtype=torch.bfloat16)
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        y = p(x)
        z = y.float().sum(-1)  # ordered after the kernel on s
    s.synchronize()
    assert torch.allclose(z, torch.ones_like(z), atol=2e-2)


def test_non_contiguous_inputs_are_copied():
    p = hkg.compile_mlir(DYNAMIC, TARGET)
    x = torch.randn(1000, 64, device="cuda", dtype=torch.bfloat16).t()
    assert not x.is_contiguous()
    assert rel_err(p(x), torch.softmax(x.double(), -1)) < 1e-2


def test_wrong_target_is_refused():
    other = "sm_80" if TARGET != "sm_80" else "sm_90"
    p = hkg.compile_mlir(DYNAMIC, other)
    with pytest.raises(hkg.DeviceError, match=f"compiled for {other}"):
        p(torch.randn(4, 1000, device="cuda", dtype=torch.bfloat16))


def test_tuning_measures_on_the_device(tmp_path):
    src = DYNAMIC.replace("?", "512")
    out = hkg.tune_mlir(src, TARGET, budget=3, db=tmp_path / "t.sqlite",
                        progress=False, confirm=False)
    assert any("candidates on cuda" in r for r in out["remarks"]), out["remarks"]
    p = hkg.compile_mlir(out["module"], TARGET)
    x = torch.randn(512, 1000, device="cuda", dtype=torch.bfloat16)
    assert rel_err(p(x), torch.softmax(x.double(), -1)) < 1e-2


def test_bound_program_replays_into_its_outputs():
    p = hkg.compile_mlir(BLOCK, TARGET)
    x, w, m = block_inputs()
    want_sm, want_mm = p(x, w, m)
    bound = p.bind(x, w, m)
    sm, mm = bound.outputs
    sm.fill_(float("nan"))
    mm.fill_(float("nan"))
    bound.launch()
    torch.cuda.synchronize()
    assert torch.equal(sm, want_sm) and torch.equal(mm, want_mm)
    x.mul_(2)  # the same buffers, new values: the replay sees them
    bound.launch()
    assert torch.equal(mm, p(x, w, m)[1])

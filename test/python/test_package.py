"""The hkg package's core: the binding, compiling MLIR in process, the disk
cache (hits across processes), Program's checks of a caller's tensors, and
the float64 host reference of a whole launch plan. No GPU is needed."""

import json
import os
import subprocess
import sys

import pytest

import hkg

SOFTMAX = """
func.func @f(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %0 = hkg.softmax %x axis(1) : tensor<64x256xf32> -> tensor<64x256xf32>
  return %0 : tensor<64x256xf32>
}
"""

# rmsnorm -> matmul -> reshape: three steps of a plan, a view, an arena.
BLOCK = """
func.func @block(%x: tensor<64x256xf32>, %w: tensor<256xf32>, %m: tensor<256x512xf32>) -> tensor<64x8x64xf32> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<256xf32>) eps(1.0e-05) : tensor<64x256xf32> -> tensor<64x256xf32>
  %1 = hkg.matmul %0, %m : tensor<64x256xf32>, tensor<256x512xf32> -> tensor<64x512xf32>
  %2 = tensor.expand_shape %1 [[0], [1, 2]] output_shape [64, 8, 64] : tensor<64x512xf32> into tensor<64x8x64xf32>
  %3 = hkg.softmax %2 axis(2) : tensor<64x8x64xf32> -> tensor<64x8x64xf32>
  return %3 : tensor<64x8x64xf32>
}
"""


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("HKG_CACHE_DIR", str(d))
    return d


def test_version_is_the_native_librarys():
    assert hkg.__version__ == hkg._native.version()
    assert hkg.__version__.count(".") == 2


@pytest.mark.parametrize("chip", ["sm_90", "gfx942"])
def test_compile_writes_a_bundle_with_a_plan(chip):
    p = hkg.compile_mlir(SOFTMAX, chip)
    assert p.target == chip
    assert p.kernel_names == ["hkg_softmax_0"]
    with open(os.path.join(p.bundle_dir, "manifest.json")) as f:
        manifest = json.load(f)
    fmt = manifest["format"]
    assert fmt == ("hsaco" if chip.startswith("gfx") else "cubin") or fmt == "ptx"
    binary = os.path.join(p.bundle_dir, manifest["kernels"][0]["binary"])
    assert os.path.getsize(binary) > 0


def test_compile_error_carries_the_diagnostic():
    with pytest.raises(hkg.CompileError, match=r"<hkg input>:3:8: error: .*'axis' in \[0, 1\], got 5"):
        hkg.compile_mlir(SOFTMAX.replace("axis(1)", "axis(5)"), "sm_90")


def test_unknown_chip_is_an_error():
    with pytest.raises(hkg.CompileError, match="unknown chip 'sm_12'"):
        hkg.compile_mlir(SOFTMAX, "sm_12")


def test_transform_runs_a_pipeline():
    out = hkg.transform(SOFTMAX, "builtin.module(hkg-default-schedule{chip=sm_90})")
    assert "#hkg.schedule<" in out
    with pytest.raises(hkg.CompileError, match="invalid pass pipeline"):
        hkg.transform(SOFTMAX, "builtin.module(no-such-pass)")


def test_second_process_compiles_nothing(cache_dir):
    script = (
        "import sys, hkg\n"
        "p = hkg.compile_mlir(sys.stdin.read(), 'sm_90')\n"
        "s = hkg.cache.stats()\n"
        "print(s['hits'], s['misses'], p.bundle_dir)\n")
    env = dict(os.environ, HKG_CACHE_DIR=str(cache_dir),
               PYTHONPATH=os.pathsep.join(sys.path))
    runs = [subprocess.run([sys.executable, "-c", script], input=BLOCK,
                           capture_output=True, text=True, env=env, timeout=120)
            for _ in range(2)]
    for r in runs:
        assert r.returncode == 0, r.stderr
    first, second = (r.stdout.split() for r in runs)
    assert first[:2] == ["0", "1"]       # compiled
    assert second[:2] == ["1", "0"]      # found on disk
    assert first[2] == second[2]
    assert first[2].startswith(str(cache_dir))


def test_cache_key_follows_source_options_and_library(monkeypatch):
    k = hkg.cache.cache_key(SOFTMAX, {"chip": "sm_90"})
    assert k == hkg.cache.cache_key(SOFTMAX, {"chip": "sm_90"})
    assert k != hkg.cache.cache_key(SOFTMAX, {"chip": "gfx942"})
    assert k != hkg.cache.cache_key(SOFTMAX + " ", {"chip": "sm_90"})
    monkeypatch.setattr(hkg._native, "library_identity", lambda: "rebuilt")
    assert k != hkg.cache.cache_key(SOFTMAX, {"chip": "sm_90"})


def test_cache_off_compiles_every_time(monkeypatch):
    monkeypatch.setenv("HKG_CACHE_DIR", "off")
    before = hkg.cache.stats()["misses"]
    hkg.cache.compile_cached(SOFTMAX, {"chip": "sm_90"})
    hkg.cache.compile_cached(SOFTMAX, {"chip": "sm_90"})
    assert hkg.cache.stats()["misses"] == before + 2


torch = pytest.importorskip("torch")


def test_program_refuses_cpu_tensors_bad_dtypes_and_shapes():
    p = hkg.compile_mlir(SOFTMAX, "sm_90")
    x = torch.randn(64, 256)
    with pytest.raises(hkg.DeviceError, match=r"input 0 is on 'cpu'.*\.cuda\(\)"):
        p(x)
    with pytest.raises(ValueError):  # DeviceError is a ValueError
        p(x)
    with pytest.raises(hkg.ShapeError, match="takes 1 tensor"):
        p(x, x)
    with pytest.raises(TypeError, match="input 0 is a list"):
        p([1.0])


def test_program_checks_dtype_and_shape_before_the_device(monkeypatch):
    # A tensor that claims to be on a GPU, to reach the dtype and shape
    # checks on a machine without one.
    p = hkg.compile_mlir(SOFTMAX, "sm_90")

    class FakeCuda(torch.Tensor):
        @property
        def device(self):
            return torch.device("cuda", 0)

    x16 = torch.randn(64, 256).half().as_subclass(FakeCuda)
    with pytest.raises(hkg.DTypeError, match="input 0 is torch.float16, expected torch.float32"):
        p(x16)
    xs = torch.randn(64, 255).as_subclass(FakeCuda)
    with pytest.raises(hkg.ShapeError, match=r"shape \[64, 255\], expected \[64, 256\]"):
        p(xs)


def test_reference_of_a_whole_plan_matches_eager():
    p = hkg.compile_mlir(BLOCK, "sm_90")
    assert len(p.kernel_names) == 3
    x, w, m = torch.randn(64, 256), torch.rand(256) + 0.5, torch.randn(256, 512) / 16
    got = p.reference(x, w, m)
    xd = x.double()
    h = xd * torch.rsqrt(xd.pow(2).mean(-1, keepdim=True) + 1e-5) * w.double()
    h = h.float().double()  # the plan keeps h as f32
    want = torch.softmax((h @ m.double()).float().double().view(64, 8, 64), -1)
    assert got.shape == (64, 8, 64) and got.dtype == torch.float64
    torch.testing.assert_close(got, want, rtol=1e-6, atol=1e-9)
    # A wrong program is caught: the reference is not the identity.
    assert not torch.allclose(got, torch.softmax(xd.view(64, 8, 32), -1).repeat(1, 1, 2))


def test_reference_checks_shapes_and_gives_integers_as_integers():
    p = hkg.compile_mlir(BLOCK, "sm_90")
    x, w, m = torch.randn(64, 256), torch.rand(256), torch.randn(256, 512)
    with pytest.raises(hkg.ShapeError, match=r"input 2 has shape \[512, 256\]"):
        p.reference(x, w, m.t())
    argmax = hkg.compile_mlir("""
func.func @f(%x: tensor<8x300xf32>) -> tensor<8xi64> {
  %0 = hkg.reduce argmax %x axes = [1] : tensor<8x300xf32> -> tensor<8xi64>
  return %0 : tensor<8xi64>
}""", "sm_90")
    x = torch.randn(8, 300)
    got = argmax.reference(x)
    assert got.dtype == torch.int64
    assert torch.equal(got, x.argmax(-1))


def test_reference_refuses_data_of_the_wrong_length():
    from hkg import _native
    src = """func.func @ref(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = hkg.softmax %x axis(1) : tensor<1024x1024xf32> -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}"""
    with pytest.raises(_native.NativeError, match="16 bytes of data for 1048576 elements"):
        _native._hkg.reference_evaluate(src, [("f32", [1024, 1024], b"\0" * 16)])


def test_a_damaged_cache_entry_is_replaced(cache_dir):
    hkg.compiler._programs.clear()  # programs compiled under other caches
    p = hkg.compile_mlir(SOFTMAX, "gfx942")
    assert p.bundle_dir.startswith(str(cache_dir))
    bundle = p.bundle_dir
    os.remove(os.path.join(bundle, "manifest.json"))
    hkg.compiler._programs.clear()
    again = hkg.compile_mlir(SOFTMAX, "gfx942")
    assert again.bundle_dir == bundle
    assert os.path.exists(os.path.join(bundle, "manifest.json"))


def test_cache_key_follows_the_toolkit(monkeypatch):
    k = hkg.cache.cache_key(SOFTMAX, {"chip": "sm_90"})
    real = hkg._native.find_toolkit
    monkeypatch.setattr(hkg._native, "find_toolkit",
                        lambda chip, override="": {"kind": "cuda", "ptxas": "/opt/other/ptxas"})
    assert hkg.cache.cache_key(SOFTMAX, {"chip": "sm_90"}) != k
    monkeypatch.setattr(hkg._native, "find_toolkit", real)
    assert hkg.cache.cache_key(SOFTMAX, {"chip": "sm_90"}) == k


def test_find_toolkit_is_the_compilers():
    amd = hkg._native.find_toolkit("gfx942")
    assert amd["kind"] == "rocm" and os.path.exists(amd["ld_lld"])
    assert hkg._native.find_toolkit("sm_99x") is None

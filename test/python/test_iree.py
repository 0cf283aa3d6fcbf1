"""hkg kernels inside IREE programs, compiled by the real iree-compile
(docs/IREE.md): hkg-compile --emit=iree writes the program, iree-compile from
the frontend venv (iree-base-compiler, utils/frontend/requirements.txt) turns
it into a .vmfb for CUDA (sm_90) and for HIP (gfx942), and the .vmfb holds
hkg's binaries byte for byte. An op hkg does not compute is left to IREE's
own codegen and the module still compiles. Skipped, saying why, where the
venv has no IREE or hkg-compile is not built."""

import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VENV = os.path.join(ROOT, os.environ.get("HKG_VENV", ".venv"))
IREE_COMPILE = os.path.join(VENV, "bin", "iree-compile")
IREE_DUMP = os.path.join(VENV, "bin", "iree-dump-module")
HKG_COMPILE = os.path.join(ROOT, os.environ.get("HKG_BUILD_DIR", "build"), "bin",
                           "hkg-compile")
TORCH_INPUTS = os.path.join(ROOT, "test", "Inputs", "torch")

pytestmark = [
    pytest.mark.skipif(
        not os.path.exists(IREE_COMPILE),
        reason=f"no iree-compile in the frontend venv ({IREE_COMPILE}): "
               "utils/frontend/setup_venv.sh installs iree-base-compiler"),
    pytest.mark.skipif(not os.path.exists(HKG_COMPILE),
                       reason=f"hkg-compile is not built ({HKG_COMPILE})"),
]

# iree-compile's flags per hkg chip. IREE 3.13's own codegen knows no sm_90
# (its CUDA targets stop at sm_89 and restart at sm_120): a program of hkg
# dispatches only compiles for sm_90, one that IREE generates kernels for
# needs --iree-cuda-target=sm_80 (its PTX runs on sm_90 too).
TARGETS = {
    "sm_90": ["--iree-hal-target-device=cuda", "--iree-cuda-target=sm_90"],
    "gfx942": ["--iree-hal-target-device=hip", "--iree-rocm-target=gfx942"],
}

# hkg's softmax and RMSNorm, and an integer sum hkg does not compute
# (hkg-raise-linalg leaves it, saying why).
MIXED = """
func.func @mixed(%x: tensor<64x1024xf32>, %w: tensor<1024xf32>, %n: tensor<8x16xi32>)
    -> (tensor<64x1024xf32>, tensor<8xi32>) {
  %s = hkg.softmax %x axis(1) : tensor<64x1024xf32> -> tensor<64x1024xf32>
  %r = hkg.rmsnorm %s weight(%w : tensor<1024xf32>) eps(1.0e-06)
      : tensor<64x1024xf32> -> tensor<64x1024xf32>
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<8xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<8xi32>) -> tensor<8xi32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                          affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%n : tensor<8x16xi32>) outs(%f : tensor<8xi32>) {
  ^bb0(%in: i32, %acc: i32):
    %a = arith.addi %in, %acc : i32
    linalg.yield %a : i32
  } -> tensor<8xi32>
  return %r, %sum : tensor<64x1024xf32>, tensor<8xi32>
}
"""


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, " ".join(cmd) + "\n" + proc.stdout + proc.stderr
    return proc.stdout


def compile_to_vmfb(src, chip, tmp, iree_flags):
    """hkg-compile --emit=iree, then iree-compile; returns (kernel binaries,
    vmfb bytes, the executables' binaries IREE dumped by file name,
    iree-dump-module)."""
    bundle = tmp / "bundle"
    run([HKG_COMPILE, str(src), f"--chip={chip}", "--emit=iree", "-o", str(bundle)])
    dump = tmp / "executables"
    vmfb = tmp / "module.vmfb"
    run([IREE_COMPILE, str(bundle / "iree_input.mlir"), *iree_flags,
         f"--iree-hal-executable-object-search-path={bundle}",
         f"--iree-hal-dump-executable-binaries-to={dump}", "-o", str(vmfb)])
    ext = ".hsaco" if chip.startswith("gfx") else ".ptx"
    kernels = {f[:-len(ext)]: (bundle / f).read_bytes()
               for f in os.listdir(bundle) if f.endswith(ext)}
    dumped = {f: (dump / f).read_bytes() for f in os.listdir(dump)}
    return kernels, vmfb.read_bytes(), dumped, run([IREE_DUMP, str(vmfb)])


@pytest.mark.parametrize("chip", sorted(TARGETS))
@pytest.mark.parametrize("name,function,count",
                         [("mlp", "mlp", 2), ("decoder_layer", "decoder_layer", 10)])
def test_torch_module_runs_hkg_dispatches(tmp_path, chip, name, function, count):
    kernels, vmfb, dumped, dump = compile_to_vmfb(
        os.path.join(TORCH_INPUTS, name + ".mlir"), chip, tmp_path, TARGETS[chip])
    assert len(kernels) == count
    # Every hkg kernel is in the module as hkg wrote it ...
    for kernel, binary in kernels.items():
        assert binary in vmfb, f"{kernel} is not embedded in the .vmfb"
    # ... and is all the module runs: IREE generated no kernel of its own.
    assert all("_hkg_" in f for f in dumped), dumped
    assert len(dumped) == count, dumped
    assert f"sync func @{function}(" in dump


@pytest.mark.parametrize("chip,iree_flags", [
    ("gfx942", TARGETS["gfx942"]),
    ("sm_90", ["--iree-hal-target-device=cuda", "--iree-cuda-target=sm_80"]),
])
def test_op_hkg_does_not_compute_is_left_to_iree(tmp_path, chip, iree_flags):
    src = tmp_path / "mixed.mlir"
    src.write_text(MIXED)
    kernels, vmfb, dumped, dump = compile_to_vmfb(src, chip, tmp_path, iree_flags)
    assert sorted(kernels) == ["hkg_rmsnorm_0", "hkg_softmax_0"]
    for kernel, binary in kernels.items():
        assert binary in vmfb, f"{kernel} is not embedded in the .vmfb"
    # IREE compiled the integer sum itself: one executable of its own (a
    # name without _hkg_) holding the dispatch it generated for it.
    own = [b for f, b in dumped.items() if "_hkg_" not in f]
    assert len(own) == 1, sorted(dumped)
    assert b"mixed_dispatch_0_reduction_8x16_i32" in own[0]
    assert "sync func @mixed(" in dump


def test_run_vmfb_compares_modules_on_cpu(tmp_path):
    # utils/iree/run_vmfb.py with IREE's runtime (local-task): two builds of
    # one function agree; a different function is a mismatch (exit 1).
    venv_python = os.path.join(VENV, "bin", "python")
    if subprocess.run([venv_python, "-c", "import iree.runtime"],
                      capture_output=True).returncode:
        pytest.skip("no iree.runtime in the frontend venv (iree-base-runtime, ml_dtypes)")
    vmfbs = []
    for name, body in [("add", "arith.addf %x, %x"), ("add2", "arith.addf %x, %x"),
                       ("mul", "arith.mulf %x, %x")]:
        src = tmp_path / f"{name}.mlir"
        src.write_text("func.func @f(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {\n"
                       f"  %y = {body} : tensor<4x8xbf16>\n"
                       "  return %y : tensor<4x8xbf16>\n}\n")
        vmfbs.append(str(tmp_path / f"{name}.vmfb"))
        run([IREE_COMPILE, str(src), "--iree-hal-target-device=local",
             "--iree-hal-local-target-device-backends=llvm-cpu",
             "--iree-llvmcpu-target-cpu=generic", "-o", vmfbs[-1]])
    script = os.path.join(ROOT, "utils", "iree", "run_vmfb.py")
    out = run([venv_python, script, "--function=f", "--reps=2", *vmfbs[:2]])
    assert "max |diff| 0 " in out, out
    proc = subprocess.run([venv_python, script, "--function=f", "--reps=2",
                           vmfbs[0], vmfbs[2]], capture_output=True, text=True)
    assert proc.returncode == 1 and "MISMATCH" in proc.stdout, proc.stdout + proc.stderr


# utils/iree/build_vmfbs.sh and bench_iree.py (the comparison the GPU machine
# runs, docs/IREE.md "Running on the GPU machine") on the CPU: the small MLP
# built for llvm-cpu and run with IREE's local-task driver next to eager and
# Inductor, plus a planted wrong build (GELU's erf replaced by tanh: the same
# signature, an error of ~3% of the output's largest magnitude) that the
# check must catch.
def _venv_has_iree_runtime():
    return subprocess.run([os.path.join(VENV, "bin", "python"), "-c", "import iree.runtime"],
                          capture_output=True).returncode == 0


def test_bench_iree_cpu_catches_a_wrong_build(tmp_path):
    import json
    if not _venv_has_iree_runtime():
        pytest.skip("no iree.runtime in the frontend venv (iree-base-runtime, ml_dtypes)")
    venv_python = os.path.join(VENV, "bin", "python")
    build = tmp_path / "build"
    env = dict(os.environ, TARGET="cpu", PROGRAMS="mlp", VENV=VENV)
    proc = subprocess.run(["bash", os.path.join(ROOT, "utils", "iree", "build_vmfbs.sh"),
                           str(build)], env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    config = json.loads((build / "config.json").read_text())
    assert config["device"] == "local-task" and config["size"] == "small"
    mlp = build / "mlp"
    assert (mlp / "iree.vmfb").exists() and not (mlp / "hkg.vmfb").exists()
    assert len(list((mlp / "dispatch" / "iree").glob("*.vmfb"))) == 2
    text = (mlp / "mlp.mlir").read_text()
    assert "math.erf" in text
    (tmp_path / "wrong.mlir").write_text(text.replace("math.erf", "math.tanh"))
    run([IREE_COMPILE, str(tmp_path / "wrong.mlir"), *config["iree_flags"],
         "-o", str(mlp / "wrong.vmfb")])
    # A build that fails when run: reported by its run on zeros in a process
    # of its own (iree-run-module), never called in the driver's process.
    (tmp_path / "fails.mlir").write_text(
        "func.func @mlp(%x: tensor<64x256xbf16>) -> tensor<64x256xbf16> {\n"
        "  %c = arith.constant 13 : i32\n"
        "  util.status.check_ok %c, \"planted failure\"\n"
        "  return %x : tensor<64x256xbf16>\n}\n")
    run([IREE_COMPILE, str(tmp_path / "fails.mlir"), *config["iree_flags"],
         "-o", str(mlp / "fails.vmfb")])

    script = os.path.join(ROOT, "utils", "iree", "bench_iree.py")
    out = tmp_path / "out"
    proc = subprocess.run([venv_python, script, str(build), "--out", str(out), "--reps", "3",
                           "--inductor", "default"], capture_output=True, text=True, timeout=600)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 1, log
    result = json.loads((out / "iree.json").read_text())["programs"]["mlp"]
    builds = result["builds"]
    assert builds["iree"]["check"]["ok"], log
    assert not builds["wrong"]["check"]["ok"], log
    assert builds["wrong"]["check"]["err"] > builds["wrong"]["check"]["tol"]
    assert builds["inductor"]["check"]["ok"], log
    assert "iree-run-module" in builds["fails"]["error"], builds["fails"]
    assert "planted failure" in builds["fails"]["error"], builds["fails"]
    assert "time" not in builds["fails"]
    for b in ("iree", "wrong", "eager", "inductor"):
        assert builds[b]["time"]["median_ms"] > 0
    assert result["control"]["caught"], log
    # The dispatch-level table: both ops placed, IREE's dispatches timed alone.
    table = result["dispatch_table"]
    assert [r["op"] for r in table] == ["fc1 + GELU", "fc2 + bias"], table
    assert all(r["iree_alone_us"] > 0 for r in table), table
    md = (out / "iree.md").read_text()
    assert "| mlp | wrong |" in md and "| NO |" in md and "caught" in md, md

    # Without the planted builds the run passes.
    (mlp / "wrong.vmfb").unlink()
    (mlp / "fails.vmfb").unlink()
    proc = subprocess.run([venv_python, script, str(build), "--out", str(out), "--reps", "2",
                           "--inductor", "none", "--no-dispatch"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert subprocess.run([venv_python, script, str(build), "--show-ops"],
                          capture_output=True).returncode == 0


def test_bench_iree_dispatch_table_from_device_activity():
    # The CUDA-only part of bench_iree.py (the GPU is not here): CUPTI's
    # device activity per call -> per-kernel means -> the dispatch-level
    # table, on the full decoder layer's dispatch names (build_vmfbs.sh).
    if not _venv_has_iree_runtime():
        pytest.skip("no iree.runtime in the frontend venv (iree-base-runtime, ml_dtypes)")
    pytest.importorskip("torch")
    pytest.importorskip("iree.runtime")
    import sys
    sys.path.insert(0, os.path.join(ROOT, "utils", "iree"))
    import bench_iree as bi
    d = "decoder_layer_dispatch_"
    iree_seq = [d + "0_reduction_2048x4096_f32", d + "1_matmul_2048x6144x4096_bf16xbf16xf32",
                d + "2_slow_memcpy", d + "3_slow_memcpy", d + "4_slow_memcpy",
                d + "5_elementwise_broadcast_8x4x2048x128_bf16xf32",
                d + "6_elementwise_broadcast_8x4x2048x128_bf16xbf16xbf16xf32",
                d + "7_batch_matmul_32x2048x2048x128_f32", d + "8_reduction_65536x2048_f32xi1",
                d + "9_softmax_32x2048x2048xf32_generic", d + "10_batch_matmul_32x2048x128x2048_f32",
                d + "11_matmul_2048x4096x4096_bf16xbf16xf32", d + "0_reduction_2048x4096_f32",
                d + "13_matmul_2048x14336x4096_bf16xbf16xf32",
                d + "14_matmul_2048x14336x4096_bf16xbf16xf32",
                d + "15_matmul_2048x4096x14336_bf16xbf16xf32"]
    hkg_seq = ["hkg_rmsnorm_0", "hkg_matmul_0", "hkg_rope_0", "hkg_rope_1", "hkg_attention_0",
               "hkg_matmul_1", "hkg_rmsnorm_1", "hkg_matmul_2", "hkg_matmul_3", "hkg_matmul_4"]
    # Two calls' activity: every kernel 10 us (d0 twice a call), and a copy.
    events = [(n, 10.0) for n in iree_seq] * 2 + [("Memcpy DtoD (Device -> Device)", 3.0)] * 2
    table, us = bi.per_call(events, 2)
    assert us == 10.0 * len(iree_seq) + 3.0
    assert table[iree_seq[0]] == {"launches": 2, "us": 10.0}
    hkg_table, _ = bi.per_call([(n, 5.0) for n in hkg_seq], 1)
    rows = bi.dispatch_table("decoder_layer", {"hkg": hkg_seq, "iree": iree_seq},
                             {"hkg": hkg_table, "iree": table}, {})
    by_op = {r["op"]: r for r in rows}
    assert "unplaced" not in by_op and len(rows) == 7, rows
    att = by_op["RoPE of q, k + causal GQA attention"]
    assert att["hkg"] == ["hkg_rope_0", "hkg_rope_1", "hkg_attention_0"]
    assert len(att["iree"]) == 9 and att["iree_inprog_us"] == 90.0 and att["hkg_inprog_us"] == 15.0
    assert by_op["post-attention RMSNorm"]["iree"] == [iree_seq[0]]
    assert by_op["gate, up projections + SwiGLU"]["iree"] == iree_seq[13:15]
    assert sum(r["iree_inprog_us"] for r in rows) == 10.0 * len(iree_seq)
    # An extra dispatch is reported, not hidden.
    rows = bi.dispatch_table("decoder_layer", {"hkg": hkg_seq + ["hkg_softmax_0"],
                                               "iree": iree_seq}, {}, {})
    assert rows[-1]["op"] == "unplaced" and rows[-1]["hkg"] == ["hkg_softmax_0"]

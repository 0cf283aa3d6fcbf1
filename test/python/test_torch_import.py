"""The committed Torch-MLIR imports (test/Inputs/torch/) are what
utils/frontend/torch_import.py writes today: re-runs the importer with the
frontend's virtual environment (.venv/, made by utils/setup.sh) and compares
each file byte for byte. Skipped, saying why, where the venv is absent
(HKG_SKIP_VENV=1)."""

import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VENV = os.path.join(ROOT, os.environ.get("HKG_VENV", ".venv"))
VENV_PYTHON = os.path.join(VENV, "bin", "python")
SCRIPT = os.path.join(ROOT, "utils", "frontend", "torch_import.py")
INPUTS = os.path.join(ROOT, "test", "Inputs", "torch")
NAMES = sorted(f[:-len(".mlir")] for f in os.listdir(INPUTS) if f.endswith(".mlir"))

needs_venv = pytest.mark.skipif(
    not os.path.exists(VENV_PYTHON),
    reason=f"no frontend venv at {VENV} (utils/setup.sh makes it unless HKG_SKIP_VENV=1)")


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    out = tmp_path_factory.mktemp("torch")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([VENV_PYTHON, SCRIPT, "--out-dir", str(out)],
                          capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


@needs_venv
def test_every_module_is_committed(imported):
    assert sorted(f[:-len(".mlir")] for f in os.listdir(imported)) == NAMES


@needs_venv
@pytest.mark.parametrize("name", NAMES)
def test_committed_input_is_current(imported, name):
    with open(os.path.join(INPUTS, name + ".mlir")) as f:
        committed = f.read()
    with open(os.path.join(imported, name + ".mlir")) as f:
        fresh = f.read()
    assert fresh == committed, (
        f"test/Inputs/torch/{name}.mlir is stale: regenerate it with "
        f".venv/bin/python utils/frontend/torch_import.py {name}")


@needs_venv
def test_no_weights_as_constants(imported):
    # Weights are function arguments; only splat constants remain.
    for name in NAMES:
        text = open(os.path.join(imported, name + ".mlir")).read()
        assert "dense_resource" not in text and 'dense<"' not in text and "dense<[" not in text, name

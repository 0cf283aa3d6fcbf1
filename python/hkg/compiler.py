"""Compiling MLIR text into a `Program`, through the disk cache."""

import os

from . import _native, cache
from .runtime import Program

_programs = {}


def default_format(chip):
    """hsaco on AMD; on NVIDIA cubin when the compiler finds ptxas (no JIT
    at load), else PTX (the driver compiles it when it is loaded);
    `HKG_FORMAT` overrides."""
    if not chip.startswith("sm_"):
        return "hsaco"
    if os.environ.get("HKG_FORMAT"):
        return os.environ["HKG_FORMAT"]
    toolkit = _native.find_toolkit(chip)
    return "cubin" if toolkit and toolkit.get("ptxas") else "ptx"


def compile_mlir(source, target, *, function=None, format=None, options=None,
                 tune=False):
    """Compiles a module of hkg ops (or linalg on tensors) for the chip
    `target` and returns the `Program` of its function `function` (the only
    one by default). Compiled bundles are cached on disk (hkg.cache) and in
    memory. `tune`: False (default schedules), True or a dict of
    hkg.tuning.tune_mlir's options (measure on the device first, with a
    progress bar). Raises CompileError with the compiler's diagnostics."""
    if tune:
        from .tuning import tune_mlir
        source = tune_mlir(source, target,
                           **(tune if isinstance(tune, dict) else {}))["module"]
    opts = dict(options or {})
    opts["chip"] = target
    opts["format"] = format or opts.get("format") or default_format(target)
    key = (source, tuple(sorted(opts.items())), function)
    program = _programs.get(key)
    if program is None:
        bundle = cache.compile_cached(source, opts)
        program = _programs[key] = Program(bundle, function)
    return program


def transform(source, pipeline=""):
    """Runs a pass pipeline (hkg-opt's --pass-pipeline syntax) on MLIR text
    and returns the result; with no pipeline, parses and verifies."""
    return _native.transform(source, pipeline)

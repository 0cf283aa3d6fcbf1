"""hkg: tuned GPU kernels for AI ops, from PyTorch.

    import hkg
    y = hkg.ops.softmax(x, dim=-1)                 # one hkg kernel
    f = hkg.compile(model, (x,))                   # a whole program
    m = torch.compile(model, backend="hkg")        # torch.compile

docs/Python.md is the guide."""

# torch, where installed, is imported before the native library: on the GPU
# machine (Ubuntu, Python 3.12, torch 2.11) loading libhkg.so first made
# torch's import crash in a std::call_once (a null init routine called from
# libc, under torch::get_symint_class), while the other order works.
try:
    import torch as _torch
except ImportError:
    _torch = None

from . import _native
from .errors import (CompileError, DeviceError, DTypeError, HkgError,
                     ShapeError, UnsupportedError)
from .compiler import compile_mlir, transform
from .runtime import Program
from . import cache
from . import math, ops
from .ops import elementwise, reduce
from .tuning import plot_tuning, tune, tune_mlir, tuning_history

__version__ = _native.version()

__all__ = [
    "__version__", "CompileError", "DeviceError", "DTypeError", "HkgError",
    "ShapeError", "UnsupportedError", "Program", "compile_mlir", "transform",
    "cache", "elementwise", "math", "ops", "reduce", "tune", "tune_mlir",
    "tuning_history", "plot_tuning",
]

# The torch.compile backend, hkg.compile and hkg.explain need torch. torch
# finds backend="hkg" through the distribution's entry point when it is
# first asked for; only without one (the package used from a bare source
# tree) is it registered here, which imports torch._dynamo (~0.8 s).
if _torch is not None:
    from .backend import backend, compile, explain
    __all__ += ["backend", "compile", "explain"]

    def _has_entry_point():
        from importlib.metadata import entry_points
        return "hkg" in entry_points(group="torch_dynamo_backends").names

    if not _has_entry_point():
        from .backend import register as _register_backend
        try:
            _register_backend()
        except Exception as _e:  # noqa: BLE001 (hkg still works without it)
            import warnings
            warnings.warn(f"hkg: torch.compile backend 'hkg' not registered: {_e}")

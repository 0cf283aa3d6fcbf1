"""hkg: tuned GPU kernels for AI ops, from PyTorch.

    import hkg
    y = hkg.ops.softmax(x, dim=-1)                 # one hkg kernel
    f = hkg.compile(model, (x,))                   # a whole program
    m = torch.compile(model, backend="hkg")        # torch.compile

docs/Python.md is the guide."""

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

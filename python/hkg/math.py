"""Functions of traced scalars, for the bodies hkg traces from Python
(`hkg.elementwise(fn)`, `hkg.ops.matmul(epilogue=)`,
`hkg.ops.reduce(prologue=, epilogue=)`): each records arith / math ops in
the body, as torch's function of the same name computes it.

    hkg.elementwise(lambda x, b: hkg.math.gelu(x + b))
    hkg.elementwise(lambda x: hkg.math.where(hkg.math.index(1) <= hkg.math.index(0), x, 0.0))

Operators (+ - * / // % ** comparisons, abs(), & | ^ << >> on integers)
work on the traced scalars directly; a Python `if`, `and`, `or`, `min()` or
`max()` on one is an UnsupportedError (use where / maximum / minimum)."""

from .trace import (Scalar, cast, ceil, cos, erf, exp, floor, gelu, index,
                    log, maximum, minimum, relu, rsqrt, sigmoid, silu, sin,
                    sqrt, tanh, where)

__all__ = [
    "Scalar", "cast", "ceil", "cos", "erf", "exp", "floor", "gelu", "index",
    "log", "maximum", "minimum", "relu", "rsqrt", "sigmoid", "silu", "sin",
    "sqrt", "tanh", "where",
]

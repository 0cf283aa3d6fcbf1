"""Functions of traced scalars, for the bodies hkg traces from Python
(`hkg.elementwise(fn)`, `hkg.ops.matmul(epilogue=)`,
`hkg.ops.reduce(prologue=, epilogue=)`): each records arith / math ops in
the body, as torch's function of the same name computes it.

    hkg.elementwise(lambda x, b: hkg.math.gelu(x + b))
    hkg.elementwise(lambda x: hkg.math.where(hkg.math.index(1) <= hkg.math.index(0), x, 0.0))

Operators (+ - * / // % ** comparisons, abs(), & | ^ ~ << >> on integers)
work on the traced scalars directly, with torch's rules: on bools + is or
and * is and (- and unary - are refused, as torch refuses them), and a
number meeting a bool promotes it (to int64, or f32 for a float); a number
compared with a bf16 or f16 value is rounded to that type first. A Python
`if`, `and`, `or`, `min()` or `max()` on a traced value is an
UnsupportedError (use where / maximum / minimum)."""

from .trace import (Scalar, cast, ceil, cos, erf, exp, floor, gelu, index,
                    log, maximum, minimum, relu, rsqrt, sigmoid, silu, sin,
                    sqrt, tanh, where)

__all__ = [
    "Scalar", "cast", "ceil", "cos", "erf", "exp", "floor", "gelu", "index",
    "log", "maximum", "minimum", "relu", "rsqrt", "sigmoid", "silu", "sin",
    "sqrt", "tanh", "where",
]

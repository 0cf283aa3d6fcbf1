"""The errors hkg raises. Every one is an `HkgError`; the ones about a
caller's tensors are also the built-in error a caller would catch for them
(`ValueError`, `TypeError`)."""


class HkgError(RuntimeError):
    """Base class of hkg's errors."""


class CompileError(HkgError):
    """The compiler refused a program; the message holds its diagnostics
    (`<hkg input>:LINE:COL: error: ...`)."""


class DeviceError(HkgError, ValueError):
    """A tensor on a device hkg cannot launch on (a CPU tensor, or tensors on
    different GPUs), or no GPU runtime at all."""


class DTypeError(HkgError, TypeError):
    """A tensor of an element type the op or program does not take."""


class ShapeError(HkgError, ValueError):
    """A tensor of a shape the op or program does not take."""


class UnsupportedError(HkgError):
    """No hkg op computes what was asked (the message says what and why)."""

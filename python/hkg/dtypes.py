"""Element types: MLIR's names (as the manifest writes them) and torch's."""

from .errors import DTypeError

# MLIR name -> torch attribute name.
_MLIR_TO_TORCH = {
    "f64": "float64", "f32": "float32", "f16": "float16", "bf16": "bfloat16",
    "i64": "int64", "i32": "int32", "i8": "int8", "i1": "bool",
}
_TORCH_TO_MLIR = {v: k for k, v in _MLIR_TO_TORCH.items()}

FLOAT_TYPES = ("f64", "f32", "f16", "bf16")
INT_TYPES = ("i64", "i32", "i8", "i1")


def to_torch(name):
    import torch
    try:
        return getattr(torch, _MLIR_TO_TORCH[name])
    except KeyError:
        raise DTypeError(f"no torch dtype for element type '{name}'") from None


def from_torch(dtype):
    """'bf16' for torch.bfloat16; DTypeError for a dtype no hkg kernel takes."""
    name = str(dtype).replace("torch.", "")
    try:
        return _TORCH_TO_MLIR[name]
    except KeyError:
        raise DTypeError(
            f"hkg kernels do not take {dtype}; expected one of " +
            ", ".join("torch." + t for t in _TORCH_TO_MLIR)) from None


def tensor_type(shape, elem):
    """MLIR's tensor type: tensor<4x?x8xbf16> (None or -1 is a dynamic dim)."""
    dims = ["?" if d is None or d < 0 else str(d) for d in shape]
    return "tensor<" + "".join(d + "x" for d in dims) + elem + ">"

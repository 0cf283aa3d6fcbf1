#!/usr/bin/env python3
"""The programs of the IREE comparison (issue 27, docs/IREE.md), at two sizes.

`full` is the MLP and the decoder layer of utils/frontend/torch_import.py as
they are (its SPECS: the committed test/Inputs/torch imports); `small` is the
same modules with small dimensions, for a CPU run of the whole comparison
with IREE's local-task driver (utils/iree/build_vmfbs.sh TARGET=cpu).
utils/iree/bench_iree.py builds the PyTorch module of a program from here, so
that IREE and PyTorch run the same module on the same values.

    programs.py --size small --out-dir DIR mlp decoder_layer   # DIR/<name>.mlir

Importing needs torch-mlir (the frontend venv); building the modules needs
only torch.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "frontend"))
import torch_import  # noqa: E402
from torch_import import BF16, DecoderLayer, MLP, Spec, _t  # noqa: E402

NAMES = ("mlp", "decoder_layer")

_SMALL = {
    "mlp": Spec("mlp",
                "2-layer MLP, bf16 (small): x[64x256] -> Linear(256, 512) -> GELU (erf) "
                "-> Linear(512, 256)",
                lambda: (MLP(256, 512, BF16), [("x", _t(64, 256))])),
    "decoder_layer": Spec(
        "decoder_layer",
        "Llama-style decoder layer, bf16 (small): batch 1 x seq 64 x hidden 256, 4 query / "
        "2 KV heads, head dim 64, fused QKV 256 -> 512, RoPE, causal GQA SDPA, RMSNorm "
        "eps 1e-5, SwiGLU intermediate 512",
        lambda: (DecoderLayer(256, 4, 2, 64, 512, 1e-5, BF16),
                 [("x", _t(1, 64, 256)), ("cos", _t(64, 64)), ("sin", _t(64, 64))])),
}


def spec(name, size):
    """torch_import.Spec of program `name` at `size` ("full" or "small")."""
    if name not in NAMES:
        raise ValueError(f"unknown program {name!r}; expected one of {', '.join(NAMES)}")
    if size == "full":
        return next(s for s in torch_import.SPECS if s.name == name)
    if size == "small":
        return _SMALL[name]
    raise ValueError(f"unknown size {size!r}; expected full or small")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*", default=list(NAMES))
    ap.add_argument("--size", choices=["full", "small"], default="full")
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args(argv)
    os.makedirs(args.out_dir, exist_ok=True)
    for name in args.names:
        text = torch_import.import_spec(spec(name, args.size))
        path = os.path.join(args.out_dir, name + ".mlir")
        with open(path, "w") as f:
            f.write(text)
        print(f"wrote {path} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

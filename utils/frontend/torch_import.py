#!/usr/bin/env python3
"""Imports PyTorch modules to linalg on tensors with the real Torch-MLIR importer.

Runs `torch_mlir.fx.export_and_import(..., output_type="linalg-on-tensors")`
on small nn.Modules (the models of issue 25) and writes each one's linalg to
test/Inputs/torch/<name>.mlir, the committed inputs of hkg's linalg frontend.
Run it with the frontend's virtual environment (utils/frontend/setup_venv.sh):

  .venv/bin/python utils/frontend/torch_import.py             # all modules
  .venv/bin/python utils/frontend/torch_import.py mlp decoder_layer
  .venv/bin/python utils/frontend/torch_import.py --check     # diff, exit 1
  .venv/bin/python utils/frontend/torch_import.py --list

What the written files are:
- Weights are function arguments, never constants: each module is exported
  through `torch.func.functional_call` with its parameters passed in, so the
  function takes the module's inputs first, then its parameters in
  `named_parameters()` order (the header lists them). Only splat constants
  (`dense<0.0> : tensor<...>`) and scalars remain; the script refuses to write
  a file with a non-splat dense or a `dense_resource` constant.
- Torch-MLIR's MLIR is newer than hkg's LLVM 22. The files are printed in the
  custom form without locations (`enable_debug_info=False`); the lit tests
  test/Frontend/Torch/*.test prove that MLIR 22 parses every one, and
  `--generic` prints the generic op form should a custom syntax diverge.
- Each file starts with a header naming the command that regenerates it, the
  torch and torch-mlir versions, and the sizes; test/python/test_torch_import.py
  re-runs this script and checks the committed files are what it writes.
"""

import argparse
import difflib
import logging
import os
import re
import sys
from dataclasses import dataclass
from typing import Callable, List, Sequence, Tuple

# Without triton (left out of the venv) torch warns once at import.
logging.getLogger("torch.utils.flop_counter").setLevel(logging.ERROR)

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_OUT_DIR = os.path.join("test", "Inputs", "torch")
SCRIPT = "utils/frontend/torch_import.py"

BF16 = torch.bfloat16

# ===----------------------------------------------------------------------===#
# The modules.
# ===----------------------------------------------------------------------===#


class MLP(nn.Module):
    """Linear -> GELU (erf) -> Linear, with biases."""

    def __init__(self, hidden: int, inter: int, dtype: torch.dtype):
        super().__init__()
        self.fc1 = nn.Linear(hidden, inter, dtype=dtype)
        self.fc2 = nn.Linear(inter, hidden, dtype=dtype)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class RMSNorm(nn.Module):
    """Llama's RMSNorm (as in Hugging Face's LlamaRMSNorm): in f32, weight in bf16."""

    def __init__(self, dim: int, eps: float, dtype: torch.dtype):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim, dtype=dtype))
        self.eps = eps

    def forward(self, x):
        dtype = x.dtype
        h = x.to(torch.float32)
        var = h.pow(2).mean(-1, keepdim=True)
        h = h * torch.rsqrt(var + self.eps)
        return self.weight * h.to(dtype)


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class DecoderLayer(nn.Module):
    """A Llama-style decoder layer: pre-norm GQA causal attention and SwiGLU MLP.

    x: [B, S, H]; cos, sin: [S, D] RoPE tables (rotate-half form). One fused
    QKV projection (H -> (Hq + 2 Hkv) D, no bias) split into q, k, v; grouped
    query causal SDPA (enable_gqa); output projection; residuals.
    """

    def __init__(self, hidden, heads, kv_heads, head_dim, inter, eps, dtype):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = heads, kv_heads, head_dim
        self.input_norm = RMSNorm(hidden, eps, dtype)
        self.qkv_proj = nn.Linear(hidden, (heads + 2 * kv_heads) * head_dim, bias=False, dtype=dtype)
        self.o_proj = nn.Linear(heads * head_dim, hidden, bias=False, dtype=dtype)
        self.post_attention_norm = RMSNorm(hidden, eps, dtype)
        self.gate_proj = nn.Linear(hidden, inter, bias=False, dtype=dtype)
        self.up_proj = nn.Linear(hidden, inter, bias=False, dtype=dtype)
        self.down_proj = nn.Linear(inter, hidden, bias=False, dtype=dtype)

    def forward(self, x, cos, sin):
        b, s, _ = x.shape
        d = self.head_dim
        h = self.input_norm(x)
        q, k, v = self.qkv_proj(h).split(
            [self.heads * d, self.kv_heads * d, self.kv_heads * d], dim=-1)
        q = q.view(b, s, self.heads, d).transpose(1, 2)
        k = k.view(b, s, self.kv_heads, d).transpose(1, 2)
        v = v.view(b, s, self.kv_heads, d).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        a = a.transpose(1, 2).reshape(b, s, self.heads * d)
        x = x + self.o_proj(a)
        h = self.post_attention_norm(x)
        return x + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))


class Attention(nn.Module):
    """F.scaled_dot_product_attention on [B, H, S, D] q, k, v; an additive
    mask when given one, else causal; grouped-query heads."""

    def forward(self, q, k, v, mask=None):
        if mask is not None:
            return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, enable_gqa=True)
        return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)


class Rope(nn.Module):
    """Llama's rotation of token-major x [B, S, H, D], transposed first."""

    def forward(self, x, cos, sin):
        x = x.transpose(1, 2)
        return x * cos + rotate_half(x) * sin


class LogSoftmax(nn.Module):
    def forward(self, x):
        return F.log_softmax(x, dim=-1)


class CrossEntropy(nn.Module):
    def forward(self, logits, targets):
        return F.cross_entropy(logits, targets)


class SumMiddle(nn.Module):
    def forward(self, x):
        return x.sum(dim=1)


class AmaxMiddle(nn.Module):
    def forward(self, x):
        return x.amax(dim=1)


class LayerNorm3d(nn.Module):
    """nn.LayerNorm over the last three dims, with weight and bias."""

    def __init__(self, shape: Sequence[int], dtype: torch.dtype):
        super().__init__()
        self.norm = nn.LayerNorm(list(shape), dtype=dtype)

    def forward(self, x):
        return self.norm(x)


# ===----------------------------------------------------------------------===#
# The inputs: name -> how to build the module and its example inputs.
# ===----------------------------------------------------------------------===#


@dataclass
class Spec:
    name: str
    summary: str
    build: Callable[[], Tuple[nn.Module, List[Tuple[str, torch.Tensor]]]]


def _t(*shape, dtype=BF16):
    # Contents do not matter: torch.export traces with fake tensors.
    return torch.empty(*shape, dtype=dtype)


SPECS = [
    Spec("mlp",
         "2-layer MLP, bf16: x[2048x4096] -> Linear(4096, 11008) -> GELU (erf) -> Linear(11008, 4096)",
         lambda: (MLP(4096, 11008, BF16), [("x", _t(2048, 4096))])),
    Spec("decoder_layer",
         "Llama-style decoder layer, bf16: batch 1 x seq 2048 x hidden 4096, 32 query / 8 KV heads, "
         "head dim 128, fused QKV 4096 -> 6144, RoPE (rotate-half, cos/sin inputs), causal GQA SDPA, "
         "RMSNorm eps 1e-5, SwiGLU intermediate 14336",
         lambda: (DecoderLayer(4096, 32, 8, 128, 14336, 1e-5, BF16),
                  [("x", _t(1, 2048, 4096)), ("cos", _t(2048, 128)), ("sin", _t(2048, 128))])),
    Spec("attention_gqa",
         "causal grouped-query SDPA, bf16: q[1x4x64x32], k, v[1x2x64x32]",
         lambda: (Attention(), [("q", _t(1, 4, 64, 32)), ("k", _t(1, 2, 64, 32)),
                                ("v", _t(1, 2, 64, 32))])),
    Spec("attention_masked",
         "SDPA with an additive mask, bf16: q, k, v[1x2x64x32], mask[64x64]",
         lambda: (Attention(), [("q", _t(1, 2, 64, 32)), ("k", _t(1, 2, 64, 32)),
                                ("v", _t(1, 2, 64, 32)), ("mask", _t(64, 64))])),
    Spec("rope",
         "Llama RoPE (rotate-half) after a [B, S, H, D] -> [B, H, S, D] transpose, bf16: "
         "x[1x64x4x32], cos, sin[64x32]",
         lambda: (Rope(), [("x", _t(1, 64, 4, 32)), ("cos", _t(64, 32)), ("sin", _t(64, 32))])),
    Spec("log_softmax",
         "log_softmax over the last dim, bf16: logits[8192x32000]",
         lambda: (LogSoftmax(), [("x", _t(8192, 32000))])),
    Spec("cross_entropy",
         "F.cross_entropy (mean reduction, ignore_index -100), bf16 logits[8192x32000], int64 targets[8192]",
         lambda: (CrossEntropy(), [("logits", _t(8192, 32000)),
                                   ("targets", torch.zeros(8192, dtype=torch.int64))])),
    Spec("sum_middle",
         "sum over the middle axis, bf16: x[8x2048x4096] -> [8x4096]",
         lambda: (SumMiddle(), [("x", _t(8, 2048, 4096))])),
    Spec("amax_middle",
         "amax over the middle axis, bf16: x[8x2048x4096] -> [8x4096]",
         lambda: (AmaxMiddle(), [("x", _t(8, 2048, 4096))])),
    Spec("layer_norm_3d",
         "nn.LayerNorm([128, 32, 32]) with weight and bias, eps 1e-5, f32: x[16x128x32x32]",
         lambda: (LayerNorm3d([128, 32, 32], torch.float32),
                  [("x", _t(16, 128, 32, 32, dtype=torch.float32))])),
]

# ===----------------------------------------------------------------------===#
# Import.
# ===----------------------------------------------------------------------===#


class LiftedParameters(nn.Module):
    """Calls `inner` with its parameters passed as arguments (after its inputs),
    so that the exported function takes the weights instead of freezing them
    into dense constants."""

    def __init__(self, inner: nn.Module, num_inputs: int):
        super().__init__()
        self.inner = inner
        self.num_inputs = num_inputs
        self.param_names = [n for n, _ in inner.named_parameters()]

    def forward(self, *args):
        inputs, params = args[:self.num_inputs], args[self.num_inputs:]
        return torch.func.functional_call(self.inner, dict(zip(self.param_names, params)), inputs)


def _type_str(t: torch.Tensor) -> str:
    elem = {torch.bfloat16: "bf16", torch.float16: "f16", torch.float32: "f32",
            torch.int64: "i64", torch.int32: "i32"}[t.dtype]
    return "x".join(str(d) for d in t.shape) + "x" + elem


def versions() -> str:
    from importlib import metadata
    return f"torch {metadata.version('torch')}, torch-mlir {metadata.version('torch-mlir')}"


# A dense constant that is not a splat: `dense<[...]>`, `dense<"0x...">`.
_NON_SPLAT = re.compile(r'dense<(\[|")')


def import_spec(spec: Spec, generic: bool = False) -> str:
    """Returns the file text (header + module) for `spec`."""
    from torch_mlir import fx

    module, inputs = spec.build()
    module.eval()
    params = [(n, p.detach()) for n, p in module.named_parameters()]
    args = [t for _, t in inputs] + [p for _, p in params]
    mlir_module = fx.export_and_import(
        LiftedParameters(module, len(inputs)), *args,
        output_type="linalg-on-tensors", func_name=spec.name)
    body = mlir_module.operation.get_asm(enable_debug_info=False, print_generic_op_form=generic)
    if "dense_resource" in body or _NON_SPLAT.search(body):
        raise RuntimeError(f"{spec.name}: the imported module has a non-splat dense constant")

    signature = ", ".join(
        f"%arg{i} {n}: {_type_str(t)}" for i, (n, t) in enumerate(inputs + params))
    header = [
        f"// {spec.name}: {spec.summary}.",
        f"// Generated by {SCRIPT} ({versions()}) with",
        "// torch_mlir.fx.export_and_import(output_type=\"linalg-on-tensors\"); do not edit.",
        f"// Regenerate: .venv/bin/python {SCRIPT} {spec.name}",
        f"// Arguments: {signature}.",
    ]
    return "\n".join(header) + "\n" + body.rstrip() + "\n"


def main(argv=None) -> int:
    names = [s.name for s in SPECS]
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*", help=f"modules to import (default: all of {', '.join(names)})")
    ap.add_argument("--out-dir", default=os.path.join(REPO_ROOT, DEFAULT_OUT_DIR),
                    help="where <name>.mlir is written (default: %(default)s)")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; diff against the files in --out-dir, exit 1 on a difference")
    ap.add_argument("--generic", action="store_true", help="print the generic op form")
    ap.add_argument("--list", action="store_true", help="list the modules and exit")
    args = ap.parse_args(argv)

    if args.list:
        for s in SPECS:
            print(f"{s.name}: {s.summary}")
        return 0
    unknown = [n for n in args.names if n not in names]
    if unknown:
        ap.error(f"unknown module(s) {', '.join(unknown)}; expected one of: {', '.join(names)}")
    specs = [s for s in SPECS if not args.names or s.name in args.names]

    torch.manual_seed(0)
    status = 0
    os.makedirs(args.out_dir, exist_ok=True)
    for spec in specs:
        text = import_spec(spec, generic=args.generic)
        path = os.path.join(args.out_dir, spec.name + ".mlir")
        if args.check:
            old = open(path).read() if os.path.exists(path) else ""
            if old != text:
                status = 1
                sys.stdout.writelines(difflib.unified_diff(
                    old.splitlines(True), text.splitlines(True), path, "imported"))
            continue
        with open(path, "w") as f:
            f.write(text)
        print(f"wrote {os.path.relpath(path)} ({len(text)} bytes)")
    return status


if __name__ == "__main__":
    sys.exit(main())

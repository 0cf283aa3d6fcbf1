//===- HkgBase.td - hkg dialect definition -----------------*- tablegen -*-===//
//
// The hkg dialect: one op per AI kernel, each carrying a tunable schedule.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_BASE_TD
#define HKG_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Hkg_Dialect : Dialect {
  let name = "hkg";
  let cppNamespace = "::mlir::hkg";
  let summary = "Tunable AI kernels for AMD (and NVIDIA) GPUs";
  let description = [{
    The `hkg` dialect describes AI operators (matmul with fused epilogues,
    elementwise chains, reductions, softmax, normalizations, rotary
    embeddings, top-p sampling, attention) at the level of *one GPU kernel
    per op*. Ops take and return builtin ranked tensors of static shape with
    `f32`, `f16` or `bf16` elements.

    Every op implements `HkgKernelOpInterface`: it knows its schedule space
    (the tunable knobs and their legal values for a given target), its
    default schedule, how to verify a schedule, and its cost features
    (flops, bytes moved). Passes and the tuner talk to ops only through that
    interface, so adding an op never edits the tuner.

    A schedule is an `#hkg.schedule<...>` attribute stored in the op's
    `schedule` attribute; a target is an `#hkg.target<chip = "...">`
    attribute, usually placed on the module as `hkg.target`.

    Design guidelines:
    - an op is a kernel boundary: fusion happens by regions (elementwise
      bodies, matmul epilogues), not by chaining ops;
    - GELU, SiLU, bias-add, SwiGLU... are `hkg.elementwise` bodies, not ops;
    - verifiers name the offending operand or attribute and the legal range.
  }];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

class Hkg_Op<string mnemonic, list<Trait> traits = []>
    : Op<Hkg_Dialect, mnemonic, traits>;

class Hkg_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Hkg_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

/// Element types hkg kernels compute on.
def Hkg_FloatElement : AnyTypeOf<[F32, F16, BF16]>;
def Hkg_FloatTensor : RankedTensorOf<[F32, F16, BF16]>;

#endif // HKG_BASE_TD

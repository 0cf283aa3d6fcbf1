//===- HkgAttrs.td - hkg attributes and enums --------------*- tablegen -*-===//

#ifndef HKG_ATTRS_TD
#define HKG_ATTRS_TD

include "hkg/Dialect/Hkg/IR/HkgBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Hkg_ReduceKind : I32EnumAttr<"ReduceKind", "reduction combiner", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"Prod", 3, "prod">,
    I32EnumAttrCase<"Argmax", 4, "argmax">,
    I32EnumAttrCase<"Argmin", 5, "argmin">,
    I32EnumAttrCase<"LogSumExp", 6, "logsumexp">,
    I32EnumAttrCase<"Maximum", 7, "maximum">,
    I32EnumAttrCase<"Minimum", 8, "minimum">]> {
  let cppNamespace = "::mlir::hkg";
}

def Hkg_ReduceKindArray
    : TypedArrayAttrBase<Hkg_ReduceKind, "reduction kinds"> {
  let constBuilderCall = ?;
}

def Hkg_RopeLayout : I32EnumAttr<"RopeLayout", "rotary embedding layout", [
    I32EnumAttrCase<"Neox", 0, "neox">,
    I32EnumAttrCase<"Gptj", 1, "gptj">]> {
  let cppNamespace = "::mlir::hkg";
}

def Hkg_AttentionLayout
    : I32EnumAttr<"AttentionLayout", "memory layout of attention operands", [
        I32EnumAttrCase<"Bhsd", 0, "bhsd">,
        I32EnumAttrCase<"Bshd", 1, "bshd">]> {
  let cppNamespace = "::mlir::hkg";
}

//===----------------------------------------------------------------------===//
// #hkg.schedule
//===----------------------------------------------------------------------===//

def Hkg_ScheduleAttr : Hkg_Attr<"Schedule", "schedule"> {
  let summary = "tunable knobs of one kernel";
  let description = [{
    A schedule is a set of named knobs, each an integer or a keyword:

    ```mlir
    #hkg.schedule<vector_width = 8, threads = 256, rows_per_block = 1>
    #hkg.schedule<tile_m = 128, tile_n = 128, tile_k = 32, mma = mfma_16x16x16>
    ```

    Which knobs an op accepts, and their legal values for a target, is the
    op's business (`HkgKernelOpInterface::getScheduleSpace`). A knob that is
    left out takes the op's default value. Unknown knobs and illegal values
    are reported by `hkg-verify-schedule`, naming the knob and its legal
    values.
  }];
  let parameters = (ins "::mlir::DictionaryAttr":$knobs);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Returns the integer value of `knob`, or std::nullopt when the knob is
    /// absent or not an integer.
    std::optional<int64_t> getInt(::llvm::StringRef knob) const;
    /// Returns the keyword value of `knob`, or std::nullopt.
    std::optional<::llvm::StringRef> getKeyword(::llvm::StringRef knob) const;
  }];
}

//===----------------------------------------------------------------------===//
// #hkg.target
//===----------------------------------------------------------------------===//

def Hkg_TargetAttr : Hkg_Attr<"Target", "target"> {
  let summary = "the GPU a kernel is compiled for";
  let description = [{
    Names a chip from hkg's target table (see `docs/Targets.md`): AMD
    `gfx90a`, `gfx942`, `gfx950`, `gfx1100`, `gfx1151`, `gfx1201`,
    `gfx1250`, NVIDIA `sm_80`, `sm_90`. The table gives wave size, LDS
    bytes, compute units, register budget, matrix-core intrinsics and peak
    bandwidth/FLOPs.

    ```mlir
    module attributes {hkg.target = #hkg.target<chip = "gfx942">} { ... }
    ```
  }];
  let parameters = (ins StringRefParameter<"chip name">:$chip);
  let assemblyFormat = "`<` `chip` `=` $chip `>`";
  let genVerifyDecl = 1;
}

#endif // HKG_ATTRS_TD

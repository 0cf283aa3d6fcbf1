//===- TopKOp.td - hkg.topk --------------------------------*- tablegen -*-===//
//
// The top-k family's op. Included from HkgOps.td (its one registration line);
// its verifier and cost features live in lib/Dialect/Hkg/IR/Ops/TopKOp.cpp,
// its schedule space in lib/Dialect/Hkg/IR/Schedules/TopKSchedule.cpp, its
// lowering in lib/Conversion/HkgToGPU/TopK.cpp and its float64 reference in
// lib/Runtime/Models/TopKModel.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TOPK_OP_TD
#define HKG_TOPK_OP_TD

def Hkg_TopKOp : Hkg_KernelOp<"topk"> {
  let summary = "the k largest elements along an axis, and their positions";
  let description = [{
    For every slice of `input` along `axis`, the `k` largest elements in
    descending order (`values`) and their positions along `axis`
    (`indices`, i32 or i64). `values` and `indices` have the input's shape
    with `axis` of size `k`; `k` is in `[1, min(1024, axis size)]`. A NaN
    counts as larger than every number (as in `torch.topk`). Equal values may
    come in any order of their positions; `indices` never repeats a position
    and `input[..., indices[j], ...]` is always `values[j]`.

    Used by mixture-of-experts gating (`k` experts per token) and top-k
    sampling (`k` candidate tokens per row of logits).

    ```mlir
    %v, %i = hkg.topk %logits k(50) axis(1)
        : tensor<64x128256xf32> -> tensor<64x50xf32>, tensor<64x50xi32>
    ```
  }];
  let arguments = (ins Hkg_FloatTensor:$input,
                   ConfinedAttr<I64Attr, [IntMinValue<1>, IntMaxValue<1024>]>:$k,
                   ConfinedAttr<I64Attr, [IntMinValue<0>]>:$axis,
                   OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs Hkg_FloatTensor:$values,
                 RankedTensorOf<[I32, I64]>:$indices);
  let assemblyFormat = [{
    $input `k` `(` $k `)` `axis` `(` $axis `)` attr-dict `:` type($input)
    `->` type($values) `,` type($indices)
  }];
}

#endif // HKG_TOPK_OP_TD

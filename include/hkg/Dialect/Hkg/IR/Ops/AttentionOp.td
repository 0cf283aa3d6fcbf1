//===- AttentionOp.td - the attention family ---------------*- tablegen -*-===//
//
// Included from HkgOps.td (its one registration line); the verifiers live in
// lib/Dialect/Hkg/IR/Ops/AttentionOp.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_ATTENTION_OP_TD
#define HKG_ATTENTION_OP_TD

//===----------------------------------------------------------------------===//
// hkg.attention
//===----------------------------------------------------------------------===//

def Hkg_AttentionOp : Hkg_KernelOp<"attention"> {
  let summary = "scaled dot-product attention with grouped-query heads";
  let description = [{
    `softmax(q k^T * scale [+ causal mask]) v` per batch and head.
    `query` is `[B, Hq, Sq, D]`, `key` `[B, Hkv, Skv, D]`, `value`
    `[B, Hkv, Skv, Dv]`, the result `[B, Hq, Sq, Dv]`. `Hq` must be a
    multiple of `Hkv` (grouped-query attention: query head `h` reads key/value
    head `h / (Hq / Hkv)`). With `causal`, query `i` attends to keys
    `j <= i + (Skv - Sq)`. `scale` defaults to `1/sqrt(D)`.

    ```mlir
    %o = hkg.attention %q, %k, %v causal
        : tensor<4x32x4096x128xbf16>, tensor<4x8x4096x128xbf16>,
          tensor<4x8x4096x128xbf16> -> tensor<4x32x4096x128xbf16>
    ```
  }];
  let arguments = (ins Hkg_FloatTensor:$query, Hkg_FloatTensor:$key,
                   Hkg_FloatTensor:$value, UnitAttr:$causal,
                   OptionalAttr<F32Attr>:$scale,
                   OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs Hkg_FloatTensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`causal` $causal^)?
    (`scale` `(` $scale^ `)`)? attr-dict `:` type($query) `,` type($key) `,`
    type($value) `->` type($result)
  }];
  let extraClassDeclaration = [{
    /// The scale applied to q k^T: `scale` if set, else 1/sqrt(D).
    float getEffectiveScale();
  }];
}

#endif // HKG_ATTENTION_OP_TD

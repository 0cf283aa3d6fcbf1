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
    `softmax(q k^T * scale [+ mask] [causal]) v` per batch and head.
    `query` is `[B, Hq, Sq, D]`, `key` `[B, Hkv, Skv, D]`, `value`
    `[B, Hkv, Skv, Dv]`, the result `[B, Hq, Sq, Dv]`. `Hq` must be a
    multiple of `Hkv` (grouped-query attention: query head `h` reads key/value
    head `h / (Hq / Hkv)`). With `causal`, query `i` attends to keys
    `j <= i + (Skv - Sq)`. `scale` defaults to `1/sqrt(D)`.

    `mask`, when given, is added to the scaled scores before the softmax (the
    float `attn_mask` of PyTorch's `scaled_dot_product_attention`): a rank-4
    float tensor `[B, Hq, Sq, Skv]` in that order whatever the layout, any
    dim of which may be 1 to broadcast it (`[1, 1, Sq, Skv]` one mask for
    every batch and head, `[B, 1, 1, Skv]` key padding). `-inf` entries hide
    keys; a query row that sees no key (all its entries `-inf`, or none
    visible with `causal`) is 0. With `causal` both apply.

    `layout` says how every operand and the result are stored: `bhsd` (the
    default, also when absent) as above, `bshd` with the sequence dim before
    the heads: `query` `[B, Sq, Hq, D]`, `key` `[B, Skv, Hkv, D]`, `value`
    `[B, Skv, Hkv, Dv]`, the result `[B, Sq, Hq, Dv]` (the token-major layout
    of FlashAttention and of the q/k/v projections' output), with the same
    semantics.

    ```mlir
    %o = hkg.attention %q, %k, %v causal
        : tensor<4x32x4096x128xbf16>, tensor<4x8x4096x128xbf16>,
          tensor<4x8x4096x128xbf16> -> tensor<4x32x4096x128xbf16>
    %p = hkg.attention %q2, %k2, %v2 causal layout(bshd)
        : tensor<1x2048x32x128xbf16>, tensor<1x2048x8x128xbf16>,
          tensor<1x2048x8x128xbf16> -> tensor<1x2048x32x128xbf16>
    // Key padding: one additive row per batch.
    %r = hkg.attention %q, %k, %v mask(%m : tensor<4x1x1x4096xbf16>)
        : tensor<4x32x4096x128xbf16>, tensor<4x8x4096x128xbf16>,
          tensor<4x8x4096x128xbf16> -> tensor<4x32x4096x128xbf16>
    ```
  }];
  let arguments = (ins Hkg_FloatTensor:$query, Hkg_FloatTensor:$key,
                   Hkg_FloatTensor:$value,
                   Optional<Hkg_FloatTensor>:$mask, UnitAttr:$causal,
                   OptionalAttr<F32Attr>:$scale,
                   OptionalAttr<Hkg_AttentionLayout>:$layout,
                   OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs Hkg_FloatTensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`causal` $causal^)?
    (`scale` `(` $scale^ `)`)? (`layout` `(` $layout^ `)`)? attr-dict `:`
    type($query) `,` type($key) `,` type($value) `->` type($result)
  }];
  let extraClassDeclaration = [{
    /// The dims of an attention, whatever the layout stores them in.
    struct Shape {
      int64_t batch;    // B
      int64_t qHeads;   // Hq
      int64_t kvHeads;  // Hkv
      int64_t qLen;     // Sq
      int64_t kvLen;    // Skv
      int64_t headDim;  // D
      int64_t valueDim; // Dv
    };

    /// The scale applied to q k^T: `scale` if set, else 1/sqrt(D).
    float getEffectiveScale();
    /// `layout` if set, else bhsd.
    AttentionLayout getLayoutOrDefault();
    /// The positions of the head and sequence dims in every operand and the
    /// result: 1 and 2 for bhsd, 2 and 1 for bshd.
    static unsigned getHeadsPosition(AttentionLayout layout);
    static unsigned getSeqPosition(AttentionLayout layout);
    /// The dims read from the operand types according to the layout. Only
    /// meaningful on a verified op.
    Shape getShape();
  }];
}

#endif // HKG_ATTENTION_OP_TD

//===- RopeOp.td - the rope family -------------------------*- tablegen -*-===//
//
// Included from HkgOps.td (its one registration line); the verifiers live in
// lib/Dialect/Hkg/IR/Ops/RopeOp.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_ROPE_OP_TD
#define HKG_ROPE_OP_TD

//===----------------------------------------------------------------------===//
// hkg.rope
//===----------------------------------------------------------------------===//

def Hkg_RopeOp : Hkg_KernelOp<"rope"> {
  let summary = "rotary position embedding";
  let description = [{
    Rotates pairs of features of `input` (`[B, S, H, D]`, D even) by the
    angles whose cosines and sines are tabulated in `cos` and `sin`
    (`[P, D/2]` or `[P, D]`, P >= S + offset): token `s` uses table row
    `s + offset`.

    - `neox`: pairs are `(x[i], x[i + D/2])` (GPT-NeoX, Llama);
    - `gptj`: pairs are `(x[2i], x[2i + 1])` (GPT-J).

    Half-width tables (`[P, D/2]`) hold one entry per pair: pair `k` uses
    `cos[k]` and `sin[k]` for both its outputs,
    `out_a = a * cos - b * sin`, `out_b = b * cos + a * sin`. Full-width
    tables (`[P, D]`, as Hugging Face's Llama and its Torch-MLIR imports pass
    them) hold one entry per feature, and each output uses the entry at its
    own index: for `neox`, `out[i] = x[i] * cos[i] - x[i + D/2] * sin[i]` and
    `out[i + D/2] = x[i + D/2] * cos[i + D/2] + x[i] * sin[i + D/2]`
    (i < D/2); for `gptj`, pair `k`'s outputs `2k` and `2k + 1` use entries
    `2k` and `2k + 1`. A full-width table whose two entries of every pair are
    equal gives the half-width result. Computed in f32.

    ```mlir
    %y = hkg.rope %x, %cos, %sin neox offset(0)
        : tensor<8x4096x32x128xbf16>, tensor<4096x64xf32>, tensor<4096x64xf32>
        -> tensor<8x4096x32x128xbf16>
    %z = hkg.rope %x, %cos2, %sin2 neox offset(0)
        : tensor<8x4096x32x128xbf16>, tensor<4096x128xf32>,
          tensor<4096x128xf32> -> tensor<8x4096x32x128xbf16>
    ```
  }];
  let arguments = (ins Hkg_FloatTensor:$input, Hkg_FloatTensor:$cos,
                   Hkg_FloatTensor:$sin, Hkg_RopeLayout:$layout,
                   ConfinedAttr<I64Attr, [IntMinValue<0>]>:$offset,
                   OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs Hkg_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $cos `,` $sin $layout `offset` `(` $offset `)` attr-dict `:`
    type($input) `,` type($cos) `,` type($sin) `->` type($result)
  }];
  let extraClassDeclaration = [{
    /// Whether `cos` and `sin` hold one entry per feature ([P, D]) rather
    /// than one per rotated pair ([P, D/2]).
    bool hasFullWidthTables();
  }];
}

#endif // HKG_ROPE_OP_TD

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
    (`[P, D/2]`, P >= S + offset): token `s` uses table row `s + offset`.

    - `neox`: pairs are `(x[i], x[i + D/2])` (GPT-NeoX, Llama);
    - `gptj`: pairs are `(x[2i], x[2i + 1])` (GPT-J).

    `out_a = a * cos - b * sin`, `out_b = b * cos + a * sin`, in f32.

    ```mlir
    %y = hkg.rope %x, %cos, %sin neox offset(0)
        : tensor<8x4096x32x128xbf16>, tensor<4096x64xf32>, tensor<4096x64xf32>
        -> tensor<8x4096x32x128xbf16>
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
}

#endif // HKG_ROPE_OP_TD

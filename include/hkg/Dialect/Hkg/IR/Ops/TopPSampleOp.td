//===- TopPSampleOp.td - the sampling family ---------------*- tablegen -*-===//
//
// Included from HkgOps.td (its one registration line); the verifiers live in
// lib/Dialect/Hkg/IR/Ops/TopPSampleOp.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TOP_P_SAMPLE_OP_TD
#define HKG_TOP_P_SAMPLE_OP_TD

//===----------------------------------------------------------------------===//
// hkg.top_p_sample
//===----------------------------------------------------------------------===//

def Hkg_TopPSampleOp : Hkg_KernelOp<"top_p_sample"> {
  let summary = "nucleus (top-p) sampling from logits";
  let description = [{
    For each row of `logits` (`[B, V]`), draws one token id from the
    smallest set of most likely tokens whose probability mass reaches `p`,
    after `softmax(logits / temperature)`, renormalised. The random draw
    comes either from `uniform` (`[B]`, f32 in [0, 1)) or from a counter-based
    generator seeded by `seed`; exactly one of the two is given. The result
    is `[B]` of i32. A given seed always gives the same tokens.

    ```mlir
    %tok = hkg.top_p_sample %logits p(0.9) temperature(1.0) seed(42)
        : tensor<64x128256xf32> -> tensor<64xi32>
    ```
  }];
  let arguments = (ins Hkg_FloatTensor:$logits,
                   Optional<Hkg_FloatTensor>:$uniform,
                   F32Attr:$p, F32Attr:$temperature,
                   OptionalAttr<I64Attr>:$seed,
                   OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = [{
    $logits (`uniform` `(` $uniform^ `:` type($uniform) `)`)?
    `p` `(` $p `)` `temperature` `(` $temperature `)`
    (`seed` `(` $seed^ `)`)? attr-dict `:` type($logits) `->` type($result)
  }];
}

#endif // HKG_TOP_P_SAMPLE_OP_TD

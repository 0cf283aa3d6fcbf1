//===- MatmulOp.td - the matmul family ---------------------*- tablegen -*-===//
//
// Included from HkgOps.td (its one registration line); the verifiers live in
// lib/Dialect/Hkg/IR/Ops/MatmulOp.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_MATMUL_OP_TD
#define HKG_MATMUL_OP_TD

//===----------------------------------------------------------------------===//
// hkg.matmul
//===----------------------------------------------------------------------===//

def Hkg_MatmulOp : Hkg_KernelOp<"matmul", [],
    !listconcat(Hkg_DynamicDimMethods, ["getDefaultSchedule"])> {
  let summary = "batched matrix product with an optional fused epilogue";
  let description = [{
    `result[b..., m, n] = epilogue(sum_k lhs[b..., m, k] * rhs[b..., k, n], e...)`.

    `lhs` is `[batch..., M, K]` (`[batch..., K, M]` with `transpose_a`),
    `rhs` is `[batch..., K, N]` (`[batch..., N, K]` with `transpose_b`),
    the result is `[batch..., M, N]`. Batch dims of both operands and the
    result must match. Both operands have one element type: f32, f16,
    bf16, an 8-bit float (f8E4M3FN, f8E5M2; f8E4M3FNUZ, f8E5M2FNUZ) or i8
    (signed). Products accumulate in f32, those of i8 in i32 (exact); an
    i8 matmul may write its i32 sums, or floats converted from them. Without batch dims (or
    with batch dims of 1), M may be dynamic (`?`): one kernel serves every
    M (docs/ABI.md).

    The optional `epilogue` region maps the accumulator (first block
    argument: f32, i32 for i8 operands) and one element of each `epilogue` operand to the output
    element. Which element is said by `indexing_maps`, one affine map per
    epilogue operand from the result's dims `(b..., m, n)`, as in
    `hkg.elementwise` (without them, the shape must imply exactly one map):
    a bias `[N]` per column, a scale per row `[M]` with
    `affine_map<(d0, d1) -> (d0)>` or `[M, 1]`, a residual `[M, N]`, a
    scalar, batched forms over the innermost batch dims. An operand read
    transposed is refused (apply it in an `hkg.elementwise`). Without an
    epilogue the accumulator is converted to the result element type.

    ```mlir
    // QKV projection with bias, fused in one kernel.
    %qkv = hkg.matmul %x, %w epilogue(%bias : tensor<12288xbf16>)
        {transpose_b} : tensor<8192x4096xbf16>, tensor<12288x4096xbf16>
        -> tensor<8192x12288xbf16> {
    ^bb0(%acc: f32, %b: bf16):
      %bf = arith.extf %b : bf16 to f32
      %s = arith.addf %acc, %bf : f32
      %r = arith.truncf %s : f32 to bf16
      hkg.yield %r : bf16
    }
    ```

    FP8 with a per-tensor scale of each operand and a per-row scale of the
    weights (`[N]`, as torch._scaled_mm takes them), written as bf16:

    ```mlir
    %y = hkg.matmul %x, %w epilogue(%sx, %sw : tensor<f32>, tensor<4096xf32>)
        {transpose_b} : tensor<16x4096xf8E4M3FN>, tensor<4096x4096xf8E4M3FN>
        -> tensor<16x4096xbf16> {
    ^bb0(%acc: f32, %a: f32, %w: f32):
      %s = arith.mulf %a, %w : f32
      %v = arith.mulf %acc, %s : f32
      %r = arith.truncf %v : f32 to bf16
      hkg.yield %r : bf16
    }
    ```
  }];
  let arguments = (ins Hkg_MatmulOperandTensor:$lhs,
                   Hkg_MatmulOperandTensor:$rhs,
                   Variadic<Hkg_FloatTensor>:$epilogue_inputs,
                   UnitAttr:$transpose_a, UnitAttr:$transpose_b,
                   OptionalAttr<AffineMapArrayAttr>:$indexing_maps,
                   OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs Hkg_MatmulResultTensor:$result);
  let regions = (region MaxSizedRegion<1>:$epilogue);
  let assemblyFormat = [{
    $lhs `,` $rhs (`epilogue` `(` $epilogue_inputs^ `:` type($epilogue_inputs) `)`)?
    attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
    ($epilogue^)?
  }];
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Type":$resultType, "::mlir::Value":$lhs,
                   "::mlir::Value":$rhs,
                   CArg<"bool", "false">:$transposeA,
                   CArg<"bool", "false">:$transposeB)>
  ];
  let extraClassDeclaration = [{
    /// Problem sizes: product of batch dims, M, N, K. A dynamic M counts
    /// as the op's size hint (DynamicDims.h); isDynamicM() says so.
    int64_t getBatchSize();
    int64_t getM();
    bool isDynamicM();
    int64_t getN();
    int64_t getK();
    bool hasEpilogue() { return !getEpilogue().empty(); }
    /// The type the products accumulate in, the epilogue's first argument:
    /// i32 for i8 operands, f32 otherwise.
    ::mlir::Type getAccumulatorType();
    /// Whether the operands are 8-bit (an fp8 type or i8).
    bool hasEightBitOperands() {
      return getLhs().getType().getElementTypeBitWidth() == 8;
    }
    /// The map of each epilogue operand from the result's dims:
    /// `indexing_maps` where given, else the one the shapes imply.
    ::llvm::SmallVector<::mlir::AffineMap> getEpilogueMaps();
    /// The [batch, rows, cols] view the kernel reads each epilogue operand
    /// in (getEpilogueView; the verifier has checked that it exists).
    ::llvm::SmallVector<std::array<int64_t, 3>> getEpilogueViews();
    /// The layouts the kernel reads the operands in: the transpose flags,
    /// except that a single row or column is read with K contiguous either
    /// way (`[K, 1]` and `[1, K]` are the same bytes), so that a
    /// matrix-vector product loads its vector 16 bytes at a time.
    bool readsLhsTransposed() { return getTransposeA() && getM() != 1; }
    bool readsRhsTransposed() { return getTransposeB() || getN() == 1; }
  }];
}

#endif // HKG_MATMUL_OP_TD

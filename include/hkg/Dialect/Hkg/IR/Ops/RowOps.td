//===- RowOps.td - the row-op family: reductions and norms ---*- tablegen -*-===//
//
// Included from HkgOps.td (its one registration line); the verifiers live in
// lib/Dialect/Hkg/IR/Ops/RowOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_ROW_OPS_TD
#define HKG_ROW_OPS_TD

//===----------------------------------------------------------------------===//
// hkg.reduce
//===----------------------------------------------------------------------===//

def Hkg_ReduceOp : Hkg_KernelOp<"reduce", [Hkg_CacheHints]> {
  let summary = "reduction over adjacent axes";
  let description = [{
    Reduces `input` over `axes` (distinct, in increasing order) with `kind`
    (`sum`, `max`, `min`, `prod`), accumulating in f32. The result shape is
    the input shape without those axes (a rank-0 tensor when all are
    reduced), or, keeping them (`keepdim`), with each reduced axis of
    extent 1: the result type says which.

    Trailing axes reduce each contiguous row; other axes reduce down the
    columns of the dims after them (a sum over the middle axis of
    `[B, S, H]`), each workgroup covering a tile of columns. The reduced
    axes must be adjacent.

    ```mlir
    %s = hkg.reduce sum %x axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
    // Over the middle axis, keeping it:
    %m = hkg.reduce max %y axes = [1] : tensor<8x512x64xbf16> -> tensor<8x1x64xbf16>
    ```
  }];
  let arguments = (ins Hkg_FloatTensor:$input, Hkg_ReduceKind:$kind,
                   DenseI64ArrayAttr:$axes,
                   OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs Hkg_FloatTensor:$result);
  let assemblyFormat = [{
    $kind $input `axes` `=` $axes attr-dict `:` type($input) `->`
    type($result)
  }];
  let extraClassDeclaration = [{
    /// The input as [outer, reduced, inner]: the extents before, of and
    /// after the reduced axes (inner = 1 for trailing axes).
    std::array<int64_t, 3> getReductionGeometry();
  }];
}

//===----------------------------------------------------------------------===//
// hkg.softmax
//===----------------------------------------------------------------------===//

def Hkg_SoftmaxOp : Hkg_KernelOp<"softmax",
    [Hkg_CacheHints, Hkg_EvictLastOnHopper, Hkg_RowCacheForm]> {
  let summary = "numerically stable softmax along one axis";
  let description = [{
    `result = exp(x - max(x)) / sum(exp(x - max(x)))` along `axis`
    (default: the last). Computed in f32.

    ```mlir
    %p = hkg.softmax %x axis(1) : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
    ```
  }];
  let arguments = (ins Hkg_FloatTensor:$input, I64Attr:$axis,
                   OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs Hkg_FloatTensor:$result);
  let assemblyFormat = [{
    $input `axis` `(` $axis `)` attr-dict `:` type($input) `->` type($result)
  }];
  let extraClassDeclaration = [{
    /// The input as [outer, len, inner] around the axis: inner > 1 runs
    /// down columns, inner = 1 along rows.
    std::array<int64_t, 3> getAxisGeometry();
  }];
}

//===----------------------------------------------------------------------===//
// hkg.layernorm
//===----------------------------------------------------------------------===//

def Hkg_LayerNormOp : Hkg_KernelOp<"layernorm", [AttrSizedOperandSegments,
    Hkg_CacheHints, Hkg_EvictLastOnHopper, Hkg_RowCacheForm,
    Hkg_ColumnPrefetch]> {
  let summary = "layer normalization over the last dim";
  let description = [{
    `result = (x - mean(x)) / sqrt(var(x) + eps) * weight + bias` over the
    last dim, with optional `weight` and `bias` of shape `[D]`. Statistics in
    f32.

    ```mlir
    %y = hkg.layernorm %x weight(%w : tensor<4096xbf16>)
        bias(%b : tensor<4096xbf16>) eps(1.0e-05)
        : tensor<8192x4096xbf16> -> tensor<8192x4096xbf16>
    ```
  }];
  let arguments = (ins Hkg_FloatTensor:$input,
                   Optional<Hkg_FloatTensor>:$weight,
                   Optional<Hkg_FloatTensor>:$bias,
                   F32Attr:$eps,
                   OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs Hkg_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`weight` `(` $weight^ `:` type($weight) `)`)?
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    `eps` `(` $eps `)` attr-dict `:` type($input) `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// hkg.rmsnorm
//===----------------------------------------------------------------------===//

def Hkg_RMSNormOp : Hkg_KernelOp<"rmsnorm",
    [Hkg_CacheHints, Hkg_EvictLastOnHopper, Hkg_RowCacheForm,
     Hkg_ColumnPrefetch]> {
  let summary = "RMS normalization over the last dim";
  let description = [{
    `result = x / sqrt(mean(x^2) + eps) * weight`, over the last dim, with
    `weight` of shape `[D]`. Statistics in f32.

    ```mlir
    %y = hkg.rmsnorm %x, %w eps(1.0e-06)
        : tensor<8192x8192xbf16>, tensor<8192xbf16> -> tensor<8192x8192xbf16>
    ```
  }];
  let arguments = (ins Hkg_FloatTensor:$input, Hkg_FloatTensor:$weight,
                   F32Attr:$eps, OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs Hkg_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight `eps` `(` $eps `)` attr-dict `:` type($input) `,`
    type($weight) `->` type($result)
  }];
}

#endif // HKG_ROW_OPS_TD

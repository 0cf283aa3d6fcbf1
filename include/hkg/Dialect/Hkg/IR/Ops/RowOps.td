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
// hkg.layernorm and hkg.rmsnorm
//===----------------------------------------------------------------------===//

/// What both norms declare: the axes they normalize over and the input seen
/// around them (RowOps.cpp).
defvar Hkg_NormExtraDecls = [{
    /// The normalized axes: `axes` where given, else the last dim.
    SmallVector<int64_t> getNormAxes();
    /// The input as [outer, len, inner]: the extents before, of and after
    /// the normalized axes (inner = 1: rows of len; otherwise down columns).
    std::array<int64_t, 3> getNormGeometry();
    /// The normalized dims' shape, which `weight` and `bias` must have.
    SmallVector<int64_t> getNormShape();
}];

def Hkg_LayerNormOp : Hkg_KernelOp<"layernorm", [AttrSizedOperandSegments,
    Hkg_CacheHints, Hkg_EvictLastOnHopper, Hkg_RowCacheForm,
    Hkg_ColumnPrefetch]> {
  let summary = "layer normalization over trailing axes or one inner axis";
  let description = [{
    `result = (x - mean(x)) / sqrt(var(x) + eps) * weight + bias`, the mean
    and the (biased) variance taken over `axes` of the input, with optional
    `weight` and `bias` of the normalized dims' shape (`[S, H]` for axes
    `[1, 2]` of `[B, S, H]`; `[C]` for axis 1 of `[B, C, L]`). Statistics in
    f32.

    `axes` (adjacent, increasing; omitted: the last dim) are either
    trailing (torch's `layer_norm` with `normalized_shape` = those dims:
    each contiguous row of their product is normalized) or a single axis
    with kept dims after it (normalized down the columns, for each index of
    the dims around it; the weight scales each step along the axis).

    ```mlir
    %y = hkg.layernorm %x weight(%w : tensor<4096xbf16>)
        bias(%b : tensor<4096xbf16>) eps(1.0e-05)
        : tensor<8192x4096xbf16> -> tensor<8192x4096xbf16>
    // Over the last two dims, without weight or bias:
    %z = hkg.layernorm %x3 axes = [1, 2] eps(1.0e-05)
        : tensor<8x128x768xf32> -> tensor<8x128x768xf32>
    // Over the channels of [B, C, L], for each (b, l):
    %c = hkg.layernorm %x4 axes = [1] weight(%g : tensor<64xf16>)
        eps(1.0e-05) : tensor<4x64x1000xf16> -> tensor<4x64x1000xf16>
    ```
  }];
  let arguments = (ins Hkg_FloatTensor:$input,
                   Optional<Hkg_FloatTensor>:$weight,
                   Optional<Hkg_FloatTensor>:$bias,
                   OptionalAttr<DenseI64ArrayAttr>:$axes,
                   F32Attr:$eps,
                   OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs Hkg_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`axes` `=` $axes^)? (`weight` `(` $weight^ `:` type($weight) `)`)?
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    `eps` `(` $eps `)` attr-dict `:` type($input) `->` type($result)
  }];
  let extraClassDeclaration = Hkg_NormExtraDecls;
}

def Hkg_RMSNormOp : Hkg_KernelOp<"rmsnorm",
    [Hkg_CacheHints, Hkg_EvictLastOnHopper, Hkg_RowCacheForm,
     Hkg_ColumnPrefetch]> {
  let summary = "RMS normalization over trailing axes or one inner axis";
  let description = [{
    `result = x / sqrt(mean(x^2) + eps) * weight`, the mean taken over
    `axes` of the input, with an optional `weight` of the normalized dims'
    shape. Statistics in f32. `axes` are as for `hkg.layernorm`: trailing
    axes (omitted: the last dim), or a single axis with kept dims after it.

    ```mlir
    %y = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06)
        : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
    // Over the last two dims, the weight of their shape:
    %z = hkg.rmsnorm %x3 axes = [1, 2] weight(%w2 : tensor<16x64xf32>)
        eps(1.0e-06) : tensor<8x16x64xf32> -> tensor<8x16x64xf32>
    // Over axis 1 of [B, C, L], without weight:
    %c = hkg.rmsnorm %x4 axes = [1] eps(1.0e-06)
        : tensor<4x64x1000xbf16> -> tensor<4x64x1000xbf16>
    ```
  }];
  let arguments = (ins Hkg_FloatTensor:$input,
                   Optional<Hkg_FloatTensor>:$weight,
                   OptionalAttr<DenseI64ArrayAttr>:$axes,
                   F32Attr:$eps, OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs Hkg_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`axes` `=` $axes^)? (`weight` `(` $weight^ `:` type($weight) `)`)?
    `eps` `(` $eps `)` attr-dict `:` type($input) `->` type($result)
  }];
  let extraClassDeclaration = Hkg_NormExtraDecls;
}

#endif // HKG_ROW_OPS_TD

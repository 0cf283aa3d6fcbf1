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

def Hkg_ReduceOp : Hkg_KernelOp<"reduce", [Hkg_CacheHints],
    Hkg_DynamicDimMethods> {
  let summary = "reduction over adjacent axes, with optional map and finish bodies";
  let description = [{
    Reduces `input` over `axes` (distinct, adjacent, in increasing order).
    The result shape is the input shape without those axes (a rank-0 tensor
    when all are reduced), or, keeping them (`keepdim`), with each reduced
    axis of extent 1: the result type says which. Along rows (no kept dims
    of extent > 1 after the axes), the dims before the reduced axes may be
    dynamic (`?`, docs/ABI.md), as may the outermost dim of an `ins`
    operand that follows one.

    Kinds, each accumulated in f32:
    - `sum`, `max`, `min`, `prod`: the value (`max` / `min` skip NaNs, as
      `arith.maxnumf` does: a NaN only when all are);
    - `maximum`, `minimum`: the max / min where a NaN anywhere makes the
      result NaN (`arith.maximumf`, `torch.amax`);
    - `logsumexp`: `log(sum(exp(v)))`, computed stably (a running max and
      a rescaled sum);
    - `argmax`, `argmin`: the position of the first largest (smallest)
      value along the reduced axes (flattened, row-major, when several are
      reduced), a NaN counting as larger (smaller) than any number, as in
      PyTorch. Without an epilogue the result is i32 or i64.

    Several kinds (`logsumexp, sum`) reduce several values in one pass.

    The optional `prologue` maps each input element before the reduction:
    its arguments are the input element, then one element of each of the
    extra `ins` operands (each read through an indexing map from the input's
    dims, as in `hkg.elementwise`; `indexing_maps` says which dims, or the
    shapes where that is unambiguous); `hkg.index <dim>` gives the element's
    index in the input. It yields one f32 per kind. Without a prologue,
    every kind reduces the input element as f32 and there are no `ins`.

    The optional `epilogue` turns the reduced values (one argument per kind:
    f32, or i64 for `argmax` / `argmin`) into the result element. Without
    one, there is exactly one kind and its value is the result.

    Mean, variance, L2 norms, logsumexp and cross-entropy are each one
    kernel. Trailing axes reduce each contiguous row; other axes reduce down
    the columns of the dims after them (a sum over the middle axis of
    `[B, S, H]`), each workgroup covering a tile of columns.

    ```mlir
    %s = hkg.reduce sum %x axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
    // Over the middle axis, keeping it:
    %m = hkg.reduce max %y axes = [1] : tensor<8x512x64xbf16> -> tensor<8x1x64xbf16>
    %i = hkg.reduce argmax %l axes = [1] : tensor<64x32000xbf16> -> tensor<64xi64>
    // Cross-entropy: logsumexp(x) - x[target], one kernel.
    %ce = hkg.reduce logsumexp, sum %logits ins(%t : tensor<64xi64>)
        axes = [1] {indexing_maps = [affine_map<(d0, d1) -> (d0)>]}
        : tensor<64x32000xbf16> -> tensor<64xf32>
        prologue {
        ^bb0(%x: bf16, %target: i64):
          %xf = arith.extf %x : bf16 to f32
          %j = hkg.index 1
          %ji = arith.index_cast %j : index to i64
          %hit = arith.cmpi eq, %ji, %target : i64
          %zero = arith.constant 0.0 : f32
          %pick = arith.select %hit, %xf, %zero : f32
          hkg.yield %xf, %pick : f32, f32
        } epilogue {
        ^bb0(%lse: f32, %picked: f32):
          %loss = arith.subf %lse, %picked : f32
          hkg.yield %loss : f32
        }
    ```
  }];
  let arguments = (ins Hkg_FloatTensor:$input,
                   Variadic<Hkg_ElementwiseTensor>:$ins,
                   Hkg_ReduceKindArray:$kinds, DenseI64ArrayAttr:$axes,
                   OptionalAttr<AffineMapArrayAttr>:$indexing_maps,
                   OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs Hkg_ReduceResultTensor:$result);
  let regions = (region MaxSizedRegion<1>:$prologue,
                 MaxSizedRegion<1>:$epilogue);
  let assemblyFormat = [{
    custom<ReduceKinds>($kinds) $input
    (`ins` `(` $ins^ `:` type($ins) `)`)?
    `axes` `=` $axes attr-dict `:` type($input) `->` type($result)
    (`prologue` $prologue^)? (`epilogue` $epilogue^)?
  }];
  let extraClassDeclaration = [{
    /// The input as [outer, reduced, inner]: the extents before, of and
    /// after the reduced axes (inner = 1 for trailing axes).
    std::array<int64_t, 3> getReductionGeometry();
    /// The kinds, in order.
    ::llvm::SmallVector<ReduceKind> getKindList();
    /// The map of each `ins` operand, from the input's dims to the
    /// operand's: `indexing_maps` where given, else the one the shapes
    /// imply (the verifier has checked that it exists and is unique).
    ::llvm::SmallVector<::mlir::AffineMap> getInsMaps();
  }];
}

//===----------------------------------------------------------------------===//
// hkg.softmax
//===----------------------------------------------------------------------===//

def Hkg_SoftmaxOp : Hkg_KernelOp<"softmax",
    [Hkg_CacheHints, Hkg_EvictLastOnHopper, Hkg_RowCacheForm],
    Hkg_DynamicDimMethods> {
  let summary = "numerically stable softmax or log-softmax along one axis";
  let description = [{
    `result = exp(x - max(x)) / sum(exp(x - max(x)))` along `axis`, or with
    `log`, `result = x - max(x) - log(sum(exp(x - max(x))))` (log_softmax,
    one kernel). Computed in f32. Along rows (no kept dims of extent > 1
    after `axis`), the dims before it may be dynamic (`?`, docs/ABI.md).

    ```mlir
    %p = hkg.softmax %x axis(1) : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
    %l = hkg.softmax log %x axis(0) : tensor<512x64xf32> -> tensor<512x64xf32>
    ```
  }];
  let arguments = (ins Hkg_FloatTensor:$input, I64Attr:$axis, UnitAttr:$log,
                   OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs Hkg_FloatTensor:$result);
  let assemblyFormat = [{
    (`log` $log^)? $input `axis` `(` $axis `)` attr-dict `:` type($input)
    `->` type($result)
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
    Hkg_ColumnPrefetch], Hkg_DynamicDimMethods> {
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

    With trailing axes, the dims before them may be dynamic (`?`,
    docs/ABI.md).

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
     Hkg_ColumnPrefetch], Hkg_DynamicDimMethods> {
  let summary = "RMS normalization over trailing axes or one inner axis";
  let description = [{
    `result = x / sqrt(mean(x^2) + eps) * weight`, the mean taken over
    `axes` of the input, with an optional `weight` of the normalized dims'
    shape. Statistics in f32. `axes` are as for `hkg.layernorm`: trailing
    axes (omitted: the last dim), or a single axis with kept dims after it.

    With trailing axes, the dims before them may be dynamic (`?`).

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

//===- HkgOps.td - hkg operations --------------------------*- tablegen -*-===//

#ifndef HKG_OPS_TD
#define HKG_OPS_TD

include "hkg/Dialect/Hkg/IR/HkgBase.td"
include "hkg/Dialect/Hkg/IR/HkgAttrs.td"
include "hkg/Dialect/Hkg/IR/HkgInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// Every kernel op: pure, implements the kernel interface, may carry a
/// schedule.
class Hkg_KernelOp<string mnemonic, list<Trait> traits = []>
    : Hkg_Op<mnemonic, !listconcat(traits, [Pure,
        DeclareOpInterfaceMethods<HkgKernelOpInterface,
          ["verifyScheduleConstraints"]>])> {
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// hkg.yield
//===----------------------------------------------------------------------===//

def Hkg_YieldOp : Hkg_Op<"yield", [Pure, ReturnLike, Terminator,
    ParentOneOf<["ElementwiseOp", "MatmulOp"]>]> {
  let summary = "yields the element computed by a body or epilogue region";
  let description = [{
    Terminates the body of `hkg.elementwise` and the epilogue of
    `hkg.matmul`, yielding one scalar: the output element.

    ```mlir
    hkg.yield %y : bf16
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// hkg.matmul
//===----------------------------------------------------------------------===//

def Hkg_MatmulOp : Hkg_KernelOp<"matmul"> {
  let summary = "batched matrix product with an optional fused epilogue";
  let description = [{
    `result[b..., m, n] = epilogue(sum_k lhs[b..., m, k] * rhs[b..., k, n], e...)`.

    `lhs` is `[batch..., M, K]` (`[batch..., K, M]` with `transpose_a`),
    `rhs` is `[batch..., K, N]` (`[batch..., N, K]` with `transpose_b`),
    the result is `[batch..., M, N]`. Batch dims of both operands and the
    result must match. Products accumulate in f32.

    The optional `epilogue` region maps the f32 accumulator (first block
    argument) and one element of each `epilogue` operand to the output
    element. Each epilogue operand's shape is a suffix of the result shape
    (a bias `[N]` broadcast over rows, a residual `[M, N]`...). Without an
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
  }];
  let arguments = (ins Hkg_FloatTensor:$lhs, Hkg_FloatTensor:$rhs,
                   Variadic<Hkg_FloatTensor>:$epilogue_inputs,
                   UnitAttr:$transpose_a, UnitAttr:$transpose_b,
                   OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs Hkg_FloatTensor:$result);
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
    /// Problem sizes: product of batch dims, M, N, K.
    int64_t getBatchSize();
    int64_t getM();
    int64_t getN();
    int64_t getK();
    bool hasEpilogue() { return !getEpilogue().empty(); }
  }];
}

//===----------------------------------------------------------------------===//
// hkg.elementwise
//===----------------------------------------------------------------------===//

def Hkg_ElementwiseOp : Hkg_KernelOp<"elementwise",
    [Hkg_CacheHints, Hkg_EvictLastOnHopper]> {
  let summary = "n-ary elementwise map with a scalar body";
  let description = [{
    Applies the scalar body to each element. Each input's shape is a suffix
    of the result shape, broadcast over the leading dims (a bias `[N]` over
    an `[M, N]` activation). The body has one argument per input, of that
    input's element type, and yields one value of the result element type.
    GELU, SiLU, bias-add and SwiGLU are instances:

    ```mlir
    // SwiGLU: silu(gate) * up
    %y = hkg.elementwise %gate, %up : tensor<8192x8192xbf16>,
        tensor<8192x8192xbf16> -> tensor<8192x8192xbf16> {
    ^bb0(%g: bf16, %u: bf16):
      %gf = arith.extf %g : bf16 to f32
      %uf = arith.extf %u : bf16 to f32
      %n = arith.negf %gf : f32
      %e = math.exp %n : f32
      %one = arith.constant 1.0 : f32
      %d = arith.addf %one, %e : f32
      %s = arith.divf %gf, %d : f32
      %p = arith.mulf %s, %uf : f32
      %r = arith.truncf %p : f32 to bf16
      hkg.yield %r : bf16
    }
    ```
  }];
  let arguments = (ins Variadic<Hkg_FloatTensor>:$inputs,
                   OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs Hkg_FloatTensor:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs attr-dict `:` type($inputs) `->` type($result) $body
  }];
}

//===----------------------------------------------------------------------===//
// hkg.reduce
//===----------------------------------------------------------------------===//

def Hkg_ReduceOp : Hkg_KernelOp<"reduce", [Hkg_CacheHints]> {
  let summary = "reduction over trailing dims";
  let description = [{
    Reduces the trailing `dims` dims of `input` with `kind` (`sum`, `max`,
    `min`, `prod`), accumulating in f32. The result shape is the input shape
    without those dims (a rank-0 tensor when all dims are reduced).

    ```mlir
    %s = hkg.reduce sum %x dims(1) : tensor<64x4096xf32> -> tensor<64xf32>
    ```
  }];
  let arguments = (ins Hkg_FloatTensor:$input, Hkg_ReduceKind:$kind,
                   ConfinedAttr<I64Attr, [IntMinValue<1>]>:$dims,
                   OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs Hkg_FloatTensor:$result);
  let assemblyFormat = [{
    $kind $input `dims` `(` $dims `)` attr-dict `:` type($input) `->`
    type($result)
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

//===----------------------------------------------------------------------===//
// Op families in their own files: one include each.
//===----------------------------------------------------------------------===//

include "hkg/Dialect/Hkg/IR/Ops/TopKOp.td"

#endif // HKG_OPS_TD

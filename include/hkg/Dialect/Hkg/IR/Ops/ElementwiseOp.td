//===- ElementwiseOp.td - the elementwise family -----------*- tablegen -*-===//
//
// Included from HkgOps.td (its one registration line); the verifiers live in
// lib/Dialect/Hkg/IR/Ops/ElementwiseOp.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_ELEMENTWISE_OP_TD
#define HKG_ELEMENTWISE_OP_TD

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

#endif // HKG_ELEMENTWISE_OP_TD

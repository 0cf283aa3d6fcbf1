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
    [Hkg_CacheHints, Hkg_EvictLastOnHopper], Hkg_DynamicDimMethods> {
  let summary = "n-ary elementwise map with a scalar body";
  let description = [{
    Applies the scalar body to each element of the result. The body has one
    argument per input, of that input's element type, and yields one value of
    the result element type. GELU, SiLU, bias-add, SwiGLU, masks and
    unpacking of packed integers are instances, not new ops.

    Which element of each input the body sees is said by `indexing_maps`,
    one affine map per input from the result's dims `(d0, ..., dn-1)` to the
    input's dims, as in `linalg.generic`: each result of a map is a result
    dim (the input follows that dim; its extent must equal the result's) or
    the constant 0 (a size-1 dim, broadcast). A per-row value of a square
    `[8192, 8192]` result is `affine_map<(d0, d1) -> (d0)>`, a per-column
    one `affine_map<(d0, d1) -> (d1)>`; transposed reads are allowed.

    Without `indexing_maps`, an input follows the result by its shape, and
    only where that is unambiguous: an input of the result's rank lines up
    dim by dim (a size-1 dim broadcasts); an input of lower rank must fit the
    result's dims in exactly one way (a bias `[4096]` over `[8192, 4096]`).
    A `[8192]` input over `[8192, 8192]` fits both dims and is an error that
    asks for a map: hkg never guesses.

    Inside the body, `hkg.index <dim>` gives the result index along `dim`
    (to build masks, or pick the nibble of a packed integer).

    Every result dim but the innermost (the only one of a rank-1 result) may
    be dynamic (`?`): one kernel serves every size (docs/ABI.md). An input
    dim that follows a dynamic result dim is dynamic too, and some input
    must have each one.

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

    // One scale per row of a square matrix: the map says which dim.
    %z = hkg.elementwise %x, %scale {indexing_maps = [
          affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>]}
        : tensor<4096x4096xf32>, tensor<4096xf32> -> tensor<4096x4096xf32> {
    ^bb0(%a: f32, %s: f32):
      %p = arith.mulf %a, %s : f32
      hkg.yield %p : f32
    }
    ```
  }];
  let arguments = (ins Variadic<Hkg_ElementwiseTensor>:$inputs,
                   OptionalAttr<AffineMapArrayAttr>:$indexing_maps,
                   OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs Hkg_ElementwiseTensor:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs attr-dict `:` type($inputs) `->` type($result) $body
  }];
  let extraClassDeclaration = [{
    /// The map of each input, from the result's dims to the input's:
    /// `indexing_maps` where given, else the one the shapes imply (the
    /// verifier has checked that it exists and is unique).
    ::llvm::SmallVector<::mlir::AffineMap> getInputMaps();
  }];
}

//===----------------------------------------------------------------------===//
// hkg.index
//===----------------------------------------------------------------------===//

def Hkg_IndexOp : Hkg_Op<"index", [Pure,
    ParentOneOf<["ElementwiseOp", "ReduceOp"]>]> {
  let summary = "the index of the element being computed, along one dim";
  let description = [{
    Inside an `hkg.elementwise` body: the index of the result element the
    body is computing, along result dim `dim`; inside an `hkg.reduce`
    prologue: the index of the input element being mapped, along input dim
    `dim`. Masks, iota-like values, one-hot picks and position-dependent
    unpacking are written with it.

    ```mlir
    // Causal mask: keep x where col <= row, else -inf.
    %y = hkg.elementwise %x : tensor<2048x2048xf32> -> tensor<2048x2048xf32> {
    ^bb0(%v: f32):
      %r = hkg.index 0
      %c = hkg.index 1
      %keep = arith.cmpi ule, %c, %r : index
      %ninf = arith.constant 0xFF800000 : f32
      %o = arith.select %keep, %v, %ninf : f32
      hkg.yield %o : f32
    }
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict";
  let hasVerifier = 1;
}

#endif // HKG_ELEMENTWISE_OP_TD

//===- MatmulW4A16Op.td - hkg.matmul_w4a16 -----------------*- tablegen -*-===//
//
// The matmul family's weight-only quantized product. Included from
// HkgOps.td (its one registration line); its verifier lives in
// lib/Dialect/Hkg/IR/Ops/MatmulW4A16Op.cpp, its schedule space in
// lib/Dialect/Hkg/IR/Schedules/MatmulW4A16Schedule.cpp, its lowering in
// lib/Conversion/HkgToGPU/MatmulW4A16.cpp and its float64 reference in
// lib/Runtime/Models/MatmulW4A16Model.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_MATMUL_W4A16_OP_TD
#define HKG_MATMUL_W4A16_OP_TD

def Hkg_MatmulW4A16Op : Hkg_KernelOp<"matmul_w4a16"> {
  let summary = "activations times packed int4 weights with group-wise "
                "scales and zero points (W4A16)";
  let description = [{
    `result[m, n] = sum_k input[m, k] * (q[n, k] - zeros[n, k / G]) *
    scales[n, k / G]`, G = `group_size` (32, 64 or 128).

    A linear layer's weight, `[N, K]`, quantized to unsigned 4-bit values
    `q` in 0..15 and stored two per byte along K: `weights` is
    `tensor<N x (K / 2) x i8>`, byte `j` of row `n` holding `q[n, 2j]` in
    its low nibble (bits 0-3) and `q[n, 2j + 1]` in its high nibble (bits
    4-7) (docs/ABI.md, "Packed int4 weights"). Each row has a scale and a
    zero point per group of G consecutive k: `scales` is `[N, K / G]` of
    the activations' type, `zeros` is `[N, K / G]` of i8 holding the
    zero points 0..15 (one per byte, unpacked). `input` (activations,
    `[M, K]`) is f16 or bf16; the result `[M, N]` is f16, bf16 or f32.
    Products accumulate in f32.

    ```mlir
    // A 4096 x 4096 projection at batch 16, groups of 128 along K.
    %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(128)
        : tensor<16x4096xbf16>, tensor<4096x2048xi8>, tensor<4096x32xbf16>,
          tensor<4096x32xi8> -> tensor<16x4096xbf16>
    ```
  }];
  let arguments = (ins RankedTensorOf<[F16, BF16]>:$input,
                   RankedTensorOf<[I8]>:$weights,
                   RankedTensorOf<[F16, BF16]>:$scales,
                   RankedTensorOf<[I8]>:$zeros,
                   I64Attr:$group_size,
                   OptionalAttr<Hkg_ScheduleAttr>:$schedule);
  let results = (outs Hkg_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weights `,` $scales `,` $zeros `group_size` `(` $group_size `)`
    attr-dict `:` type($input) `,` type($weights) `,` type($scales) `,`
    type($zeros) `->` type($result)
  }];
  let extraClassDeclaration = [{
    /// Problem sizes: activation rows, output columns (weight rows), the
    /// reduction length (two per weight byte), groups per weight row.
    int64_t getM() { return getInput().getType().getDimSize(0); }
    int64_t getN() { return getWeights().getType().getDimSize(0); }
    int64_t getK() { return getInput().getType().getDimSize(1); }
    int64_t getNumGroups() { return getK() / getGroupSize(); }
  }];
}

#endif // HKG_MATMUL_W4A16_OP_TD

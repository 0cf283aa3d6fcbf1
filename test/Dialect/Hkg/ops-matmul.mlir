// RUN: hkg-opt %s | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @matmul_plain
// CHECK-SAME: (%[[A:.*]]: tensor<128x64xf16>, %[[B:.*]]: tensor<64x256xf16>)
// CHECK: %[[R:.*]] = hkg.matmul %[[A]], %[[B]] : tensor<128x64xf16>, tensor<64x256xf16> -> tensor<128x256xf16>
// CHECK: return %[[R]]
// GENERIC-LABEL: sym_name = "matmul_plain"
// GENERIC: "hkg.matmul"(%{{.*}}, %{{.*}}) ({
// GENERIC-NEXT: }) : (tensor<128x64xf16>, tensor<64x256xf16>) -> tensor<128x256xf16>
func.func @matmul_plain(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>) -> tensor<128x256xf16> {
  %0 = hkg.matmul %a, %b : tensor<128x64xf16>, tensor<64x256xf16> -> tensor<128x256xf16>
  return %0 : tensor<128x256xf16>
}

// CHECK-LABEL: func.func @matmul_f32_accumulate_bf16_out
// CHECK: hkg.matmul %{{.*}}, %{{.*}} : tensor<32x16xf32>, tensor<16x8xf32> -> tensor<32x8xbf16>
func.func @matmul_f32_accumulate_bf16_out(%a: tensor<32x16xf32>, %b: tensor<16x8xf32>) -> tensor<32x8xbf16> {
  %0 = hkg.matmul %a, %b : tensor<32x16xf32>, tensor<16x8xf32> -> tensor<32x8xbf16>
  return %0 : tensor<32x8xbf16>
}

// CHECK-LABEL: func.func @matmul_transposes
// CHECK: hkg.matmul %{{.*}}, %{{.*}} {transpose_a, transpose_b} : tensor<64x128xbf16>, tensor<256x64xbf16> -> tensor<128x256xbf16>
func.func @matmul_transposes(%a: tensor<64x128xbf16>, %b: tensor<256x64xbf16>) -> tensor<128x256xbf16> {
  %0 = hkg.matmul %a, %b {transpose_a, transpose_b} : tensor<64x128xbf16>, tensor<256x64xbf16> -> tensor<128x256xbf16>
  return %0 : tensor<128x256xbf16>
}

// CHECK-LABEL: func.func @matmul_batched
// CHECK: hkg.matmul %{{.*}}, %{{.*}} : tensor<2x3x16x32xf16>, tensor<2x3x32x8xf16> -> tensor<2x3x16x8xf16>
func.func @matmul_batched(%a: tensor<2x3x16x32xf16>, %b: tensor<2x3x32x8xf16>) -> tensor<2x3x16x8xf16> {
  %0 = hkg.matmul %a, %b : tensor<2x3x16x32xf16>, tensor<2x3x32x8xf16> -> tensor<2x3x16x8xf16>
  return %0 : tensor<2x3x16x8xf16>
}

// A fused QKV projection: bias epilogue, rhs transposed.
// CHECK-LABEL: func.func @matmul_bias_epilogue
// CHECK-SAME: (%[[X:.*]]: tensor<64x128xbf16>, %[[W:.*]]: tensor<384x128xbf16>, %[[BIAS:.*]]: tensor<384xbf16>)
// CHECK: hkg.matmul %[[X]], %[[W]] epilogue(%[[BIAS]] : tensor<384xbf16>) {transpose_b} : tensor<64x128xbf16>, tensor<384x128xbf16> -> tensor<64x384xbf16> {
// CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32, %[[BV:.*]]: bf16):
// CHECK-NEXT:   %[[BF:.*]] = arith.extf %[[BV]] : bf16 to f32
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[ACC]], %[[BF]] : f32
// CHECK-NEXT:   %[[T:.*]] = arith.truncf %[[S]] : f32 to bf16
// CHECK-NEXT:   hkg.yield %[[T]] : bf16
// CHECK-NEXT: }
func.func @matmul_bias_epilogue(%x: tensor<64x128xbf16>, %w: tensor<384x128xbf16>, %bias: tensor<384xbf16>) -> tensor<64x384xbf16> {
  %0 = hkg.matmul %x, %w epilogue(%bias : tensor<384xbf16>) {transpose_b}
      : tensor<64x128xbf16>, tensor<384x128xbf16> -> tensor<64x384xbf16> {
  ^bb0(%acc: f32, %b: bf16):
    %bf = arith.extf %b : bf16 to f32
    %s = arith.addf %acc, %bf : f32
    %r = arith.truncf %s : f32 to bf16
    hkg.yield %r : bf16
  }
  return %0 : tensor<64x384xbf16>
}

// Two epilogue operands (bias and residual) and math in the epilogue.
// CHECK-LABEL: func.func @matmul_residual_gelu_epilogue
// CHECK: hkg.matmul %{{.*}}, %{{.*}} epilogue(%{{.*}}, %{{.*}} : tensor<32xf32>, tensor<16x32xf32>) : tensor<16x8xf32>, tensor<8x32xf32> -> tensor<16x32xf32> {
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK: math.tanh
// CHECK: hkg.yield %{{.*}} : f32
func.func @matmul_residual_gelu_epilogue(%a: tensor<16x8xf32>, %b: tensor<8x32xf32>, %bias: tensor<32xf32>, %res: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = hkg.matmul %a, %b epilogue(%bias, %res : tensor<32xf32>, tensor<16x32xf32>)
      : tensor<16x8xf32>, tensor<8x32xf32> -> tensor<16x32xf32> {
  ^bb0(%acc: f32, %bv: f32, %rv: f32):
    %s = arith.addf %acc, %bv : f32
    %t = math.tanh %s : f32
    %r = arith.addf %t, %rv : f32
    hkg.yield %r : f32
  }
  return %0 : tensor<16x32xf32>
}

// CHECK-LABEL: func.func @matmul_with_schedule
// CHECK: hkg.matmul %{{.*}}, %{{.*}} {schedule = #hkg.schedule<mma = mfma_16x16x16, tile_m = 64, tile_n = 64>}
func.func @matmul_with_schedule(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>) -> tensor<128x256xf16> {
  %0 = hkg.matmul %a, %b {schedule = #hkg.schedule<tile_m = 64, tile_n = 64, mma = mfma_16x16x16>}
      : tensor<128x64xf16>, tensor<64x256xf16> -> tensor<128x256xf16>
  return %0 : tensor<128x256xf16>
}

// A per-row scale and a per-column bias: the maps say which dim each
// epilogue operand follows (a [64] operand of a [64, 64] result needs one).
// CHECK-LABEL: func.func @epilogue_maps
// CHECK: hkg.matmul %{{.*}}, %{{.*}} epilogue(%{{.*}}, %{{.*}} : tensor<64xf32>, tensor<64xbf16>) {indexing_maps = [#{{.*}}, #{{.*}}]}
func.func @epilogue_maps(%x: tensor<64x128xbf16>, %w: tensor<128x64xbf16>, %s: tensor<64xf32>, %b: tensor<64xbf16>) -> tensor<64x64xbf16> {
  %0 = hkg.matmul %x, %w epilogue(%s, %b : tensor<64xf32>, tensor<64xbf16>) {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>]} : tensor<64x128xbf16>, tensor<128x64xbf16> -> tensor<64x64xbf16> {
  ^bb0(%acc: f32, %sc: f32, %bb: bf16):
    %p = arith.mulf %acc, %sc : f32
    %bf = arith.extf %bb : bf16 to f32
    %q = arith.addf %p, %bf : f32
    %r = arith.truncf %q : f32 to bf16
    hkg.yield %r : bf16
  }
  return %0 : tensor<64x64xbf16>
}

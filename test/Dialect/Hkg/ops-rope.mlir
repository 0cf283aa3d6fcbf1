// RUN: hkg-opt %s | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @rope_neox
// CHECK-SAME: (%[[X:.*]]: tensor<8x4096x32x128xbf16>, %[[C:.*]]: tensor<4096x64xf32>, %[[S:.*]]: tensor<4096x64xf32>)
// CHECK: hkg.rope %[[X]], %[[C]], %[[S]] neox offset(0) : tensor<8x4096x32x128xbf16>, tensor<4096x64xf32>, tensor<4096x64xf32> -> tensor<8x4096x32x128xbf16>
// GENERIC-LABEL: sym_name = "rope_neox"
// GENERIC: "hkg.rope"(%{{.*}}, %{{.*}}, %{{.*}}) <{layout = 0 : i32, offset = 0 : i64}>
func.func @rope_neox(%x: tensor<8x4096x32x128xbf16>, %cos: tensor<4096x64xf32>, %sin: tensor<4096x64xf32>) -> tensor<8x4096x32x128xbf16> {
  %0 = hkg.rope %x, %cos, %sin neox offset(0)
      : tensor<8x4096x32x128xbf16>, tensor<4096x64xf32>, tensor<4096x64xf32> -> tensor<8x4096x32x128xbf16>
  return %0 : tensor<8x4096x32x128xbf16>
}

// gptj layout, a table longer than S + offset, and a schedule.
// CHECK-LABEL: func.func @rope_gptj_offset
// CHECK: hkg.rope %{{.*}}, %{{.*}}, %{{.*}} gptj offset(16) {schedule = #hkg.schedule<tokens_per_block = 2, vector_width = 2>} : tensor<1x16x4x64xf16>, tensor<64x32xf16>, tensor<64x32xf16> -> tensor<1x16x4x64xf16>
// GENERIC-LABEL: sym_name = "rope_gptj_offset"
// GENERIC: layout = 1 : i32, offset = 16 : i64
func.func @rope_gptj_offset(%x: tensor<1x16x4x64xf16>, %cos: tensor<64x32xf16>, %sin: tensor<64x32xf16>) -> tensor<1x16x4x64xf16> {
  %0 = hkg.rope %x, %cos, %sin gptj offset(16) {schedule = #hkg.schedule<vector_width = 2, tokens_per_block = 2>}
      : tensor<1x16x4x64xf16>, tensor<64x32xf16>, tensor<64x32xf16> -> tensor<1x16x4x64xf16>
  return %0 : tensor<1x16x4x64xf16>
}

// Full-width tables ([P, D], Hugging Face's layout), for both layouts.
// CHECK-LABEL: func.func @rope_full_width
// CHECK: hkg.rope %{{.*}}, %{{.*}}, %{{.*}} neox offset(0) : tensor<1x2048x32x128xbf16>, tensor<2048x128xbf16>, tensor<2048x128xbf16> -> tensor<1x2048x32x128xbf16>
// CHECK: hkg.rope %{{.*}}, %{{.*}}, %{{.*}} gptj offset(0) : tensor<1x2048x32x128xbf16>, tensor<2048x128xbf16>, tensor<2048x128xbf16> -> tensor<1x2048x32x128xbf16>
// GENERIC-LABEL: sym_name = "rope_full_width"
// GENERIC: "hkg.rope"(%{{.*}}, %{{.*}}, %{{.*}}) <{layout = 0 : i32, offset = 0 : i64}> : (tensor<1x2048x32x128xbf16>, tensor<2048x128xbf16>, tensor<2048x128xbf16>)
func.func @rope_full_width(%x: tensor<1x2048x32x128xbf16>, %cos: tensor<2048x128xbf16>, %sin: tensor<2048x128xbf16>) -> (tensor<1x2048x32x128xbf16>, tensor<1x2048x32x128xbf16>) {
  %0 = hkg.rope %x, %cos, %sin neox offset(0)
      : tensor<1x2048x32x128xbf16>, tensor<2048x128xbf16>, tensor<2048x128xbf16> -> tensor<1x2048x32x128xbf16>
  %1 = hkg.rope %x, %cos, %sin gptj offset(0)
      : tensor<1x2048x32x128xbf16>, tensor<2048x128xbf16>, tensor<2048x128xbf16> -> tensor<1x2048x32x128xbf16>
  return %0, %1 : tensor<1x2048x32x128xbf16>, tensor<1x2048x32x128xbf16>
}

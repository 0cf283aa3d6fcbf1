// RUN: hkg-opt %s | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | hkg-opt | FileCheck %s
// RUN: hkg-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @reduce_kinds
// CHECK-SAME: (%[[X:.*]]: tensor<64x4096xf32>)
// CHECK: hkg.reduce sum %[[X]] axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
// CHECK: hkg.reduce max %[[X]] axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
// CHECK: hkg.reduce min %[[X]] axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
// CHECK: hkg.reduce prod %[[X]] axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
// GENERIC-LABEL: sym_name = "reduce_kinds"
// GENERIC: "hkg.reduce"(%{{.*}}) <{axes = array<i64: 1>, kinds = [0 : i32]}> ({
// GENERIC-NEXT: }, {
// GENERIC-NEXT: }) : (tensor<64x4096xf32>) -> tensor<64xf32>
func.func @reduce_kinds(%x: tensor<64x4096xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %0 = hkg.reduce sum %x axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
  %1 = hkg.reduce max %x axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
  %2 = hkg.reduce min %x axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
  %3 = hkg.reduce prod %x axes = [1] : tensor<64x4096xf32> -> tensor<64xf32>
  return %0, %1, %2, %3 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// Several trailing dims; all dims give a rank-0 result.
// CHECK-LABEL: func.func @reduce_trailing_dims
// CHECK: hkg.reduce sum %{{.*}} axes = [1, 2] : tensor<4x8x16xbf16> -> tensor<4xbf16>
// CHECK: hkg.reduce max %{{.*}} axes = [0, 1, 2] : tensor<4x8x16xbf16> -> tensor<bf16>
func.func @reduce_trailing_dims(%x: tensor<4x8x16xbf16>) -> (tensor<4xbf16>, tensor<bf16>) {
  %0 = hkg.reduce sum %x axes = [1, 2] : tensor<4x8x16xbf16> -> tensor<4xbf16>
  %1 = hkg.reduce max %x axes = [0, 1, 2] : tensor<4x8x16xbf16> -> tensor<bf16>
  return %0, %1 : tensor<4xbf16>, tensor<bf16>
}

// CHECK-LABEL: func.func @reduce_f16_to_f32_with_schedule
// CHECK: hkg.reduce sum %{{.*}} axes = [1] {schedule = #hkg.schedule<rows_per_block = 4, threads = 256>} : tensor<32x512xf16> -> tensor<32xf32>
func.func @reduce_f16_to_f32_with_schedule(%x: tensor<32x512xf16>) -> tensor<32xf32> {
  %0 = hkg.reduce sum %x axes = [1] {schedule = #hkg.schedule<threads = 256, rows_per_block = 4>} : tensor<32x512xf16> -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// Any adjacent axes, keeping them as 1 or not: the result type says which.
// CHECK-LABEL: func.func @reduce_middle_axes
// CHECK: hkg.reduce sum %{{.*}} axes = [1] : tensor<8x512x64xbf16> -> tensor<8x64xbf16>
// CHECK: hkg.reduce max %{{.*}} axes = [1] : tensor<8x512x64xbf16> -> tensor<8x1x64xbf16>
// CHECK: hkg.reduce min %{{.*}} axes = [0, 1] : tensor<8x512x64xbf16> -> tensor<64xf32>
func.func @reduce_middle_axes(%x: tensor<8x512x64xbf16>) -> (tensor<8x64xbf16>, tensor<8x1x64xbf16>, tensor<64xf32>) {
  %0 = hkg.reduce sum %x axes = [1] : tensor<8x512x64xbf16> -> tensor<8x64xbf16>
  %1 = hkg.reduce max %x axes = [1] : tensor<8x512x64xbf16> -> tensor<8x1x64xbf16>
  %2 = hkg.reduce min %x axes = [0, 1] : tensor<8x512x64xbf16> -> tensor<64xf32>
  return %0, %1, %2 : tensor<8x64xbf16>, tensor<8x1x64xbf16>, tensor<64xf32>
}

// argmax / argmin give positions; logsumexp a value.
// CHECK-LABEL: func.func @reduce_positions
// CHECK: hkg.reduce argmax %{{.*}} axes = [1] : tensor<64x32000xbf16> -> tensor<64xi64>
// CHECK: hkg.reduce argmin %{{.*}} axes = [0] : tensor<64x32000xbf16> -> tensor<32000xi32>
// CHECK: hkg.reduce logsumexp %{{.*}} axes = [1] : tensor<64x32000xbf16> -> tensor<64x1xf32>
func.func @reduce_positions(%x: tensor<64x32000xbf16>) -> (tensor<64xi64>, tensor<32000xi32>, tensor<64x1xf32>) {
  %0 = hkg.reduce argmax %x axes = [1] : tensor<64x32000xbf16> -> tensor<64xi64>
  %1 = hkg.reduce argmin %x axes = [0] : tensor<64x32000xbf16> -> tensor<32000xi32>
  %2 = hkg.reduce logsumexp %x axes = [1] : tensor<64x32000xbf16> -> tensor<64x1xf32>
  return %0, %1, %2 : tensor<64xi64>, tensor<32000xi32>, tensor<64x1xf32>
}

// Cross-entropy: two kinds, an operand read per row, a prologue and an
// epilogue.
// CHECK-LABEL: func.func @cross_entropy
// CHECK: hkg.reduce logsumexp, sum %{{.*}} ins(%{{.*}} : tensor<64xi64>) axes = [1] {indexing_maps = [#{{.*}}]} : tensor<64x32000xbf16> -> tensor<64xf32> prologue {
// CHECK: ^bb0(%{{.*}}: bf16, %{{.*}}: i64):
// CHECK:   hkg.index 1
// CHECK:   hkg.yield %{{.*}}, %{{.*}} : f32, f32
// CHECK: } epilogue {
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// GENERIC-LABEL: sym_name = "cross_entropy"
// GENERIC: "hkg.reduce"(%{{.*}}, %{{.*}}) <{axes = array<i64: 1>, indexing_maps = [#{{.*}}], kinds = [6 : i32, 0 : i32]}> ({
func.func @cross_entropy(%x: tensor<64x32000xbf16>, %t: tensor<64xi64>) -> tensor<64xf32> {
  %0 = hkg.reduce logsumexp, sum %x ins(%t : tensor<64xi64>) axes = [1] {indexing_maps = [affine_map<(d0, d1) -> (d0)>]} : tensor<64x32000xbf16> -> tensor<64xf32>
    prologue {
    ^bb0(%v: bf16, %tg: i64):
      %vf = arith.extf %v : bf16 to f32
      %j = hkg.index 1
      %ji = arith.index_cast %j : index to i64
      %hit = arith.cmpi eq, %ji, %tg : i64
      %zero = arith.constant 0.0 : f32
      %pick = arith.select %hit, %vf, %zero : f32
      hkg.yield %vf, %pick : f32, f32
    } epilogue {
    ^bb0(%lse: f32, %p: f32):
      %r = arith.subf %lse, %p : f32
      hkg.yield %r : f32
    }
  return %0 : tensor<64xf32>
}

// The mean in the epilogue, into bf16; no prologue.
// CHECK-LABEL: func.func @mean
// CHECK: hkg.reduce sum %{{.*}} axes = [1, 2] : tensor<4x6x10xf16> -> tensor<4xbf16> epilogue {
func.func @mean(%z: tensor<4x6x10xf16>) -> tensor<4xbf16> {
  %0 = hkg.reduce sum %z axes = [1, 2] : tensor<4x6x10xf16> -> tensor<4xbf16>
    epilogue {
    ^bb0(%s: f32):
      %n = arith.constant 60.0 : f32
      %m = arith.divf %s, %n : f32
      %h = arith.truncf %m : f32 to bf16
      hkg.yield %h : bf16
    }
  return %0 : tensor<4xbf16>
}

// log_softmax is softmax with `log`.
// CHECK-LABEL: func.func @log_softmax
// CHECK: hkg.softmax log %{{.*}} axis(0) : tensor<512x64xf32> -> tensor<512x64xf32>
// GENERIC-LABEL: sym_name = "log_softmax"
// GENERIC: "hkg.softmax"(%{{.*}}) <{axis = 0 : i64, log}>
func.func @log_softmax(%x: tensor<512x64xf32>) -> tensor<512x64xf32> {
  %0 = hkg.softmax log %x axis(0) : tensor<512x64xf32> -> tensor<512x64xf32>
  return %0 : tensor<512x64xf32>
}

// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu | FileCheck %s

// light_tokens = 1: in the histogram pass a token's mass q is compared with
// tau = floor(((1 - p) 2^S - 1) / V) - 1 (V = 128256: S = 44; p = 0.9 as
// the f32 attribute holds it: tau = 13716464); only heavier tokens take the
// LDS atomics, the lighter ones are summed in registers and reduced over the
// workgroup (shuffles) before the cut search.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_top_p_sample_0(
// CHECK:         %[[TAU:.*]] = arith.constant 13716464 : i64
// CHECK:         %[[TAUV:.*]] = vector.broadcast %[[TAU]] : i64 to vector<4xi64>
// CHECK:         %[[HEAVY:.*]] = arith.cmpi ugt, %{{.*}}, %[[TAUV]] : vector<4xi64>
// CHECK:         %[[H0:.*]] = vector.extract %{{.*}}[0] : i1 from vector<4xi1>
// CHECK-NEXT:    scf.if %[[H0]] {
// CHECK:           memref.atomic_rmw addi
// CHECK:         arith.select %{{.*}} : vector<4xi1>, vector<4xi64>
// CHECK:         vector.reduction <add>, %{{.*}} : vector<4xi64> into i64
// CHECK:         gpu.shuffle xor
// CHECK:         gpu.barrier
// CHECK:         gpu.return
func.func @light(%x: tensor<64x128256xf32>) -> tensor<64xi32> {
  %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(1234) {schedule = #hkg.schedule<vector_width = 4, threads = 1024, unroll = 2, bins = 2048, light_tokens = 1>} : tensor<64x128256xf32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}
}

// -----

// light_tokens = 0 (the default): every token's mass goes to the histogram.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_top_p_sample_0(
// CHECK-NOT:     arith.constant 13716464 : i64
// CHECK-NOT:     arith.cmpi ugt, %{{.*}} : vector<4xi64>
// CHECK:         gpu.return
func.func @no_light(%x: tensor<64x128256xf32>) -> tensor<64xi32> {
  %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(1234) {schedule = #hkg.schedule<vector_width = 4, threads = 1024, unroll = 2, bins = 2048, light_tokens = 0>} : tensor<64x128256xf32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}
}

// -----

// p = 1: no histogram, so nothing to skip.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_top_p_sample_0(
// CHECK-NOT:     memref.atomic_rmw
// CHECK:         gpu.return
func.func @p_one(%x: tensor<4x1000xf32>) -> tensor<4xi32> {
  %0 = hkg.top_p_sample %x p(1.0) temperature(1.0) seed(7) {schedule = #hkg.schedule<vector_width = 4, threads = 256, unroll = 2, bins = 2048, light_tokens = 1>} : tensor<4x1000xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
}

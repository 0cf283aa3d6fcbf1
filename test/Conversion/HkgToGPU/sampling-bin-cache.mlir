// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu | FileCheck %s

// bin_cache = 1: the histogram pass (strided) stores each vector's bins as
// i16 in LDS, at the slot of the vector's contiguous owner (thread
// vi / 16: 16032 vectors of 4 per workgroup of the cluster, 16 per thread,
// rows of 16 * 4 + 4 entries: 1024 x 68); the gather pass (contiguous)
// reads them back, and only a vector with a bin at or above the cut's
// (bin <= b*) is loaded from global memory and gathered; the others leave
// the accumulators (mass above, key range) unchanged.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_top_p_sample_0(
// CHECK:         %[[CACHE:.*]] = memref.view %{{.*}} to memref<69632xi16, #gpu.address_space<workgroup>>
// the histogram pass: bins to the cache, then the atomics
// CHECK:         arith.divui %{{.*}}, %c16
// CHECK:         arith.remui %{{.*}}, %c16
// CHECK:         arith.muli %{{.*}}, %c68
// CHECK:         arith.trunci %{{.*}} : vector<4xi32> to vector<4xi16>
// CHECK:         vector.store %{{.*}}, %[[CACHE]][%{{.*}}] {alignment = 8 : i64} : memref<69632xi16, #gpu.address_space<workgroup>>, vector<4xi16>
// CHECK:         memref.atomic_rmw addi
// the gather pass
// CHECK:         %[[BINS:.*]] = vector.load %[[CACHE]][%{{.*}}] {alignment = 8 : i64} : memref<69632xi16, #gpu.address_space<workgroup>>, vector<4xi16>
// CHECK:         %[[WIDE:.*]] = arith.extui %[[BINS]] : vector<4xi16> to vector<4xi32>
// CHECK:         %[[LE:.*]] = arith.cmpi ule, %[[WIDE]], %{{.*}} : vector<4xi32>
// CHECK:         %[[ANY:.*]] = vector.reduction <or>, %[[LE]] : vector<4xi1> into i1
// CHECK:         %[[NEED:.*]] = arith.andi %[[ANY]], %{{.*}} : i1
// CHECK:         %[[RAW:.*]] = scf.if %[[NEED]] -> (vector<4xf32>) {
// CHECK-NEXT:      vector.load %arg0[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x128256xf32>, vector<4xf32>
// CHECK:         } else {
// CHECK-NEXT:      arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK:         scf.if %[[NEED]] -> (i64, i32, i32) {
// CHECK:           arith.mulf %[[RAW]]
// CHECK:         } else {
// CHECK-NEXT:      scf.yield %{{.*}}, %{{.*}}, %{{.*}} : i64, i32, i32
func.func @bin_cache(%x: tensor<64x128256xf32>) -> tensor<64xi32> {
  %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(1) {schedule = #hkg.schedule<vector_width = 4, threads = 1024, unroll = 2, bins = 2048, ctas_per_row = 2, bin_cache = 1>} : tensor<64x128256xf32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}
}

// -----

// Off (the default): no i16 cache, the gather pass loads every vector.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_top_p_sample_0(
// CHECK-NOT:     xi16
// CHECK:         gpu.return
func.func @no_bin_cache(%x: tensor<64x128256xf32>) -> tensor<64xi32> {
  %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(1) {schedule = #hkg.schedule<vector_width = 4, threads = 1024, unroll = 2, bins = 2048, ctas_per_row = 2, bin_cache = 0>} : tensor<64x128256xf32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}
}

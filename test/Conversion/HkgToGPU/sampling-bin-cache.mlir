// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu | FileCheck %s

// bin_cache = 1: the histogram pass (strided) stores each vector's bins as
// i16 in LDS, at the slot of the vector's contiguous owner (thread
// vi / 16: 16032 vectors of 4 per workgroup of the cluster, 16 per thread,
// rows of 16 * 4 + 4 entries: 1024 x 68). For the gather, a strided scan
// of the cache queues (LDS, 4096 entries) every vector with a bin at or
// above the cut's (bin <= b*); if the queue held them all, the threads
// gather the queued vectors (strided over the queue), crediting each
// vector's mass above the cut's bin to its owner with LDS atomics; else
// the contiguous gather over the whole share runs as without the cache.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_top_p_sample_0(
// CHECK:         %[[HIST:.*]] = memref.view %{{.*}} to memref<6144xi32, #gpu.address_space<workgroup>>
// CHECK:         %[[CACHE:.*]] = memref.view %{{.*}} to memref<69632xi16, #gpu.address_space<workgroup>>
// CHECK:         %[[QUEUE:.*]] = memref.view %{{.*}} to memref<4096xi32, #gpu.address_space<workgroup>>
// CHECK:         %[[QN:.*]] = memref.view %{{.*}} to memref<1xi32, #gpu.address_space<workgroup>>
// the histogram pass: bins to the cache, then the atomics
// CHECK:         arith.divui %{{.*}}, %c16
// CHECK:         arith.remui %{{.*}}, %c16
// CHECK:         arith.muli %{{.*}}, %c68
// CHECK:         arith.trunci %{{.*}} : vector<4xi32> to vector<4xi16>
// CHECK:         vector.store %{{.*}}, %[[CACHE]][%{{.*}}] {alignment = 8 : i64} : memref<69632xi16, #gpu.address_space<workgroup>>, vector<4xi16>
// CHECK:         memref.atomic_rmw addi %{{.*}}, %[[HIST]]
// the scan
// CHECK:         memref.store %{{.*}}, %[[QN]][%{{.*}}]
// CHECK:         gpu.barrier
// CHECK:         scf.for %{{.*}} = %thread_id_x to %c16032 step %c1024
// CHECK:           %[[BINS:.*]] = vector.load %[[CACHE]][%{{.*}}] {alignment = 8 : i64} : memref<69632xi16, #gpu.address_space<workgroup>>, vector<4xi16>
// CHECK:           %[[WIDE:.*]] = arith.extui %[[BINS]] : vector<4xi16> to vector<4xi32>
// CHECK:           %[[LE:.*]] = arith.cmpi ule, %[[WIDE]], %{{.*}} : vector<4xi32>
// CHECK:           %[[ANY:.*]] = vector.reduction <or>, %[[LE]] : vector<4xi1> into i1
// CHECK:           scf.if %[[ANY]] {
// CHECK:             %[[AT:.*]] = memref.atomic_rmw addi %{{.*}}, %[[QN]][%{{.*}}]
// CHECK:             arith.cmpi slt, %[[AT]], %c4096_i32
// CHECK:             memref.store %{{.*}}, %[[QUEUE]][%{{.*}}] : memref<4096xi32, #gpu.address_space<workgroup>>
// CHECK:         gpu.barrier
// CHECK:         %[[N:.*]] = memref.load %[[QN]]
// CHECK:         %[[FITS:.*]] = arith.cmpi sle, %[[N]], %c4096_i32
// CHECK:         scf.if %[[FITS]] -> (i64, i32, i32) {
// CHECK:           %[[NI:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK:           scf.for %{{.*}} = %thread_id_x to %[[NI]] step %c1024{{.*}} iter_args
// CHECK:             memref.load %[[QUEUE]]
// CHECK:             vector.load %arg0[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x128256xf32>, vector<4xf32>
// CHECK:             vector.load %[[CACHE]]
// the mass above the cut's bin, credited to the owner
// CHECK:             arith.divui %{{.*}}, %c16
// CHECK:             arith.cmpi ne, %{{.*}}, %c0_i64
// CHECK:             memref.atomic_rmw addi %{{.*}}, %[[HIST]]
// CHECK:           scf.yield %c0_i64{{.*}}, %{{.*}}#0, %{{.*}}#1 : i64, i32, i32
// CHECK:         } else {
// CHECK:           scf.for %{{.*}} = %c0{{.*}} to %c8{{.*}} step %c1{{.*}} iter_args({{.*}}) -> (i64, i32, i32)
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

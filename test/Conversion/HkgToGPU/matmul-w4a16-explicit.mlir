// hkg.matmul_w4a16 with explicit schedules on sm_90: the matrix-core
// kernel's split-K through the workspace global, and the weight-streaming
// kernel (mma = none).
// RUN: hkg-opt %s --hkg-lower-to-gpu=chip=sm_90 | FileCheck %s

// Split-K: each workgroup stores its partial to the workspace global,
// counts its arrival, and the last one sums the 2 partials in rank order
// (a loop LLVM does not unroll).
// CHECK-LABEL: gpu.module @hkg_matmul_w4a16_0
// CHECK: memref.global "private" @hkg_matmul_w4a16_0_split_k_arrivals : memref<1xi32, #gpu.address_space<global>> = dense<0>
// CHECK: memref.global "private" @hkg_matmul_w4a16_0_split_k_partials : memref<1x2x2048xf32, #gpu.address_space<global>>
// CHECK: scf.for
// CHECK: nvgpu.mma.sync
// CHECK: scf.yield
// CHECK: vector.store %{{.*}}[%{{.*}}, %block_id_y, %{{.*}}] {{.*}} : memref<1x2x2048xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: llvm.fence syncscope("device") release
// CHECK: gpu.barrier
// CHECK: memref.atomic_rmw addi
// CHECK: llvm.fence syncscope("device") acquire
// CHECK: scf.for %[[R:.*]] = %c0{{.*}} to %c2{{.*}} step %c1{{.*}} iter_args(%[[SUM:.*]] = %cst{{.*}}) -> (vector<4xf32>)
// CHECK:   %[[P:.*]] = vector.load %{{.*}}[%{{.*}}, %[[R]], %{{.*}}] {{.*}} : memref<1x2x2048xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK:   arith.addf %[[SUM]], %[[P]] : vector<4xf32>
// CHECK: } {llvm.loop_annotation
// CHECK: memref.store %{{.*}} : memref<16x128xf16>
func.func @split(%x: tensor<16x1024xf16>, %w: tensor<128x512xi8>, %s: tensor<128x16xf16>, %z: tensor<128x16xi8>) -> tensor<16x128xf16> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(64) {schedule = #hkg.schedule<mma = mma_16x8x16, rows_per_wave = 16, tile_m = 16, threads = 256, unroll = 2, split_k = 2>} : tensor<16x1024xf16>, tensor<128x512xi8>, tensor<128x16xf16>, tensor<128x16xi8> -> tensor<16x128xf16>
  return %y : tensor<16x128xf16>
}

// The streaming kernel (mma = none), ragged: 3 activation rows in a tile of
// 4, 5 weight rows, 3 chunks a row (a partial step).
// CHECK-LABEL: gpu.func @hkg_matmul_w4a16_1
// CHECK: scf.for
// CHECK:   arith.cmpi ult, %{{.*}}, %c3
// CHECK:   arith.minui %{{.*}}, %c2
// CHECK:   vector.load %{{.*}} : memref<5x48xi8>, vector<16xi8>
// CHECK:   vector.bitcast %{{.*}} : vector<16xi8> to vector<4xi32>
// CHECK:   arith.select
// CHECK:   arith.ori %{{.*}}, %c1258291200_i32
// CHECK:   arith.shrui
// CHECK:   arith.andi
// CHECK:   arith.ori
// CHECK:   arith.bitcast %{{.*}} : vector<8xi32> to vector<8xf32>
// CHECK:   arith.subf
// CHECK:   arith.mulf
// CHECK:   vector.load %{{.*}} : memref<3x96xbf16>, vector<8xbf16>
// CHECK:   vector.fma
// CHECK: gpu.shuffle  xor
// CHECK: memref.store %{{.*}} : memref<3x5xbf16>
func.func @ragged_stream(%x: tensor<3x96xbf16>, %w: tensor<5x48xi8>, %s: tensor<5x3xbf16>, %z: tensor<5x3xi8>) -> tensor<3x5xbf16> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = none, tile_m = 4, rows_per_wave = 2, unroll = 1, threads = 256>} : tensor<3x96xbf16>, tensor<5x48xi8>, tensor<5x3xbf16>, tensor<5x3xi8> -> tensor<3x5xbf16>
  return %y : tensor<3x5xbf16>
}

// The streaming kernel's accumulators (here 1 activation row x 2 weight
// rows) are each summed over the wave's 32 lanes: 5 butterfly levels of 2
// shuffles, and each output stores its own sum. (A combiner that kept only
// the first value of the tuple left the second output a stale value: wrong
// on the H100 with rows_per_wave > 1.)
// CHECK-LABEL: gpu.func @hkg_matmul_w4a16_2
// CHECK: %[[A0:.*]] = vector.reduction <add>, %{{.*}}#0
// CHECK: %[[B0:.*]] = vector.reduction <add>, %{{.*}}#1
// CHECK-COUNT-10: gpu.shuffle  xor
// CHECK-NOT: gpu.shuffle
// CHECK: %[[A:.*]] = arith.addf %{{.*}}, %shuffleResult
// CHECK: %[[B:.*]] = arith.addf %{{.*}}, %shuffleResult
// CHECK: %[[TA:.*]] = arith.truncf %[[A]] : f32 to bf16
// CHECK: memref.store %[[TA]]
// CHECK: %[[TB:.*]] = arith.truncf %[[B]] : f32 to bf16
// CHECK: memref.store %[[TB]]
func.func @two_rows(%x: tensor<1x64xbf16>, %w: tensor<4x32xi8>, %s: tensor<4x2xbf16>, %z: tensor<4x2xi8>) -> tensor<1x4xbf16> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = none, tile_m = 1, rows_per_wave = 2, unroll = 1, threads = 64>} : tensor<1x64xbf16>, tensor<4x32xi8>, tensor<4x2xbf16>, tensor<4x2xi8> -> tensor<1x4xbf16>
  return %y : tensor<1x4xbf16>
}

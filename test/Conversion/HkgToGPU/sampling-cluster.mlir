// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu | FileCheck %s

// ctas_per_row = 2 (sm_90): a cluster of two workgroups per row
// (known_cluster_size, grid 2 x rows); workgroup rank = block id % 2 owns
// half the row (its first token at rank * V / 2). The max / min, the
// histogram (and the light-token mass), the cut bin's list and key range,
// the tie and mass totals go through distributed shared memory (nvvm.mapa +
// llvm.load from address space 7) after cluster barriers; the last barrier
// follows the last read of the peer's LDS.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_top_p_sample_0(
// CHECK-SAME:    known_block_size = array<i32: 1024, 1, 1>
// CHECK-SAME:    known_cluster_size = array<i32: 2, 1, 1>
// CHECK-SAME:    known_grid_size = array<i32: 128, 1, 1>
// CHECK:         %[[BID:.*]] = gpu.block_id x
// CHECK:         %[[ROW:.*]] = arith.divui %[[BID]], %c2
// CHECK:         %[[RANK:.*]] = arith.remui %[[BID]], %c2
// CHECK:         arith.muli %[[RANK]], %c64128
// max / min
// CHECK:         nvvm.cluster.arrive {aligned}
// CHECK-NEXT:    nvvm.cluster.wait {aligned}
// CHECK:         nvvm.mapa %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:         llvm.load %{{.*}} : !llvm.ptr<7> -> f32
// the histogram merge: the peer's 6 words of this thread's bins (2048
// bins x 3 words / 1024 threads) and its light-token mass, a barrier, the
// adds
// CHECK:         memref.atomic_rmw addi
// CHECK:         nvvm.cluster.arrive {aligned}
// CHECK-COUNT-6: llvm.load %{{.*}} : !llvm.ptr<7> -> i32
// CHECK:         llvm.load %{{.*}} : !llvm.ptr<7> -> i64
// CHECK-NEXT:    nvvm.cluster.arrive {aligned}
// CHECK-NEXT:    nvvm.cluster.wait {aligned}
// CHECK:         arith.addi
// CHECK:         memref.store
// list count and key range; with room for both lists, the peer's list
// appended (key, id, mass); the fallback merges its key histograms the same
// way inside its loop
// CHECK:         nvvm.cluster.arrive {aligned}
// CHECK-COUNT-3: llvm.load %{{.*}} : !llvm.ptr<7> -> i32
// CHECK:         scf.if %{{.*}} -> (i32, i64, i64, i64) {
// CHECK:           llvm.load %{{.*}} : !llvm.ptr<7> -> i32
// CHECK:           llvm.load %{{.*}} : !llvm.ptr<7> -> i32
// CHECK:           llvm.load %{{.*}} : !llvm.ptr<7> -> i64
// CHECK:         } else {
// CHECK:           scf.while
// CHECK:             nvvm.cluster.arrive {aligned}
// CHECK-COUNT-6:     llvm.load %{{.*}} : !llvm.ptr<7> -> i32
// CHECK-NEXT:        nvvm.cluster.arrive {aligned}
// ties, mass, the last barrier, the draw
// CHECK:         nvvm.cluster.arrive {aligned}
// CHECK:         llvm.load %{{.*}} : !llvm.ptr<7> -> i64
// CHECK:         nvvm.cluster.arrive {aligned}
// CHECK:         llvm.load %{{.*}} : !llvm.ptr<7> -> i64
// CHECK:         nvvm.cluster.arrive {aligned}
// CHECK-NEXT:    nvvm.cluster.wait {aligned}
// CHECK-NOT:     nvvm.mapa
// CHECK:         memref.store %{{.*}}, %{{.*}}[%[[ROW]]] : memref<64xi32>
// CHECK:         gpu.return
func.func @split(%x: tensor<64x128256xf32>) -> tensor<64xi32> {
  %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(1234) {schedule = #hkg.schedule<vector_width = 4, threads = 1024, unroll = 2, bins = 2048, light_tokens = 1, ctas_per_row = 2>} : tensor<64x128256xf32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}
}

// -----

// ctas_per_row = 1: no cluster.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_top_p_sample_0(
// CHECK-NOT:     known_cluster_size
// CHECK-NOT:     nvvm.
// CHECK:         gpu.return
func.func @one(%x: tensor<64x128256xf32>) -> tensor<64xi32> {
  %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(1234) {schedule = #hkg.schedule<vector_width = 4, threads = 1024, unroll = 2, bins = 2048, ctas_per_row = 1>} : tensor<64x128256xf32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}
}

// -----

// ctas_per_row = 4: a cluster of four, rank = block id % 4 owning a quarter
// of the row (its first token at rank * V / 4); every exchange reads the
// three other workgroups' LDS (peer ranks (rank + 1..3) % 4): the max / min
// from each (6 remote f32 loads), the histogram's 3 x bins / threads = 12
// words per thread from each (36 i32 loads).

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_top_p_sample_0(
// CHECK-SAME:    known_block_size = array<i32: 512, 1, 1>
// CHECK-SAME:    known_cluster_size = array<i32: 4, 1, 1>
// CHECK-SAME:    known_grid_size = array<i32: 256, 1, 1>
// CHECK:         %[[BID:.*]] = gpu.block_id x
// CHECK:         %[[ROW:.*]] = arith.divui %[[BID]], %c4
// CHECK:         %[[RANK:.*]] = arith.remui %[[BID]], %c4
// CHECK:         arith.muli %[[RANK]], %c32064
// CHECK:         nvvm.cluster.arrive {aligned}
// CHECK-NEXT:    nvvm.cluster.wait {aligned}
// CHECK-COUNT-6: llvm.load %{{.*}} : !llvm.ptr<7> -> f32
// CHECK-NOT:     llvm.load %{{.*}} : !llvm.ptr<7> -> f32
// CHECK:         memref.atomic_rmw addi
// CHECK:         nvvm.cluster.arrive {aligned}
// CHECK-NEXT:    nvvm.cluster.wait {aligned}
// CHECK-COUNT-36: llvm.load %{{.*}} : !llvm.ptr<7> -> i32
// CHECK-NOT:     llvm.load %{{.*}} : !llvm.ptr<7>
// CHECK:         nvvm.cluster.arrive {aligned}
// CHECK:         memref.store %{{.*}}, %{{.*}}[%[[ROW]]] : memref<64xi32>
// CHECK:         gpu.return
func.func @quarters(%x: tensor<64x128256xf32>) -> tensor<64xi32> {
  %0 = hkg.top_p_sample %x p(0.9) temperature(1.0) seed(1234) {schedule = #hkg.schedule<vector_width = 4, threads = 512, unroll = 2, bins = 2048, ctas_per_row = 4>} : tensor<64x128256xf32> -> tensor<64xi32>
  return %0 : tensor<64xi32>
}
}

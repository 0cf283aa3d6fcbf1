// split_k_reduce = workspace (every target): the split_k workgroups of an
// output tile store their f32 partial sums in a global workspace of the
// kernel's module; the last workgroup of each group of 16 to arrive (an
// atomic counter, reset to 0 by that workgroup) adds the group's partials
// in rank order, level by level, and the last one stores the result.
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 --canonicalize --cse | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: hkg-opt %s --split-input-file --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 --canonicalize --cse | FileCheck %s --check-prefixes=CHECK,GFX942

// M = 1, W as [K, N] (the matrix-vector default): 16 x 128 tiles (a K
// row of the tile is 256 bytes), K split over 128 workgroups per tile: 2048
// workgroups, no cluster. Two levels: 128 partials in 8 groups of 16, then
// the 8 group sums (128 + 8 = 136 partials of 16 x 128 floats per tile; 9
// counters).
// CHECK-LABEL: func.func @gemv_m1
// SM90: gpu.launch_func @hkg_matmul_0::@hkg_matmul_0 blocks in (%c2048, %c1, %c1) threads in (%c128, %c1, %c1)
// GFX942: gpu.launch_func @hkg_matmul_0::@hkg_matmul_0 blocks in (%c2048, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK-LABEL: gpu.module @hkg_matmul_0
// CHECK-DAG: memref.global "private" @hkg_matmul_0_split_k_arrivals : memref<16x9xi32, #gpu.address_space<global>> = dense<0> {alignment = 16 : i64}
// CHECK-DAG: memref.global "private" @hkg_matmul_0_split_k_partials : memref<16x136x2048xf32, #gpu.address_space<global>> = uninitialized {alignment = 16 : i64}
// CHECK: gpu.func @hkg_matmul_0
// CHECK-NOT: known_cluster_size
// CHECK-SAME: {
// The workgroup's first K step: rank (block id mod split_k) x its steps.
// CHECK: %[[P:.*]] = gpu.block_id  x
// CHECK: %[[RANK:.*]] = arith.remui %[[P]], %c128 : index
// CHECK: scf.for
// Level 0: store the partial at its rank, publish, count the arrival.
// CHECK: %[[WS:.*]] = memref.get_global @hkg_matmul_0_split_k_partials
// CHECK: %[[CNT:.*]] = memref.get_global @hkg_matmul_0_split_k_arrivals
// (16 floats a thread on sm_90, 8 on gfx942: four and two 16-byte stores)
// SM90-COUNT-4: vector.store %{{.*}}, %[[WS]][%{{.*}}, %[[RANK]], %{{.*}}] {alignment = 16 : i64}
// GFX942-COUNT-2: vector.store %{{.*}}, %[[WS]][%{{.*}}, %[[RANK]], %{{.*}}] {alignment = 16 : i64}
// SM90-NEXT: llvm.fence syncscope("device") release
// GFX942-NEXT: llvm.fence syncscope("agent") release
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK-NEXT: %[[OLD:.*]] = memref.atomic_rmw addi %c1_i32, %[[CNT]]
// CHECK-NEXT: %[[LAST:.*]] = arith.cmpi eq, %[[OLD]], %c15_i32 : i32
// The last arrival resets the counter for the next launch.
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK-NEXT: memref.store %c0_i32, %[[CNT]]
// CHECK: gpu.barrier
// CHECK: scf.if
// SM90-NEXT: llvm.fence syncscope("device") acquire
// GFX942-NEXT: llvm.fence syncscope("agent") acquire
// The group's 16 partials, in rank order, then level 1.
// CHECK-COUNT-16: vector.load %[[WS]]
// CHECK: arith.addf
// CHECK: vector.store %{{.*}}, %[[WS]]
// CHECK: memref.atomic_rmw addi %c1_i32, %[[CNT]]
// CHECK: arith.cmpi eq, %{{.*}}, %c7_i32 : i32
// The last of the last group stores the result.
// CHECK: memref.store %{{.*}} : memref<1x1x2048xbf16>
// CHECK: gpu.return
func.func @gemv_m1(%x: tensor<1x65536xbf16>, %w: tensor<65536x2048xbf16>) -> tensor<1x2048xbf16> {
  %0 = hkg.matmul %x, %w : tensor<1x65536xbf16>, tensor<65536x2048xbf16> -> tensor<1x2048xbf16>
  return %0 : tensor<1x2048xbf16>
}

// -----

// A schedule that sets split_k alone on a matrix-vector shape takes the
// shape's default reduction, the workspace, on sm_90 too (a cluster only
// where split_k_reduce = cluster says so: matmul-split-k.mlir): one level of
// 2 partials per 16 x 32 tile (16 x 64 on gfx942).
// CHECK-LABEL: func.func @split_only
// CHECK-LABEL: gpu.module @hkg_matmul_0
// SM90: memref.global "private" @hkg_matmul_0_split_k_partials : memref<128x2x512xf32
// GFX942: memref.global "private" @hkg_matmul_0_split_k_partials : memref<64x2x1024xf32
// CHECK-NOT: known_cluster_size
// CHECK: memref.atomic_rmw addi
// CHECK: arith.cmpi eq, %{{.*}}, %c1_i32 : i32
// CHECK-NOT: memref.atomic_rmw
// CHECK: gpu.return
func.func @split_only(%x: tensor<16x4096xbf16>, %w: tensor<4096x4096xbf16>) -> tensor<16x4096xbf16> {
  %0 = hkg.matmul %x, %w {transpose_b, schedule = #hkg.schedule<split_k = 2>} : tensor<16x4096xbf16>, tensor<4096x4096xbf16> -> tensor<16x4096xbf16>
  return %0 : tensor<16x4096xbf16>
}

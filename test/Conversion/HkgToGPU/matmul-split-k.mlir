// split_k on sm_90: clusters of split_k workgroups per output tile, each over
// its share of the K steps; the partial sums meet in distributed shared
// memory and the cluster's first workgroup stores the result.
// RUN: hkg-opt %s --hkg-lower-to-gpu=chip=sm_90 --canonicalize --cse | FileCheck %s

// 16 x 4096 x 4096 (the decode default: mma.sync, 16 x 32 tiles, K steps of 128):
// 128 tiles x 4 = 512 workgroups in clusters of 4, 8 of the 32 K steps each.
// The host launch is unchanged: the PTX's .reqnctapercluster makes the grid
// run as clusters.
// CHECK: gpu.launch_func  @hkg_matmul_0::@hkg_matmul_0 blocks in (%c512, %c1, %c1) threads in (%c128, %c1, %c1)
// CHECK-LABEL: gpu.func @hkg_matmul_0
// CHECK-SAME: known_cluster_size = array<i32: 4, 1, 1>
// CHECK-SAME: known_grid_size = array<i32: 512, 1, 1>
// CHECK: %[[P:.*]] = gpu.block_id  x
// CHECK: %[[RANK:.*]] = arith.remui %[[P]], %c4 : index
// CHECK: %[[TILE:.*]] = arith.divui %[[P]], %c4 : index
// CHECK: arith.divui %[[TILE]], %c128 : index
// The first K step of this workgroup: rank x 8 steps x 128 elements.
// CHECK: arith.muli %[[RANK]], %c1024 : index
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args
// CHECK: nvvm.mma.sync
// Publish, cluster barrier, the first workgroup adds the 3 others' sums.
// CHECK: vector.store %{{.*}} : memref<128x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[RANK]], %c0 : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: nvvm.mapa %{{.*}}, %c1_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<7> -> vector<4xf32>
// CHECK: nvvm.mapa %{{.*}}, %c2_i32
// CHECK: nvvm.mapa %{{.*}}, %c3_i32
// CHECK-NOT: nvvm.mapa
// CHECK: vector.store
// CHECK: }
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: gpu.return
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  func.func @gemm_decode(%a: tensor<16x4096xbf16>, %w: tensor<4096x4096xbf16>) -> tensor<16x4096xbf16> {
    %0 = hkg.matmul %a, %w {transpose_b, schedule = #hkg.schedule<split_k = 4, split_k_reduce = cluster>} : tensor<16x4096xbf16>, tensor<4096x4096xbf16> -> tensor<16x4096xbf16>
    return %0 : tensor<16x4096xbf16>
  }
}

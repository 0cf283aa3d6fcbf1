// RUN: hkg-opt %s --hkg-default-schedule=chip=sm_90 --hkg-lower-to-gpu=chip=sm_90 | FileCheck %s
// RUN: hkg-opt %s --hkg-default-schedule=chip=gfx942 --hkg-lower-to-gpu=chip=gfx942 | FileCheck %s --check-prefix=GFX942

// One workgroup per slice: 64 rows of logits, 1024 threads each. LDS: the
// 2048-bin histogram, the k (padded to 64) candidates' keys and positions,
// the selection state, the counters, the threads' two largest keys and the
// pool's keys and positions: 16384 of each on sm_90, past the 48 KiB of
// static shared memory (so in dynamic shared memory), 4096 in gfx942's
// 64 KiB.
// CHECK: gpu.launch_func {{ *}}@hkg_topk_0::@hkg_topk_0 blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) dynamic_shared_memory_size %{{.*}} args(%{{.*}} : memref<64x128256xf32>, %{{.*}} : memref<64x50xf32>, %{{.*}} : memref<64x50xi32>)
// CHECK-LABEL: gpu.func @hkg_topk_0(%{{.*}}: memref<64x128256xf32>, %{{.*}}: memref<64x50xf32>, %{{.*}}: memref<64x50xi32>)
// CHECK-SAME: hkg.arg_roles = ["input", "output", "output"]
// CHECK-SAME: hkg.dynamic_lds_bytes = 149152
// CHECK-SAME: hkg.op = "hkg.topk"
// CHECK-SAME: known_block_size = array<i32: 1024, 1, 1>, known_grid_size = array<i32: 64, 1, 1>
// CHECK: %[[SMEM:.*]] = gpu.dynamic_shared_memory
// CHECK: %[[HIST:.*]] = memref.view %[[SMEM]]{{.*}} to memref<2048xi32, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[SMEM]]{{.*}} to memref<64xi32, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[SMEM]]{{.*}} to memref<64xi32, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[SMEM]]{{.*}} to memref<3xi32, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[SMEM]]{{.*}} to memref<3xi32, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[SMEM]]{{.*}} to memref<2048xi32, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[SMEM]]{{.*}} to memref<16384xi32, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[SMEM]]{{.*}} to memref<16384xi32, #gpu.address_space<workgroup>>
// The threads' maxima, 16-byte loads of the row, histogram atomics, and the
// decoded values and positions stored.
// CHECK: vector.load %{{.*}} : memref<64x128256xf32>, vector<4xf32>
// CHECK: vector.reduction <or>
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[HIST]][%{{.*}}] : (i32, memref<2048xi32, #gpu.address_space<workgroup>>) -> i32
// CHECK: scf.if
// CHECK: memref.store %{{.*}} : memref<64x50x1xf32>
// CHECK: memref.store %{{.*}} : memref<64x50x1xi32>
// GFX942-LABEL: gpu.func @hkg_topk_0
// GFX942-SAME: workgroup(%{{.*}} : memref<2048xi32, #gpu.address_space<workgroup>> {{.*}}, %{{.*}} : memref<64xi32, #gpu.address_space<workgroup>> {{.*}}, %{{.*}} : memref<64xi32, #gpu.address_space<workgroup>> {{.*}}, %{{.*}} : memref<3xi32, #gpu.address_space<workgroup>> {{.*}}, %{{.*}} : memref<3xi32, #gpu.address_space<workgroup>> {{.*}}, %{{.*}} : memref<2048xi32, #gpu.address_space<workgroup>> {{.*}}, %{{.*}} : memref<4096xi32, #gpu.address_space<workgroup>> {{.*}}, %{{.*}} : memref<4096xi32, #gpu.address_space<workgroup>>
// GFX942-SAME: known_block_size = array<i32: 1024, 1, 1>
func.func @logits(%x: tensor<64x128256xf32>) -> (tensor<64x50xf32>, tensor<64x50xi32>) {
  %v, %i = hkg.topk %x k(50) axis(1) : tensor<64x128256xf32> -> tensor<64x50xf32>, tensor<64x50xi32>
  return %v, %i : tensor<64x50xf32>, tensor<64x50xi32>
}

// A strided axis, a workgroup per slice (forced): scalar loads at [slice,
// position, inner], one workgroup per (outer, inner) pair, i64 positions
// widened from i32.
// CHECK-LABEL: gpu.func @hkg_topk_1
// CHECK-SAME: known_grid_size = array<i32: 16, 1, 1>
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x1000x8xf16>
// CHECK: arith.extui %{{.*}} : i32 to i64
// CHECK: memref.store %{{.*}} : memref<2x10x8xi64>
func.func @strided(%x: tensor<2x1000x8xf16>) -> (tensor<2x10x8xf16>, tensor<2x10x8xi64>) {
  %v, %i = hkg.topk %x k(10) axis(1) {schedule = #hkg.schedule<per_slice = workgroup>} : tensor<2x1000x8xf16> -> tensor<2x10x8xf16>, tensor<2x10x8xi64>
  return %v, %i : tensor<2x10x8xf16>, tensor<2x10x8xi64>
}

// k above twice the threads: no pool, the radix passes run on the slice.
// CHECK-LABEL: gpu.func @hkg_topk_2
// CHECK-SAME: workgroup(%{{.*}} : memref<2048xi32, #gpu.address_space<workgroup>> {{.*}}, %{{.*}} : memref<1024xi32, #gpu.address_space<workgroup>> {{.*}}, %{{.*}} : memref<1024xi32, #gpu.address_space<workgroup>> {{.*}}, %{{.*}} : memref<3xi32, #gpu.address_space<workgroup>> {{.*}}, %{{.*}} : memref<3xi32, #gpu.address_space<workgroup>> {{.*}}, %{{.*}} : memref<8xi32
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
func.func @no_pool(%x: tensor<4x4096xf32>) -> (tensor<4x1000xf32>, tensor<4x1000xi32>) {
  %v, %i = hkg.topk %x k(1000) axis(1) {schedule = #hkg.schedule<threads = 256>} : tensor<4x4096xf32> -> tensor<4x1000xf32>, tensor<4x1000xi32>
  return %v, %i : tensor<4x1000xf32>, tensor<4x1000xi32>
}

// MoE gating, a wave per slice: 256 threads = 8 slices a workgroup (2048
// workgroups for 16384 tokens), no LDS, 16 lanes' 4 keys carried through
// k rounds of a butterfly over the wave (5 xor shuffles of the key and the
// position), lane 0 storing each round's value and position.
// CHECK-LABEL: gpu.func @hkg_topk_3
// CHECK-NOT: workgroup(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 2048, 1, 1>
// CHECK: vector.load %{{.*}} : memref<16384x64xf32>, vector<4xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, i32, i32, i32)
// CHECK-COUNT-10: gpu.shuffle {{ *}}xor
// CHECK: scf.if
// CHECK: memref.store %{{.*}} : memref<16384x2x1xf32>
// CHECK: memref.store %{{.*}} : memref<16384x2x1xi64>
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @gating(%x: tensor<16384x64xf32>) -> (tensor<16384x2xf32>, tensor<16384x2xi64>) {
  %v, %i = hkg.topk %x k(2) axis(1) : tensor<16384x64xf32> -> tensor<16384x2xf32>, tensor<16384x2xi64>
  return %v, %i : tensor<16384x2xf32>, tensor<16384x2xi64>
}

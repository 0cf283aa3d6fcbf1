// The LDS-pipelined W4A16 kernel (MatmulW4A16Tiled.cpp; stages > 0, the
// sm_90 default from batch 64): activations and packed weights through
// `stages` LDS buffers by cp.async (activation chunks past M or K
// zero-filled, weight rows past N clamped), the activations read by
// ldmatrix.x4 as mma.sync's A operand, each lane's k16 weight word pair read
// from LDS and its byte lane % 4 turned into 16-bit pairs (prmt of the word
// and the word >> 4, & 0x000F000F | magic, minus magic + z, times the
// scale) as the B fragment.
// RUN: hkg-opt %s --hkg-lower-to-gpu=chip=sm_90 | FileCheck %s

// 64 x 64 x 128, groups of 32: 2 x 2 waves of 32 x 16 warp tiles (2 m16 x
// 2 n8), tile_n = 32, 2 stages; two groups a step of 64 k (scales and zero
// points of the next step loop-carried); in bounds: no zero fill, no
// clamps, pair stores.
// CHECK-LABEL: gpu.func @hkg_matmul_w4a16_0
// CHECK-SAME: workgroup(%[[XS:[a-z0-9]+]] : memref<2x64x64xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[WS:[a-z0-9]+]] : memref<2x32x48xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: arith.xori
// CHECK-NOT: arith.select
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}], %[[XS]][%{{.*}}, %{{.*}}, %{{.*}}], 8 {bypassL1} : memref<64x128xbf16> to memref<2x64x64xbf16
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}], %[[WS]][%{{.*}}, %{{.*}}, %{{.*}}], 16 {bypassL1} : memref<64x64xi8> to memref<2x32x48xi8
// CHECK: nvgpu.device_async_create_group
// CHECK: memref.load %{{.*}} : memref<64x4xbf16>
// CHECK: memref.load %{{.*}} : memref<64x4xi8>
// CHECK: scf.for
// CHECK:   nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK:   gpu.barrier
// CHECK:   nvgpu.device_async_copy
// CHECK:   arith.ori %{{.*}}, %c17152_i32{{(_[0-9]+)?}}
// CHECK:   arith.muli %{{.*}}, %c65537_i32{{(_[0-9]+)?}}
// CHECK:   nvgpu.ldmatrix %[[XS]][{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<2x64x64xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK:   vector.load %[[WS]][{{.*}}] {alignment = 8 : i64} : memref<2x32x48xi8, #gpu.address_space<workgroup>>, vector<8xi8>
// CHECK:   vector.bitcast %{{.*}} : vector<8xi8> to vector<2xi32>
// CHECK:   arith.shrui %{{.*}}, %c4_i32{{(_[0-9]+)?}}
// CHECK:   llvm.inline_asm "prmt.b32 $0, $1, $2, $3;", "=r,r,r,r" %{{.*}}, %{{.*}}, %{{.*}} : (i32, i32, i32) -> i32
// CHECK:   llvm.inline_asm "lop3.b32 $0, $1, $2, $3, 0xEA;", "=r,r,n,n" %{{.*}}, %c983055_i32{{(_[0-9]+)?}}, %c1124090624_i32{{(_[0-9]+)?}} : (i32, i32, i32) -> i32
// CHECK:   arith.subf %{{.*}} : vector<2xbf16>
// CHECK:   arith.mulf %{{.*}} : vector<2xbf16>
// CHECK:   nvvm.mma.sync
// CHECK:   scf.yield
// CHECK: nvgpu.device_async_wait
// CHECK: vector.store %{{.*}} {alignment = 4 : i64} : memref<64x64xbf16>, vector<2xbf16>
// CHECK-NOT: memref.store
// CHECK: gpu.return
func.func @aligned(%x: tensor<64x128xbf16>, %w: tensor<64x64xi8>, %s: tensor<64x4xbf16>, %z: tensor<64x4xi8>) -> tensor<64x64xbf16> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = mma_16x8x16, stages = 2, tile_m = 64, waves_m = 2, threads = 128, rows_per_wave = 16, split_k = 1>} : tensor<64x128xbf16>, tensor<64x64xi8>, tensor<64x4xbf16>, tensor<64x4xi8> -> tensor<64x64xbf16>
  return %y : tensor<64x64xbf16>
}

// Ragged: 70 activation rows (2 tiles of 64), 40 weight rows (2 tiles of
// 32), K = 160 (2.5 steps: the last half step's activation chunks
// zero-filled, its weight bytes clamped) split 2 ways through the
// workspace; f16 with groups of 32 (two a step); an f32 result
// stored per element under guards.
// CHECK-LABEL: gpu.func @hkg_matmul_w4a16_1
// CHECK: arith.cmpi ult, %{{.*}}, %c70{{(_[0-9]+)?}}
// CHECK: arith.cmpi ult, %{{.*}}, %c160{{(_[0-9]+)?}}
// CHECK: arith.select %{{.*}}, %c8{{(_[0-9]+)?}}, %c0{{(_[0-9]+)?}}
// CHECK: nvgpu.device_async_copy {{.*}} : memref<70x160xf16> to memref<3x64x64xf16
// CHECK: arith.minui %{{.*}}, %c39{{(_[0-9]+)?}}
// CHECK: arith.minui %{{.*}}, %c64{{(_[0-9]+)?}}
// CHECK: nvgpu.device_async_copy {{.*}} : memref<40x80xi8> to memref<3x32x48xi8
// CHECK: scf.for
// CHECK:   nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// CHECK:   arith.ori %{{.*}}, %c25600_i32{{(_[0-9]+)?}}
// CHECK:   llvm.inline_asm "lop3.b32 $0, $1, $2, $3, 0xEA;", "=r,r,n,n" %{{.*}}, %c983055_i32{{(_[0-9]+)?}}, %c1677747200_i32{{(_[0-9]+)?}}
// CHECK:   arith.subf %{{.*}} : vector<2xf16>
// CHECK:   arith.mulf %{{.*}} : vector<2xf16>
// CHECK:   nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>)
// CHECK: memref.atomic_rmw addi
// CHECK: scf.for
// CHECK:   vector.load %{{.*}} : memref<4x2x2048xf32, #gpu.address_space<global>>, vector<4xf32>
// CHECK: arith.cmpi ult, %{{.*}}, %c70{{(_[0-9]+)?}}
// CHECK: arith.cmpi ult, %{{.*}}, %c40{{(_[0-9]+)?}}
// CHECK: memref.store %{{.*}} : memref<70x40xf32>
func.func @ragged(%x: tensor<70x160xf16>, %w: tensor<40x80xi8>, %s: tensor<40x5xf16>, %z: tensor<40x5xi8>) -> tensor<70x40xf32> {
  %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32) {schedule = #hkg.schedule<mma = mma_16x8x16, stages = 3, tile_m = 64, waves_m = 2, threads = 128, rows_per_wave = 16, split_k = 2>} : tensor<70x160xf16>, tensor<40x80xi8>, tensor<40x5xf16>, tensor<40x5xi8> -> tensor<70x40xf32>
  return %y : tensor<70x40xf32>
}
